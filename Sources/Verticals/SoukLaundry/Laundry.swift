import Logging
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukNotifications
import SoukPayments
import SoukReports
import SoukStore

/// The laundry domain (Drip 'n Dash): dorms, verified students, the Dasher quiz and the
/// accepting Dashers (`People/`); jobs a student submits in their dorm, the dorm's queue a Dasher
/// asks for work from, and the ten stages of a job (`Jobs/`); after stage 9, paying through
/// `Payments.CreatePayment`, ratings both ways, disputes and the Dashers' earnings
/// (`AfterDropOff/`). A refund reaches the job and the Dasher's earnings whether it comes from
/// `ResolveDispute` or an admin's `Payments.RefundPayment`.
public final class Laundry: SoukDomain {
    public let store: Store
    /// The payment ledger's refunds, for resolving disputes; jobs are registered there as payable.
    let payables: PayableTargets
    let logger: Logger

    public static var tables: [AnyTable] { JobTable.all + PeopleTables.all + JobRatingTables.all + [EarningsTable.table.erased] }

    /// With `identity`, laundry keeps the laundry part of Drip 'n Dash accounts (profiles and
    /// ratings, `LaundryAccountPart`), checks its settings, and stops a blocked Dasher's
    /// requests; jobs become payable through `payables`, which the server shares with the payments platform.
    public init(
        store: Store, identity: Identity? = nil, payables: PayableTargets = PayableTargets(), logger: Logger = Logger(label: "souk.laundry")
    ) {
        self.store = store
        self.payables = payables
        self.logger = logger
        if let identity {
            identity.accountParts.register(LaundryAccountPart(), for: [.laundry])
            LaundrySettings.register(in: identity.marketplaces.settingsValidators)
            LaundryProfiles.registerHooks(blockHooks: identity.blockHooks, deletionHooks: identity.deletionHooks)
        }
        payables.register(.job, JobPayable())
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [LaundryService(laundry: self).declaration.rpcService(kit)]
    }

    public func loadDemo(_ demo: DemoContext) async throws {
        try await LaundryDemo(store: store).load(demo)
    }

    /// The clock of the store, which tests move by hand.
    var now: StoreTime { store.configuration.clock() }
}

extension Laundry {
    /// The offer-lapse timer of jobs, and once at start the move of the ratings an earlier
    /// release stored apart to the shared feedback table (`LegacyJobRatings`).
    public var background: DomainBackground {
        let store = self.store
        return DomainBackground(
            timers: [JobQueue.offerLapse],
            jobs: [ScheduledJob.atStart("move legacy job ratings") { try await LegacyJobRatings.move(store: store) }])
    }
}

extension Laundry {
    /// Checks laundry profiles' dorms at sign-up (identity) and makes jobs payable through the
    /// server's payable kinds.
    public convenience init(mounting context: DomainContext) throws {
        self.init(store: context.store, identity: try context.require(Identity.self), payables: context.shared { PayableTargets() })
        context.shared { ConversationSubjects() }.register(.job, JobConversations())
        context.shared { ReportSources() }.register(JobReports.source)
    }

    /// Identity for the dorm check; the payments jobs are paid and refunded with; the
    /// notifications jobs send.
    public static var dependencies: [any SoukDomain.Type] { [Identity.self, Payments.self, Notifications.self] }

    public static var lifecycles: [DeclaredLifecycle] { [DeclaredLifecycle(JobLifecycle.machine)] }

}
