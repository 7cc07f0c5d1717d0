import Logging
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukNotifications
import SoukOrders
import SoukPayments
import SoukStore

/// Food delivery (DineSwift): restaurants and their approval, menus, food carts and checkout,
/// the dispatch of drivers, and the reports kept with the orders. It sells through the shared
/// orders (SoukOrders), with which it registers its `OrderVertical`.
public final class Food: SoukDomain {
    /// The shared orders food delivery sells through.
    public let commerce: Commerce
    public var store: Store { commerce.store }

    public static var tables: [AnyTable] { FoodTables.all + FoodTotalsTable.all }

    /// With `identity`, a restaurant account awaiting approval with its restaurant is decided
    /// through the catalog (`RestaurantApproval`), and blocking a driver withdraws the offer
    /// waiting for them (`BlockedDrivers`).
    public init(commerce: Commerce, identity: Identity? = nil) {
        self.commerce = commerce
        commerce.verticals.register(FoodOrders(commerce: commerce), for: [.foodDelivery])
        if let identity {
            RestaurantApproval.register(in: identity.roleDecisionHooks)
            BlockedDrivers.register(in: identity.blockHooks)
        }
    }

    public convenience init(mounting context: DomainContext) throws {
        self.init(commerce: try context.require(Commerce.self), identity: try context.require(Identity.self))
    }

    /// The shared orders food delivery sells through (mounted after identity, payments and
    /// notifications).
    public static var dependencies: [any SoukDomain.Type] { [Commerce.self] }

    /// Drivers answering offers, with the offer-lapse timer.
    public static var lifecycles: [DeclaredLifecycle] { [DeclaredLifecycle(DeliveryLifecycles.foodDelivery)] }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [
            CatalogService(commerce: commerce).declaration.rpcService(kit),
            CartsService(commerce: commerce).declaration.rpcService(kit),
            OrdersService(commerce: commerce).declaration.rpcService(kit),
            DeliveriesService(commerce: commerce).declaration.rpcService(kit),
            ReportsService(commerce: commerce).declaration.rpcService(kit),
        ]
    }

    public func loadDemo(_ demo: DemoContext) async throws {
        try await CommerceDemo(commerce: commerce).load(demo)
    }

    /// The offer-lapse timer of food deliveries.
    public var background: DomainBackground {
        DomainBackground(timers: [DeliveryOffers.offerLapse])
    }
}
