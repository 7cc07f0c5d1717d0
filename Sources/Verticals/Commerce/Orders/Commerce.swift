import Logging
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukNotifications
import SoukPayments
import SoukStore

/// The commerce domain: catalogs (water services, retail products, restaurants and menus), carts,
/// checkout and orders paid through the payments platform, cash on delivery, staff deliveries,
/// food drivers and their dispatch, and feedback — the journeys of Aqua Hub, Chateau Du Nox and
/// DineSwift.
public final class Commerce: SoukDomain {
    public let store: Store
    let logger: Logger
    let orderNumbers: OrderNumbers
    /// The kinds of record paid through the payments platform; commerce registers its orders'
    /// refunds there.
    public let payables: PayableTargets
    /// The subjects other domains keep that `Feedback.CreateFeedback` rates (rental bookings).
    public let ratables: RatedSubjects
    /// The accounts, whose full view (with their vertical's rating) `Feedback.GetRatingSummary` reads.
    let identity: Identity?

    public static var tables: [AnyTable] {
        ServiceTable.all + ProductTable.all + FoodTables.all + CartTable.all + OrderTable.all + DeliveryTable.all + CourierTable.all
            + RatingTotalTable.all + FoodTotalsTable.all
    }

    /// With `identity`, commerce joins its role decisions: a restaurant account awaiting approval
    /// with its restaurant is decided through the catalog (`RestaurantApproval`); blocking a
    /// courier takes them out of dispatch (`BlockedCouriers`); couriers' ratings show on their
    /// accounts (`CommerceAccountPart`); commerce checks its part of the settings
    /// (`CommerceSettings`). An order's refund shows on the order (`OrderRefunds`, registered in
    /// `payables`).
    public init(
        store: Store, identity: Identity? = nil, payables: PayableTargets = PayableTargets(), ratables: RatedSubjects = RatedSubjects(),
        logger: Logger = Logger(label: "souk.commerce")
    ) {
        self.store = store
        self.logger = logger
        self.payables = payables
        self.ratables = ratables
        self.identity = identity
        orderNumbers = OrderNumbers(store: store)
        payables.registerRefunds(.order, OrderRefunds())
        if let identity {
            RestaurantApproval.register(in: identity.roleDecisionHooks)
            BlockedCouriers.register(in: identity.blockHooks, store: store)
            identity.accountParts.register(CommerceAccountPart(), for: [.waterServices, .foodDelivery])
            CommerceSettings.register(in: identity.marketplaces.settingsValidators)
        }
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [
            CatalogService(commerce: self).declaration.rpcService(kit),
            CartsService(commerce: self).declaration.rpcService(kit),
            OrdersService(commerce: self).declaration.rpcService(kit),
            CashPayments(commerce: self).declaration.rpcService(kit),
            DeliveriesService(commerce: self).declaration.rpcService(kit),
            FeedbackService(commerce: self).declaration.rpcService(kit),
            ReportsService(commerce: self).declaration.rpcService(kit),
        ]
    }

    public func loadDemo(_ demo: DemoContext) async throws {
        try await CommerceDemo(commerce: self).load(demo)
    }

    /// The clock of the store, which tests move by hand.
    var now: StoreTime { store.configuration.clock() }
}

extension Commerce {
    /// The offer-lapse timer of food deliveries, and every minute (and at start) the reminders of
    /// tomorrow's scheduled orders, whose index is their schedule.
    public var background: DomainBackground {
        let store = self.store
        return DomainBackground(
            timers: [DeliveryOffers.offerLapse],
            jobs: [ScheduledJob("remind of scheduled orders", every: .seconds(60)) { try await ScheduledOrders.sendDue(store: store) }])
    }

    /// Writes the reminder of every scheduled order whose window starts within the next day and
    /// that has none yet. Returns how many were written.
    public func sendDueReminders() async throws -> Int {
        try await ScheduledOrders.sendDue(store: store)
    }
}

extension Commerce {
    /// Joins identity's role decisions and blocks, and shares the server's payable kinds and
    /// rated subjects.
    public convenience init(mounting context: DomainContext) throws {
        self.init(
            store: context.store, identity: try context.require(Identity.self), payables: context.shared { PayableTargets() },
            ratables: context.shared { RatedSubjects() })
    }

    /// Identity for the role decisions; the payments orders are paid with; the notifications
    /// orders and deliveries send.
    public static var dependencies: [any SoukDomain.Type] { [Identity.self, Payments.self, Notifications.self] }

    public static var lifecycles: [DeclaredLifecycle] {
        [
            DeclaredLifecycle(OrderLifecycles.waterServices), DeclaredLifecycle(OrderLifecycles.retail),
            DeclaredLifecycle(OrderLifecycles.foodDelivery), DeclaredLifecycle(DeliveryLifecycles.waterServices),
            DeclaredLifecycle(DeliveryLifecycles.foodDelivery),
        ]
    }

}
