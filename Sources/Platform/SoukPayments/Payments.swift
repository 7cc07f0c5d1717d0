import Logging
import SoukGRPC
import SoukKit
import SoukStore

/// The payments platform every vertical pays through: the ledger of payments, the simulated
/// gateway's card tokens, and the kinds of record the verticals make payable (`PayableTargets`).
public final class Payments: SoukDomain {
    public let store: Store
    let logger: Logger
    /// The kinds of record the mounted domains pay or refund through the ledger.
    public let payables: PayableTargets

    public static var tables: [AnyTable] { PaymentTable.all }

    public init(store: Store, payables: PayableTargets = PayableTargets(), logger: Logger = Logger(label: "souk.payments")) {
        self.store = store
        self.payables = payables
        self.logger = logger
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
    /// Shares the server's one `PayableTargets` with the verticals that register their kinds there.
    public convenience init(mounting context: DomainContext) throws {
        self.init(store: context.store, payables: context.shared { PayableTargets() })
    }

    public static var lifecycles: [DeclaredLifecycle] { [DeclaredLifecycle(PaymentLifecycle.machine)] }
}
