import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukPayments
import SoukStore

/// The food order lifecycle the restaurant drives: accept (→ PREPARING), reject, and complete
/// with the cash received. Cancellation and rejection are the shared orders' (`OrderVertical.cancelled`); the driver's
/// moves (out for delivery, delivered) are fired by the order's delivery (`Dispatch`).
extension OrdersService {
    func acceptOrder(_ request: SoukV1.AcceptOrderRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        try await foodMove(.accept, request.orderID, request.expectedVersion, call) { record, transaction in
            record.subject.acceptTime = Timestamp(transaction.now)
        } after: { _, _ in }
    }

    func completeOrder(_ request: SoukV1.CompleteOrderRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let actor = AuditActor(call)
        return try await foodMove(.complete, request.orderID, request.expectedVersion, call) { record, transaction in
            record.subject.completeTime = Timestamp(transaction.now)
        } after: { record, transaction in
            let order = record.value.subject
            try FoodTotalsLedger.completed(order, marketplace: marketplace, marketplaceID: marketplaceID.description, transaction: transaction)
            // Completing confirms the cash the driver collected.
            let paymentID = try RequestFields.id(order.paymentID, field: "order.payment_id")
            let payment = try PaymentLedger.payment(paymentID, in: marketplaceID, transaction: transaction)
            // An admin who completed the delivery received the cash already (SUCCESSFUL).
            if payment.status == .successful { return }
            guard payment.status == .collected else {
                throw RPCError.souk(
                    .failedPrecondition, .cashNotCollected,
                    "order \(order.orderNumber): its cash is \(payment.status.protoName), not yet collected by the driver")
            }
            // A collected payment keeps its collector: confirming records only when it was received.
            let confirmed = try PaymentLedger.recordCash(
                .confirm, paymentID: paymentID, marketplaceID: marketplaceID.description, actor: actor, transaction: transaction)
            try Orders.updateMaintainedFields(record.id, transaction) { $0.subject.paymentStatus = confirmed.value.subject.status }
            if let collected = payment.collectTime {
                try FoodTotalsLedger.cashSettled(
                    courierID: payment.collectedByAccountID, amount: payment.amount?.amountMinor ?? 0, collectTime: StoreTime(collected),
                    marketplace: marketplace, marketplaceID: marketplaceID.description, transaction: transaction)
            }
        }
    }

    /// Fires `transition` of the food lifecycle (whose effects tell the customer) and runs `after`
    /// in the same transaction.
    private func foodMove(
        _ transition: OrderMove, _ orderText: String, _ expectedVersion: Int64, _ call: SoukCall,
        change: @escaping @Sendable (inout OrderRecord, Transaction) throws -> Void,
        after: @escaping @Sendable (StoredRecord<OrderRecord>, Transaction) throws -> Void
    ) async throws -> SoukV1.Order {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(orderText, field: "order_id")
        let expected = try RequestFields.expectedVersion(expectedVersion)
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let record = try OrderLifecycles.foodDelivery.fire(
                transition, on: id, marketplaceID: marketplaceID.description, by: actor, expectedVersion: expected,
                transaction: transaction) { try change(&$0, transaction) }
            try after(record, transaction)
            return try Orders.require(id, in: marketplaceID, transaction)
        }
        return try OrderParties.view(record, call, store: store)
    }
}

/// What cancelling a food order undoes besides its cash: its report totals, and the driver's
/// unconfirmed cash when the driver had collected it (`payment` as it was before the cancellation).
enum FoodOrderEffects {
    static func cancelled(
        _ order: SoukStoreV1.Order, payment: SoukV1.Payment?, marketplace: SoukV1.Marketplace, marketplaceID: RecordID, transaction: Transaction
    ) throws {
        try FoodTotalsLedger.cancelled(order, marketplace: marketplace, marketplaceID: marketplaceID.description, transaction: transaction)
        if let payment, payment.status == .collected, let collected = payment.collectTime {
            try FoodTotalsLedger.cashSettled(
                courierID: payment.collectedByAccountID, amount: payment.amount?.amountMinor ?? 0, collectTime: StoreTime(collected),
                marketplace: marketplace, marketplaceID: marketplaceID.description, transaction: transaction)
        }
    }
}
