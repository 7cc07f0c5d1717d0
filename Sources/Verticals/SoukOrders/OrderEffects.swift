import SoukKit
import SoukMessages
import SoukNotifications
import SoukPayments
import SoukStore

/// What order and delivery transitions do besides moving them, declared with them in
/// `OrderLifecycles` and `DeliveryLifecycles` and run in the transition's transaction: whom
/// each tells.
package enum OrderEffects {
    /// A cancelled or rejected order's payment: refunded in full, or the cash it was to collect
    /// voided (`PaymentLedger.settleCancelled`); the order keeps the payment's status.
    static let settlePayment = TransitionEffect<SoukStoreV1.Order>("refund the payment, or void the cash") { move, transaction in
        guard let marketplaceID = RecordID(move.marketplaceID), let payment = try PaymentLedger.settleCancelled(
            paymentID: move.after.paymentID, marketplaceID: marketplaceID, reason: move.reason.isEmpty ? "order cancelled" : move.reason,
            actor: move.actor, transaction: transaction)
        else { return }
        try transaction.updateMaintainedFields(OrderTable.table, move.id) { $0.subject.paymentStatus = payment.value.subject.status }
    }

    /// Tells the order's customer and courier: "Order <number> <what>".
    static func tellParties(_ what: String, body: @escaping @Sendable (SoukStoreV1.Order) -> String) -> TransitionEffect<SoukStoreV1.Order> {
        TransitionEffect("notify the customer and the courier") { move, transaction in
            try Notifier.send(
                OrderChanges.notes(move.after, id: move.id, title: "Order \(move.after.orderNumber) \(what)", body: body(move.after)),
                marketplaceID: move.marketplaceID, transaction: transaction)
        }
    }

    /// A staff delivery's customer hears of it by the order: "<title>: order <number>".
    package static func tellCustomer(_ title: String, body: @escaping @Sendable (SoukStoreV1.Delivery) -> String) -> TransitionEffect<SoukStoreV1.Delivery> {
        TransitionEffect("notify the order's customer") { move, transaction in
            guard let orderID = RecordID(move.after.orderID), let order = try transaction.get(OrderTable.table, orderID) else { return }
            try Notifier.send(
                [Notifier.Note(
                    to: order.value.subject.customerAccountID, kind: .order, title: "\(title): order \(order.value.subject.orderNumber)",
                    body: body(move.after), subject: SoukV1.ResourceRef(type: .order, id: orderID.description))],
                marketplaceID: move.marketplaceID, transaction: transaction)
        }
    }

    /// The words of a shipment: the carrier and the tracking number when given.
    static func shipped(_ order: SoukStoreV1.Order) -> String {
        let (carrier, tracking) = (order.shippingCarrier, order.trackingNumber)
        return carrier.isEmpty ? "Your order is on its way." : "Your order is on its way with \(carrier)" + (tracking.isEmpty ? "." : " (tracking \(tracking)).")
    }
}
