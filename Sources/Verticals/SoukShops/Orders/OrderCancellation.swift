import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukPayments
import SoukStore

/// What cancelling a retail order undoes besides its status and payment, declared with the
/// retail lifecycle's "cancel" (`OrderLifecycles.retail`).
enum RetailOrderEffects {
    /// Puts the order's reserved bottles back in stock (without changing the products' versions).
    static let restock = TransitionEffect<SoukStoreV1.Order>("put the bottles back in stock") { move, transaction in
        for line in move.after.lines where line.itemType == .product {
            guard let id = RecordID(line.itemID), try transaction.get(ProductTable.table, id) != nil else { continue }
            try transaction.updateMaintainedFields(ProductTable.table, id) { record in
                // A restock meanwhile may have set the stock near its limit.
                let (sum, overflow) = record.subject.stock.addingReportingOverflow(line.quantity)
                record.subject.stock = overflow ? Int32.max : sum
            }
        }
    }
}

/// What cancelling or rejecting a water services order undoes besides its status and payment,
/// declared with those transitions of `OrderLifecycles.waterServices`.
enum WaterOrderEffects {
    /// Frees the order's place in its window and cancels its open delivery.
    static let release = TransitionEffect<SoukStoreV1.Order>("free the window and cancel the open delivery") { move, transaction in
        if try ScheduledOrders.release(move.id, transaction: transaction), let start = move.after.scheduledWindow?.startTime {
            try ServiceWindows.release(StoreTime(start), marketplaceID: move.marketplaceID, transaction: transaction)
        }
        guard let marketplaceID = RecordID(move.marketplaceID) else { return }
        try WaterDeliveries.cancelOpen(orderID: move.id, marketplaceID: marketplaceID, reason: move.reason, actor: move.actor, transaction: transaction)
    }
}
