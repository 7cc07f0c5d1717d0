import Logging
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukNotifications
import SoukOrders
import SoukPayments
import SoukStore

/// The shops: Aqua Hub's water services, scheduled service orders and staff deliveries, and
/// Chateau Du Nox's products, retail carts and checkout. They sell through the shared orders
/// (SoukOrders), with which they register their `OrderVertical`s.
public final class Shops: SoukDomain {
    /// The shared orders the shops sell through.
    public let commerce: Commerce
    public var store: Store { commerce.store }

    public static var tables: [AnyTable] { ServiceTable.all + ProductTable.all }

    public init(commerce: Commerce) {
        self.commerce = commerce
        commerce.verticals.register(RetailOrders(), for: [.retail])
        commerce.verticals.register(WaterOrders(commerce: commerce), for: [.waterServices])
    }

    public convenience init(mounting context: DomainContext) throws {
        self.init(commerce: try context.require(Commerce.self))
    }

    /// The shared orders the shops sell through.
    public static var dependencies: [any SoukDomain.Type] { [Commerce.self] }

    /// Staff deliveries, with the effects on their orders.
    public static var lifecycles: [DeclaredLifecycle] { [DeclaredLifecycle(DeliveryLifecycles.waterServices)] }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [
            CatalogService(commerce: commerce).declaration.rpcService(kit),
            CartsService(commerce: commerce).declaration.rpcService(kit),
            OrdersService(commerce: commerce).declaration.rpcService(kit),
            DeliveriesService(commerce: commerce).declaration.rpcService(kit),
        ]
    }

    public func loadDemo(_ demo: DemoContext) async throws {
        try await CommerceDemo(commerce: commerce).load(demo)
    }

    /// Every minute (and at start) the reminders of tomorrow's scheduled orders, whose index is
    /// their schedule.
    public var background: DomainBackground {
        let store = self.store
        return DomainBackground(
            jobs: [ScheduledJob("remind of scheduled orders", every: .seconds(60)) { try await ScheduledOrders.sendDue(store: store) }])
    }

    /// Writes the reminder of every scheduled order whose window starts within the next day and
    /// that has none yet. Returns how many were written.
    public func sendDueReminders() async throws -> Int {
        try await ScheduledOrders.sendDue(store: store)
    }
}
