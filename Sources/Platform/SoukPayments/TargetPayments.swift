import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `Payments.CreatePayment`: paying what another domain made payable (a laundry job, a rental
/// bill), through the target it registered with `PayableTargets` and the one charge rule of
/// `PaymentLedger`.
extension PaymentsService {
    /// The target the request names, and who handles its kind. NOT_FOUND (not INVALID_ARGUMENT)
    /// when no mounted domain pays that kind: the target cannot exist here.
    static func payable(_ request: SoukV1.CreatePaymentRequest, _ payables: PayableTargets) throws -> (id: String, target: any PayableTarget) {
        let (type, noun, id, field): (SoukV1.ResourceType, String, String, String)
        switch request.target {
        case .jobID(let job)?: (type, noun, id, field) = (.job, "job", job, "job_id")
        case .billID(let bill)?: (type, noun, id, field) = (.bill, "bill", bill, "bill_id")
        case nil: throw RPCError.invalidField("target", "is required: job_id or bill_id")
        }
        guard !id.isEmpty else { throw RPCError.invalidField(field, "is required") }
        guard let target = payables.target(type) else { throw RPCError.notFound(noun, id) }
        return (id, target)
    }

    /// The payer of the target owns the request.
    var createOwnership: Ownership<SoukV1.CreatePaymentRequest> {
        let (store, payables) = (store, payments.payables)
        return Ownership { request, call, caller, _ in
            let (marketplaceID, _) = try call.requireMarketplace()
            // A request naming no target owns nothing to refuse: its field checks name every bad field.
            switch request.target {
            case .jobID(let id)?, .billID(let id)?: if id.isEmpty { return true }
            case nil: return true
            }
            let (id, target) = try Self.payable(request, payables)
            return try target.payer(of: id, marketplaceID: marketplaceID, store: store) == caller.accountID
        }
    }

    /// One idempotent transaction: the target's due amount, the charge (authorized before it by
    /// `TwoPhaseCharge`; a decline stores nothing), and the target's record of its payment.
    func createPayment(_ request: SoukV1.CreatePaymentRequest, _ call: SoukCall) async throws -> SoukV1.Payment {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let requestIDField = try checks.run { try RequestFields.requestID(request.requestID) }
        let payable = try checks.run { try Self.payable(request, payments.payables) }
        if case .cash? = request.method?.method {
            checks.add("method", "cash is taken only on delivery of an order; pay with a card or wallet token", reason: .paymentMethodNotAccepted)
        } else {
            try checks.check { _ = try PaymentLedger.acceptedMethod(request.method, field: "method", marketplace: marketplace) }
        }
        try checks.finish()
        let (requestID, (id, target)) = (requestIDField!, payable!)
        let actor = AuditActor(call, requestID: requestID)
        let attempt = TwoPhaseCharge(marketplaceID: marketplaceID, accountID: caller.accountID, requestID: requestID, recovery: payments.recovery)
        let store = store
        let payment = try await attempt.run { try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: marketplaceID.description, account: caller.accountID.description, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Payment>()
        ) { transaction in
            let due = try target.due(id, caller: caller, marketplaceID: marketplaceID, marketplace: marketplace, transaction: transaction)
            let payment = PaymentProjection.payment(try PaymentLedger.charge(
                request.method, field: "method",
                PaymentLedger.Charge(marketplaceID: marketplaceID, marketplace: marketplace, target: due.target, payer: due.payer,
                                     payee: due.payee, amount: due.amount, split: due.split),
                actor: actor, attempt: attempt, transaction: transaction))
            try target.settle(id, payment: payment, marketplaceID: marketplaceID, marketplace: marketplace, actor: actor, transaction: transaction)
            return payment
        } }.value
        // A retry gets the payment as it is now, with what the caller may do to it now.
        return try PaymentViews.get(try RequestFields.id(payment.id, field: "payment_id"), call, store: store)
    }
}

extension PaymentLedger {
    /// The ledger's operations that other domains run in their transactions.
    static var access: PaymentLedgerAccess {
        PaymentLedgerAccess(
            refund: { paymentID, amount, reason, refunder, actor, marketplaceID, transaction in
                guard let id = RecordID(paymentID) else { throw RPCError.notFound("payment", paymentID) }
                return PaymentProjection.payment(try refund(
                    id, amount: amount, reason: reason, by: refunder, actor: actor, marketplaceID: marketplaceID, transaction: transaction))
            },
            payOut: { target, to, amount, reason, actor, marketplaceID, transaction in
                PaymentProjection.payment(try payOut(
                    target: target, to: to, amount: amount, reason: reason, actor: actor, marketplaceID: marketplaceID, transaction: transaction))
            })
    }

    /// Records money the platform pays to `to`: a SUCCESSFUL payout with no payer.
    static func payOut(
        target: SoukV1.ResourceRef, to: RecordID, amount: SoukV1.Money, reason: String, actor: AuditActor, marketplaceID: RecordID,
        transaction: Transaction
    ) throws -> StoredRecord<PaymentRecord> {
        guard amount.amountMinor > 0 else { throw RPCError.invalidField("amount", "must be more than 0") }
        var payment = SoukStoreV1.Payment()
        payment.target = target
        payment.payeeAccountID = to.description
        payment.method = .payout
        payment.amount = amount
        payment.refundedAmount = SoukV1.Money(amountMinor: 0, currencyCode: amount.currencyCode)
        payment.status = .successful
        payment.gatewayReference = "sim_payout_" + RecordID.generate().compactHex
        payment.succeedTime = Timestamp(transaction.now)
        payment.payoutReason = reason
        return try PaymentLifecycle.machine.createPayment(
            PaymentRecord(marketplaceID: marketplaceID.description, payment), by: actor, transaction: transaction)
    }
}
