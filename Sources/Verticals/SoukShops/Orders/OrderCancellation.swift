import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukPayments
import SoukStore

/// What cancelling an order undoes besides its status, per vertical, in the cancelling
/// transaction. The payment is settled by `PaymentLedger.settleCancelled`.
enum RetailOrderEffects {
    /// Puts the order's reserved bottles back in stock (without changing the products' versions).
    static func cancelled(_ order: SoukStoreV1.Order, marketplaceID: RecordID, transaction: Transaction) throws {
        for line in order.lines where line.itemType == .product {
            guard let id = RecordID(line.itemID), try transaction.get(ProductTable.table, id) != nil else { continue }
            try transaction.updateMaintainedFields(ProductTable.table, id) { record in
                // A restock meanwhile may have set the stock near its limit.
                let (sum, overflow) = record.subject.stock.addingReportingOverflow(line.quantity)
                record.subject.stock = overflow ? Int32.max : sum
            }
        }
    }
}

enum WaterOrderEffects {
    /// Frees the order's place in its window and cancels its open delivery.
    static func cancelled(
        _ order: SoukStoreV1.Order, id: RecordID, marketplaceID: RecordID, reason: String, actor: AuditActor, transaction: Transaction
    ) throws {
        if try ScheduledOrders.release(id, transaction: transaction), let start = order.scheduledWindow?.startTime {
            try ServiceWindows.release(StoreTime(start), marketplaceID: marketplaceID.description, transaction: transaction)
        }
        try WaterDeliveries.cancelOpen(orderID: id, marketplaceID: marketplaceID, reason: reason, actor: actor, transaction: transaction)
    }
}
