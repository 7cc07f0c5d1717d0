import Logging
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukNotifications
import SoukPayments
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

    /// With `identity`, sign-up and profile changes check that a laundry profile's dorm exists;
    /// jobs become payable through `payables`, which the server shares with the payments platform.
    public init(
        store: Store, identity: Identity? = nil, payables: PayableTargets = PayableTargets(), logger: Logger = Logger(label: "souk.laundry")
    ) {
        self.store = store
        self.payables = payables
        self.logger = logger
        if let identity { Dorms.register(in: identity) }
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
    /// Background work until the calling task is cancelled or the store closes: first the
    /// ratings an earlier release stored apart move to the shared feedback table
    /// (`LegacyJobRatings`); then the offers past their time return to their dorm's queue every
    /// `interval`, so a job does not stay reserved for a Dasher who walked away even when nobody
    /// asks for work.
    public func runMaintenance(interval: Duration = .seconds(1)) async {
        do {
            let moved = try await LegacyJobRatings.move(store: store)
            if moved > 0 { logger.info("job ratings moved to the feedback table", metadata: ["ratings": "\(moved)"]) }
        } catch {
            logger.error("moving job ratings failed", metadata: ["error": "\(error)"])
        }
        while !Task.isCancelled {
            do {
                let expired = try await expireDueOffers()
                if expired > 0 { logger.info("job offers expired", metadata: ["jobs": "\(expired)"]) }
            } catch StoreError.closed {
                return
            } catch {
                logger.error("laundry maintenance failed", metadata: ["error": "\(error)"])
            }
            do { try await Task.sleep(for: interval) } catch { return }
        }
    }

    /// Returns every job whose offer lapsed to its dorm's queue. Returns how many.
    public func expireDueOffers() async throws -> Int {
        try await JobQueue(laundry: self).expireDueOffers()
    }
}

extension Laundry {
    /// Checks laundry profiles' dorms at sign-up (identity) and makes jobs payable through the
    /// server's payable kinds.
    public convenience init(mounting context: DomainContext) throws {
        self.init(store: context.store, identity: try context.require(Identity.self), payables: context.shared { PayableTargets() })
    }

    /// Identity for the dorm check; the payments jobs are paid and refunded with; the
    /// notifications jobs send.
    public static var dependencies: [any SoukDomain.Type] { [Identity.self, Payments.self, Notifications.self] }

    public static var lifecycles: [DeclaredLifecycle] { [DeclaredLifecycle(JobLifecycle.machine)] }

    /// Offer expiry (`runMaintenance`).
    public func runBackgroundWork() async {
        await runMaintenance()
    }
}
