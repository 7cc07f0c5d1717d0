import Logging
import SoukGRPC
import SoukKit
import SoukReports
import SoukStore

/// The payments platform every vertical pays through: the ledger of payments, the payment
/// gateway and its calls (in two phases, `TwoPhaseCharge`, settled after a crash by
/// `PaymentRecovery`), the simulated gateway's card tokens, and the kinds of record the verticals
/// make payable (`PayableTargets`).
public final class Payments: SoukDomain {
    public let store: Store
    let logger: Logger
    /// The kinds of record the mounted domains pay or refund through the ledger.
    public let payables: PayableTargets
    /// Settles the gateway calls their own calls left unsettled: at start (`recoverAtStart`) and
    /// from the scheduled job of `background`.
    public let recovery: PaymentRecovery

    public static var tables: [AnyTable] { PaymentTable.all }

    /// Payments go through `gateway` (by default the simulated gateway, keeping its
    /// authorizations in memory); an authorization not committed within `grace` is voided. The
    /// domains that charge find the gateway through `payables`.
    public init(
        store: Store, payables: PayableTargets = PayableTargets(), gateway: (any PaymentGateway)? = nil, grace: Duration = .seconds(60),
        logger: Logger = Logger(label: "souk.payments")
    ) {
        self.store = store
        self.payables = payables
        self.logger = logger
        recovery = PaymentRecovery(store: store, gateway: gateway ?? SimulatedGateway(store: store), grace: grace, logger: logger)
        payables.install(recovery)
    }

    /// Settles every gateway call a previous process left unsettled, whatever its age: run at
    /// start, before calls are served, when none of them can still be in flight. Returns how many.
    public func recoverAtStart() async throws -> Int {
        try await recovery.runDue(now: now.adding(.seconds(365 * 86_400)))
    }

    /// The gateway calls due for recovery (`PaymentRecovery.runDue`), every second, run by the
    /// server's scheduler; `recoverAtStart` settles the previous run's before the server listens.
    public var background: DomainBackground {
        DomainBackground(jobs: [ScheduledJob("settle payment gateway calls", every: .seconds(1)) { try await self.recovery.runDue(now: self.now) }])
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [
            PaymentsService(payments: self).declaration.rpcService(kit),
            PaymentGatewayService(payments: self).declaration.rpcService(kit),
        ]
    }

    /// The clock of the store, which tests move by hand.
    var now: StoreTime { store.configuration.clock() }
}

extension Payments {
    /// Shares the server's one `PayableTargets` with the verticals that register their kinds there;
    /// pays through the `SimulatedGateway` the server provides (one in memory when none is).
    public convenience init(mounting context: DomainContext) throws {
        self.init(store: context.store, payables: context.shared { PayableTargets() }, gateway: context.optional(SimulatedGateway.self))
        context.shared { ReportSources() }.register(PaymentReports.source)
    }

    /// Payments add to the dashboards' totals (`SoukReports`).
    public static var dependencies: [any SoukDomain.Type] { [Reports.self] }

    public static var lifecycles: [DeclaredLifecycle] { [DeclaredLifecycle(PaymentLifecycle.machine)] }
}
