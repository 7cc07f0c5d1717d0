import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukPayments
import SoukStore

extension OrdersService {
    /// The order lifecycle of a marketplace's vertical.
    static func lifecycle(_ vertical: SoukV1.Vertical) throws -> StateMachine<SoukStoreV1.Order, SoukV1.OrderStatus, OrderMove> {
        switch vertical {
        case .waterServices: OrderLifecycles.waterServices
        case .retail: OrderLifecycles.retail
        case .foodDelivery: OrderLifecycles.foodDelivery
        default: throw RPCError.souk(.unimplemented, .notImplemented, "orders of this marketplace's vertical are not served yet")
        }
    }

    /// CancelOrder: the vertical's "cancel" transition, then, in the same transaction, the
    /// payment settled (refunded, or cash voided) and what the vertical reserved released.
    func cancelOrder(_ request: SoukV1.CancelOrderRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let id = try RequestFields.id(request.orderID, field: "order_id")
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let machine = try Self.lifecycle(marketplace.vertical)
        let actor = AuditActor(call)
        if actor.role != .customer, request.reason.trimmingCharacters(in: .whitespaces).isEmpty {
            throw RPCError.invalidField("reason", "is required when a provider or admin cancels an order")
        }
        guard request.reason.count <= 500 else { throw RPCError.invalidField("reason", "must be at most 500 characters") }
        let vertical = commerce.verticals.vertical(marketplace.vertical)
        let record = try await store.write { transaction in
            try Self.cancel(
                id, machine: machine, rejected: false, reason: request.reason, actor: actor, marketplaceID: marketplaceID,
                marketplace: marketplace, vertical: vertical, expectedVersion: expected, transaction: transaction)
        }
        return try OrderParties.view(record, call, store: store)
    }

    /// RejectOrder in every vertical that has it: the cancellation CancelOrder does (refund or
    /// cash voided, reservations released, parties told), marked rejected.
    func rejectOrder(_ request: SoukV1.RejectOrderRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let id = try RequestFields.id(request.orderID, field: "order_id")
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let reason = request.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty else { throw RPCError.invalidField("reason", "is required: it is shown to the customer") }
        guard reason.count <= 1000 else { throw RPCError.invalidField("reason", "must be at most 1000 characters") }
        let machine = try Self.lifecycle(marketplace.vertical)
        let actor = AuditActor(call)
        let vertical = commerce.verticals.vertical(marketplace.vertical)
        let record = try await store.write { transaction in
            try Self.cancel(
                id, machine: machine, rejected: true, reason: reason, actor: actor, marketplaceID: marketplaceID,
                marketplace: marketplace, vertical: vertical, expectedVersion: expected, transaction: transaction)
        }
        return try OrderParties.view(record, call, store: store)
    }

    /// Fires "cancel" (or "reject", when `rejected`) on order `id`, whose declared effect settles
    /// its payment (`OrderEffects.settlePayment`), then undoes what its vertical reserved and
    /// notifies the customer and the courier. Shared by CancelOrder and RejectOrder.
    static func cancel(
        _ id: RecordID, machine: StateMachine<SoukStoreV1.Order, SoukV1.OrderStatus, OrderMove>, rejected: Bool, reason: String, actor: AuditActor,
        marketplaceID: RecordID, marketplace: SoukV1.Marketplace, vertical: (any OrderVertical)?, expectedVersion: UInt64?,
        transaction: Transaction
    ) throws -> StoredRecord<OrderRecord> {
        // Food reports need the cash as it was before the cancellation voids it; other verticals
        // skip the read.
        let paymentBefore = try vertical?.needsPaymentBeforeCancel == true
            ? transaction.get(OrderTable.table, id).flatMap { RecordID($0.value.subject.paymentID) }
                .flatMap { try PaymentLedger.payment($0, transaction: transaction) }
            : nil
        let record = try machine.fire(
            rejected ? .reject : .cancel, on: id, in: OrderTable.table, marketplaceID: marketplaceID.description, by: actor,
            expectedVersion: expectedVersion, reason: reason, transaction: transaction
        ) { order in
            order.subject.cancellation = SoukV1.OrderCancellation(
                rejected: rejected, reason: reason, cancelledByAccountID: actor.accountID, cancelledByRole: actor.role)
            order.subject.cancelTime = Timestamp(transaction.now)
        }
        let order = record.value.subject
        try vertical?.cancelled(
            OrderCancellation(
                id: id, order: order, marketplaceID: marketplaceID, marketplace: marketplace, reason: reason, actor: actor, paymentBefore: paymentBefore),
            transaction: transaction)
        let what = rejected ? "rejected" : "cancelled"
        let body = "Order \(order.orderNumber) was \(what)" + (reason.isEmpty ? "." : ": \(reason)")
        try Notifier.send(
            OrderChanges.notes(order, id: id, title: "Order \(what)", body: body), marketplaceID: marketplaceID.description,
            transaction: transaction)
        return record
    }
}
