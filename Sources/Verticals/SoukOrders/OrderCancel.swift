import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

extension OrdersService {
    /// The order lifecycle of a marketplace's vertical, as the vertical registered it.
    func lifecycle(_ vertical: SoukV1.Vertical) throws -> OrderLifecycle {
        guard let registered = commerce.verticals.vertical(vertical) else {
            throw RPCError.souk(.unimplemented, .notImplemented, "orders of this marketplace's vertical are not served yet")
        }
        return registered.lifecycle
    }

    /// CancelOrder: the vertical's "cancel" transition, whose declared effects settle the
    /// payment (refunded, or cash voided) and release what the vertical reserved.
    func cancelOrder(_ request: SoukV1.CancelOrderRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let id = try RequestFields.id(request.orderID, field: "order_id")
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let machine = try lifecycle(marketplace.vertical)
        let actor = AuditActor(call)
        if actor.role != .customer, request.reason.trimmingCharacters(in: .whitespaces).isEmpty {
            throw RPCError.invalidField("reason", "is required when a provider or admin cancels an order")
        }
        guard request.reason.count <= 500 else { throw RPCError.invalidField("reason", "must be at most 500 characters") }
        let record = try await store.write { transaction in
            try Self.cancel(
                id, machine: machine, rejected: false, reason: request.reason, actor: actor, marketplaceID: marketplaceID,
                expectedVersion: expected, transaction: transaction)
        }
        return try OrderParties.view(record, call, lifecycle: machine, store: store)
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
        let machine = try lifecycle(marketplace.vertical)
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            try Self.cancel(
                id, machine: machine, rejected: true, reason: reason, actor: actor, marketplaceID: marketplaceID,
                expectedVersion: expected, transaction: transaction)
        }
        return try OrderParties.view(record, call, lifecycle: machine, store: store)
    }

    /// Fires "cancel" (or "reject", when `rejected`) on order `id`, whose declared effects settle
    /// its payment (`OrderEffects.settlePayment`) and undo what its vertical reserved, then
    /// notifies the customer and the courier. Shared by CancelOrder and RejectOrder.
    static func cancel(
        _ id: RecordID, machine: OrderLifecycle, rejected: Bool, reason: String, actor: AuditActor, marketplaceID: RecordID,
        expectedVersion: UInt64?, transaction: Transaction
    ) throws -> StoredRecord<OrderRecord> {
        let record = try machine.fire(
            rejected ? .reject : .cancel, on: id, marketplaceID: marketplaceID.description, by: actor,
            expectedVersion: expectedVersion, reason: reason, transaction: transaction
        ) { order in
            order.subject.cancellation = SoukV1.OrderCancellation(
                rejected: rejected, reason: reason, cancelledByAccountID: actor.accountID, cancelledByRole: actor.role)
            order.subject.cancelTime = Timestamp(transaction.now)
        }
        let order = record.value.subject
        try Notifier.send(
            OrderChanges.notes(order, id: id, .orderCancelled(number: order.orderNumber, rejected: rejected, reason: reason)),
            marketplaceID: marketplaceID.description,
            transaction: transaction)
        return record
    }
}
