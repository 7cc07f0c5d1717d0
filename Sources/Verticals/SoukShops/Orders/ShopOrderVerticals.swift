import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// Chateau Du Nox's part of its orders: its lifecycle (a cancelled order's bottles go back in
/// stock).
struct RetailOrders: OrderVertical {
    var lifecycle: OrderLifecycle { OrderLifecycles.retail }
}

/// Aqua Hub's part of its orders: its lifecycle (a cancelled order frees its window and its
/// open delivery); a
/// rating counts in the average of the service ordered; staff deliveries are shown by
/// `WaterDeliveries`.
struct WaterOrders: OrderVertical {
    let commerce: Commerce

    var lifecycle: OrderLifecycle { OrderLifecycles.waterServices }

    func ratedSubjects(of order: SoukStoreV1.Order, restaurantID: String, transaction: Transaction) throws -> [RecordID] {
        guard let line = order.lines.first, line.itemType == .service, let service = RecordID(line.itemID),
              try transaction.get(ServiceTable.table, service) != nil
        else { return [] }
        return [service]
    }

    func rated(_ subject: RecordID, _ summary: SoukV1.RatingSummary, transaction: Transaction) throws {
        try transaction.updateMaintainedFields(ServiceTable.table, subject) { $0.subject.rating = summary }
    }

    func deliveryView(_ deliveryID: String, call: SoukCall, store: Store) throws -> SoukV1.Delivery {
        try WaterDeliveries(commerce: commerce).view(deliveryID, call)
    }
}
