import Logging
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukStore

/// The commerce domain: catalogs (water services, retail products), carts, checkout and orders,
/// payments through the simulated gateway, staff deliveries and feedback — the journeys of Aqua
/// Hub and Chateau Du Nox. Food delivery's restaurants, menus and drivers are not served yet
/// (their RPCs answer UNIMPLEMENTED).
public final class Commerce: SoukDomain {
    public let store: Store
    let logger: Logger
    let orderNumbers: OrderNumbers

    public static var tables: [AnyTable] {
        ServiceTable.all + ProductTable.all + CartTable.all + OrderTable.all + PaymentTable.all + DeliveryTable.all + FeedbackTable.all + FoodTotalsTable.all
    }

    public init(store: Store, logger: Logger = Logger(label: "souk.commerce")) {
        self.store = store
        self.logger = logger
        orderNumbers = OrderNumbers(store: store)
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [
            CatalogService(commerce: self).declaration.rpcService(kit),
            CartsService(commerce: self).declaration.rpcService(kit),
            OrdersService(commerce: self).declaration.rpcService(kit),
            PaymentsService(commerce: self).declaration.rpcService(kit),
            PaymentGatewayService(commerce: self).declaration.rpcService(kit),
            DeliveriesService(commerce: self).declaration.rpcService(kit),
            FeedbackService(commerce: self).declaration.rpcService(kit),
            NotificationsService(commerce: self).declaration.rpcService(kit),
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
    /// Background work until the calling task is cancelled or the store closes: the reminders of
    /// tomorrow's scheduled orders.
    public func runMaintenance(every interval: Duration = .seconds(60)) async {
        while !Task.isCancelled {
            do {
                let sent = try await sendDueReminders()
                if sent > 0 { logger.info("order reminders written", metadata: ["orders": "\(sent)"]) }
            } catch StoreError.closed {
                return
            } catch {
                logger.error("order reminders failed", metadata: ["error": "\(error)"])
            }
            do { try await Task.sleep(for: interval) } catch { return }
        }
    }

    /// Writes the reminder of every scheduled order whose window starts within the next day and
    /// that has none yet. Returns how many were written.
    public func sendDueReminders() async throws -> Int {
        try await ScheduledOrders.sendDue(store: store)
    }
}
