import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukPayments
import SoukStore

/// Cash on delivery: the courier marks it collected, the seller (provider or admin) confirms it.
struct CashPayments {
    let commerce: Commerce
    var store: Store { commerce.store }

    /// The RPCs of `souk.v1.Payments` that orders serve; the payments platform serves the others.
    var declaration: SoukV1Services.Payments {
        SoukV1Services.Payments(
            createPayment: .unimplemented,
            getPayment: .unimplemented,
            listPayments: .unimplemented,
            refundPayment: .unimplemented,
            markCashCollected: .handler(owner: Self.ownership(\.paymentID, store: store), markCollected),
            confirmCashPayment: .handler(owner: Self.ownership(\.paymentID, store: store), confirm))
    }

    /// A payment's owners are the parties of the order it pays: its courier and its seller.
    static func ownership<Request>(_ paymentID: @escaping @Sendable (Request) -> String, store: Store) -> Ownership<Request> {
        Ownership { request, call, caller, roles in
            let id = try RequestFields.id(paymentID(request), field: "payment_id")
            let (marketplaceID, _) = try call.requireMarketplace()
            let payment = try PaymentLedger.payment(id, in: marketplaceID, store: store)
            guard payment.target?.type == .order, let orderID = RecordID(payment.target?.id ?? ""),
                  let order = try store.get(OrderTable.table, orderID)
            else { return false }
            return OrderParties.owns(order.value.subject, caller, roles: roles.intersection([.courier, .provider]))
        }
    }

    func markCollected(_ request: SoukV1.MarkCashCollectedRequest, _ call: SoukCall) async throws -> SoukV1.Payment {
        let byCourier = call.actorRole == .courier
        return try await settle(request.paymentID, request.expectedVersion, call, transition: byCourier ? .collect : .confirm, needsDelivered: true)
    }

    func confirm(_ request: SoukV1.ConfirmCashPaymentRequest, _ call: SoukCall) async throws -> SoukV1.Payment {
        try await settle(request.paymentID, request.expectedVersion, call, transition: .confirm, needsDelivered: false, onlyCollected: true)
    }

    private func settle(
        _ paymentText: String, _ expectedVersion: Int64, _ call: SoukCall, transition: PaymentLedger.CashStep, needsDelivered: Bool, onlyCollected: Bool = false
    ) async throws -> SoukV1.Payment {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(paymentText, field: "payment_id")
        let expected = try RequestFields.expectedVersion(expectedVersion)
        let actor = AuditActor(call)
        let market = marketplaceID.description
        let record = try await store.write { transaction -> StoredRecord<PaymentRecord> in
            let current = try PaymentLedger.payment(id, in: marketplaceID, transaction: transaction)
            guard current.method == .cash else {
                throw RPCError.souk(.failedPrecondition, .notCashPayment, "payment \(id) is not a cash payment")
            }
            if onlyCollected, current.status != .collected {
                throw RPCError.souk(.failedPrecondition, .cashNotCollected, "payment \(id) is \(current.status.protoName), not COLLECTED")
            }
            let order = RecordID(current.target?.id ?? "").flatMap { try? transaction.get(OrderTable.table, $0) }
            if needsDelivered, let order, ![.completed, .delivered, .received].contains(order.value.subject.status) {
                throw RPCError.souk(.failedPrecondition, .orderNotDelivered, "order \(order.value.subject.orderNumber) is not delivered yet")
            }
            let paid = try PaymentLedger.recordCash(
                transition, paymentID: id, marketplaceID: market, actor: actor, expectedVersion: expected, transaction: transaction)
            if let order {
                try transaction.updateMaintainedFields(OrderTable.table, order.id) { $0.subject.paymentStatus = paid.value.subject.status }
            }
            return paid
        }
        return PaymentViews.view(record, call)
    }
}

/// Cash handed over at the door when a courier completes a delivery.
package enum CashOnDelivery {
    /// Records the order's pending cash payment as collected by the courier (COLLECTED, for the
    /// seller to confirm), or as received (SUCCESSFUL) when an admin completes the delivery, and
    /// copies its status to the order. Returns the order.
    package static func collect(_ order: StoredRecord<OrderRecord>, actor: AuditActor, transaction: Transaction) throws -> StoredRecord<OrderRecord> {
        guard let paymentID = RecordID(order.value.subject.paymentID), let payment = try PaymentLedger.payment(paymentID, transaction: transaction),
              payment.method == .cash, payment.status == .pending
        else { return order }
        // A pending payment has no collector yet: either step records this one.
        let paid = try PaymentLedger.recordCash(
            actor.role == .courier ? .collect : .confirm, paymentID: paymentID, marketplaceID: order.value.marketplaceID, actor: actor,
            transaction: transaction)
        return try transaction.updateMaintainedFields(OrderTable.table, order.id) { $0.subject.paymentStatus = paid.value.subject.status }
    }
}

/// An order shows the state of its payment after a refund (`Payments.RefundPayment`).
struct OrderRefunds: RefundedTarget {
    func refunded(
        _ id: String, payment: SoukV1.Payment, amount: Int64, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, actor: AuditActor,
        transaction: Transaction
    ) throws {
        guard let orderID = RecordID(id), try transaction.get(OrderTable.table, orderID) != nil else { return }
        try transaction.updateMaintainedFields(OrderTable.table, orderID) { $0.subject.paymentStatus = payment.status }
    }
}
