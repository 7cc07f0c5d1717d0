import SoukKit
import SoukMessages
import SoukStore

/// What any caller sees of a stored payment: the contract's `Payment`, built field by field (an
/// allow-list: a field added to the stored record reaches no caller until a line here names it).
/// `PaymentViews` adds the transitions the caller may fire.
public enum PaymentProjection {
    public static func payment(_ record: StoredRecord<PaymentRecord>) -> SoukV1.Payment {
        let stored = record.value.subject
        var shown = record.stamped(SoukV1.Payment())
        shown.target = stored.target
        shown.payerAccountID = stored.payerAccountID
        shown.payeeAccountID = stored.payeeAccountID
        shown.method = stored.method
        shown.status = stored.status
        shown.amount = stored.amount
        shown.refundedAmount = stored.refundedAmount
        shown.refunds = stored.refunds
        shown.cardBrand = stored.cardBrand
        shown.cardLast4 = stored.cardLast4
        shown.gatewayReference = stored.gatewayReference
        shown.failureReason = stored.failureReason
        shown.split = stored.split
        shown.collectedByAccountID = stored.collectedByAccountID
        shown.collectTime = stored.collectTime
        shown.confirmedByAccountID = stored.confirmedByAccountID
        shown.confirmTime = stored.confirmTime
        shown.succeedTime = stored.succeedTime
        shown.payoutReason = stored.payoutReason
        return shown
    }
}

/// How a payment is shown to the caller of any RPC that answers one.
public enum PaymentViews {
    /// The payment with the transitions `call`'s caller may fire on it now. Its seller is its
    /// payee, or every provider where the marketplace itself sells (retail and water orders).
    /// The order's courier is left out: a courier's collection of cash is recorded by
    /// Deliveries.CompleteDelivery, never by a call of its own.
    public static func view(_ record: StoredRecord<PaymentRecord>, _ call: SoukCall) -> SoukV1.Payment {
        let stored = record.value.subject
        var payment = PaymentProjection.payment(record)
        let vertical = call.marketplace?.vertical ?? .unspecified
        let marketplaceSells = [.retail, .waterServices].contains(vertical) && stored.target?.type == .order
        payment.availableTransitions = PaymentLifecycle.machine.available(on: stored, for: call, parties: [
            .customer: .account(stored.payerAccountID),
            .provider: marketplaceSells ? .anyHolder : .account(stored.payeeAccountID),
        ])
        return payment
    }

    /// The payment `id` of the call's marketplace as its caller sees it now; NOT_FOUND when it is
    /// missing or in another marketplace.
    public static func get(_ id: RecordID, _ call: SoukCall, store: Store) throws -> SoukV1.Payment {
        let (marketplaceID, _) = try call.requireMarketplace()
        return view(try store.require(PaymentTable.table, id, in: marketplaceID, "payment"), call)
    }
}
