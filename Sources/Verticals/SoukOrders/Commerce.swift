import Logging
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukNotifications
import SoukPayments
import SoukReports
import SoukStore

/// The orders the shops (SoukShops) and food delivery (SoukFood) share: carts, orders and their
/// lifecycles, cash on delivery, deliveries and couriers, and feedback. Each vertical adds its
/// part (stock, windows, restaurants, dispatch) through the `OrderVertical` it registers in
/// `verticals` when it is mounted.
public final class Commerce: SoukDomain {
    public let store: Store
    package let logger: Logger
    package let orderNumbers: OrderNumbers
    /// The kinds of record paid through the payments platform; commerce registers its orders'
    /// refunds there.
    public let payables: PayableTargets
    /// The subjects other domains keep that `Feedback.CreateFeedback` rates (rental bookings).
    public let ratables: RatedSubjects
    /// The verticals selling through the orders, each with its hooks.
    public let verticals = OrderVerticals()
    /// The accounts, whose full view (with their vertical's rating) `Feedback.GetRatingSummary` reads.
    let identity: Identity?

    public static var tables: [AnyTable] {
        CartTable.all + OrderTable.all + DeliveryTable.all + CourierTable.all + RatingTotalTable.all
    }

    /// With `identity`, commerce joins its role decisions: blocking a courier takes them offline
    /// (`BlockedCouriers`); couriers' ratings show on their accounts (`CommerceAccountPart`);
    /// commerce checks its part of the settings (`CommerceSettings`). An order's refund shows on
    /// the order (`OrderRefunds`, registered in `payables`).
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
            BlockedCouriers.register(in: identity.blockHooks)
            identity.accountParts.register(CommerceAccountPart(), for: [.waterServices, .foodDelivery])
            CommerceSettings.register(in: identity.marketplaces.settingsValidators)
        }
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [
            OrdersService(commerce: self).declaration.rpcService(kit),
            CashPayments(commerce: self).declaration.rpcService(kit),
            DeliveriesService(commerce: self).declaration.rpcService(kit),
            FeedbackService(commerce: self).declaration.rpcService(kit),
        ]
    }

    /// The clock of the store, which tests move by hand.
    package var now: StoreTime { store.configuration.clock() }
}

extension Commerce {
    /// Joins identity's role decisions and blocks, and shares the server's payable kinds and
    /// rated subjects.
    public convenience init(mounting context: DomainContext) throws {
        self.init(
            store: context.store, identity: try context.require(Identity.self), payables: context.shared { PayableTargets() },
            ratables: context.shared { RatedSubjects() })
        let conversations = context.shared { ConversationSubjects() }
        conversations.register(.order, OrderConversations())
        conversations.register(.delivery, DeliveryConversations())
        context.shared { ReportSources() }.register(OrderReports.source)
    }

    /// Identity for the role decisions; the payments orders are paid with; the notifications
    /// orders and deliveries send.
    public static var dependencies: [any SoukDomain.Type] { [Identity.self, Payments.self, Notifications.self] }
}
