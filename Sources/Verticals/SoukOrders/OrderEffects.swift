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
    package static let settlePayment = TransitionEffect<SoukStoreV1.Order>("refund the payment, or void the cash") { move, transaction in
        guard let marketplaceID = RecordID(move.marketplaceID), let payment = try PaymentLedger.settleCancelled(
            paymentID: move.after.paymentID, marketplaceID: marketplaceID, reason: move.reason.isEmpty ? "order cancelled" : move.reason,
            actor: move.actor, transaction: transaction)
        else { return }
        try transaction.updateMaintainedFields(OrderTable.table, move.id) { $0.subject.paymentStatus = payment.value.subject.status }
    }

    /// Tells the order's customer and courier what `text` says of the order as it is now.
    package static func tellParties(_ text: @escaping @Sendable (SoukStoreV1.Order) -> NotificationText) -> TransitionEffect<SoukStoreV1.Order> {
        TransitionEffect("notify the customer and the courier") { move, transaction in
            try Notifier.send(
                OrderChanges.notes(move.after, id: move.id, text(move.after)),
                marketplaceID: move.marketplaceID, transaction: transaction)
        }
    }

    /// A staff delivery's customer hears of it by the order: `text` of the order's number and
    /// the delivery as it is now.
    package static func tellCustomer(
        _ text: @escaping @Sendable (_ orderNumber: String, SoukStoreV1.Delivery) -> NotificationText
    ) -> TransitionEffect<SoukStoreV1.Delivery> {
        TransitionEffect("notify the order's customer") { move, transaction in
            guard let orderID = RecordID(move.after.orderID), let order = try transaction.get(OrderTable.table, orderID) else { return }
            try Notifier.send(
                [Notifier.Note(
                    to: order.value.subject.customerAccountID, kind: .order, text(order.value.subject.orderNumber, move.after),
                    subject: SoukV1.ResourceRef(type: .order, id: orderID.description))],
                marketplaceID: move.marketplaceID, transaction: transaction)
        }
    }

    /// A shipment, with the carrier and the tracking number when given.
    package static func shipped(_ order: SoukStoreV1.Order) -> NotificationText {
        .orderShipped(number: order.orderNumber, carrier: order.shippingCarrier, tracking: order.trackingNumber)
    }
}
