import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Every charge and refund goes through here, so that one rule holds in every RPC that charges
/// (payments.proto): a declined charge throws PAYMENT_DECLINED and, the transaction rolling
/// back, leaves nothing stored; a charged one is a SUCCESSFUL payment; cash is a PENDING one.
public enum PaymentLedger {
    /// What a charge is for.
    public struct Charge: Sendable {
        public var marketplaceID: RecordID
        public var marketplace: SoukV1.Marketplace
        public var target: SoukV1.ResourceRef
        public var payer: RecordID
        /// Empty when the marketplace itself sells.
        public var payee: String
        public var amount: SoukV1.Money
        /// The three-way split, when the target divides the amount (rental bills).
        public var split: SoukV1.PaymentSplit? = nil

        public init(
            marketplaceID: RecordID, marketplace: SoukV1.Marketplace, target: SoukV1.ResourceRef, payer: RecordID, payee: String,
            amount: SoukV1.Money, split: SoukV1.PaymentSplit? = nil
        ) {
            self.marketplaceID = marketplaceID
            self.marketplace = marketplace
            self.target = target
            self.payer = payer
            self.payee = payee
            self.amount = amount
            self.split = split
        }
    }

    /// The method `input` names, when the marketplace accepts it: INVALID_ARGUMENT naming `field`
    /// when none is given or it is not accepted (PAYMENT_METHOD_NOT_ACCEPTED). Needs no store, so
    /// a request's field checks run it before the transaction.
    public static func acceptedMethod(_ input: SoukV1.PaymentMethodInput?, field: String, marketplace: SoukV1.Marketplace) throws
        -> SoukV1.PaymentMethodInput.Method
    {
        guard let method = input?.method else { throw RPCError.invalidField(field, "is required: a card token, a wallet token or cash") }
        let kind = method.paymentMethod
        let accepted = marketplace.settings?.commerce?.acceptedPaymentMethods ?? []
        guard accepted.isEmpty || accepted.contains(kind) else {
            throw RPCError.invalidField(
                field, "\(kind.protoName) is not accepted here; accepted: \(accepted.map(\.protoName).joined(separator: ", "))",
                reason: .paymentMethodNotAccepted)
        }
        return method
    }

    /// Charges `charge.amount` with `input` (the request's field `field`) in `transaction` and
    /// stores the payment: cash as a PENDING payment; a card or wallet as a SUCCESSFUL one backed by
    /// the authorization `attempt` obtained before this run of the transaction (without one it
    /// throws `TwoPhaseCharge.AuthorizationNeeded`, which `attempt.run` answers). INVALID_ARGUMENT
    /// when no method is given, the method is not accepted by the marketplace
    /// (PAYMENT_METHOD_NOT_ACCEPTED) or its token is invalid (PAYMENT_TOKEN_INVALID);
    /// FAILED_PRECONDITION (PAYMENT_DECLINED) when the gateway declines.
    public static func charge(
        _ input: SoukV1.PaymentMethodInput?, field: String, _ charge: Charge, actor: AuditActor, attempt: TwoPhaseCharge,
        transaction: Transaction
    ) throws -> StoredRecord<PaymentRecord> {
        let method = try acceptedMethod(input, field: field, marketplace: charge.marketplace)
        let kind = method.paymentMethod
        let paymentID = RecordID.generate()
        var payment = SoukStoreV1.Payment()
        payment.target = charge.target
        payment.payerAccountID = charge.payer.description
        payment.payeeAccountID = charge.payee
        payment.method = kind
        payment.amount = charge.amount
        payment.split = charge.split
        payment.refundedAmount = SoukV1.Money(amountMinor: 0, currencyCode: charge.amount.currencyCode)
        if let (gatewayMethod, tokenField) = method.gatewayMethod {
            let request = GatewayAuthorizationRequest(
                marketplaceID: charge.marketplaceID.description, payerAccountID: charge.payer.description, method: gatewayMethod,
                amountMinor: charge.amount.amountMinor, currencyCode: charge.amount.currencyCode)
            let authorized = try attempt.authorization(for: request, tokenField: field + "." + tokenField)
            try GatewayCalls.commit(authorized, paymentID: paymentID, transaction: transaction)
            if kind == .card {
                payment.cardBrand = authorized.cardBrand
                payment.cardLast4 = authorized.cardLast4
            }
            payment.status = .successful
            payment.gatewayReference = authorized.reference
            payment.succeedTime = Timestamp(transaction.now)
        } else {
            payment.status = .pending
        }
        return try PaymentLifecycle.machine.createPayment(
            PaymentRecord(marketplaceID: charge.marketplaceID.description, payment), id: paymentID, by: actor,
            transaction: transaction)
    }

    /// Undoes the payment of a cancelled order: a successful (or partly refunded) payment is
    /// refunded in full; cash never collected becomes FAILED. Returns the payment after it.
    @discardableResult
    public static func settleCancelled(
        paymentID: String, marketplaceID: RecordID, reason: String, actor: AuditActor, transaction: Transaction
    ) throws -> StoredRecord<PaymentRecord>? {
        guard let id = RecordID(paymentID), let current = try transaction.get(PaymentTable.table, id) else { return nil }
        let system = AuditActor.system(actor.action)
        switch current.value.subject.status {
        case .successful, .partiallyRefunded:
            let rest = current.value.subject.amount.minor - current.value.subject.refundedAmount.minor
            return try refund(id, amount: rest, reason: reason, by: "", actor: system, marketplaceID: marketplaceID, transaction: transaction)
        case .pending, .collected:
            return try PaymentLifecycle.machine.firePayment(
                .void, on: id, marketplaceID: marketplaceID.description, by: system, reason: reason,
                transaction: transaction) { record in record.subject.failureReason = reason }
        default:
            return current
        }
    }

    /// Refunds `amount` minor units of a successful payment (all that is left → REFUNDED, less →
    /// PARTIALLY_REFUNDED), recording who refunded and why.
    public static func refund(
        _ id: RecordID, amount: Int64, reason: String, by refunder: String, actor: AuditActor, marketplaceID: RecordID,
        expectedVersion: UInt64? = nil, transaction: Transaction
    ) throws -> StoredRecord<PaymentRecord> {
        let current = try transaction.require(PaymentTable.table, id, in: marketplaceID, "payment")
        let rest = current.value.subject.amount.minor - current.value.subject.refundedAmount.minor
        guard amount > 0, amount <= rest else {
            throw RPCError.invalidField("amount", "must be 1 to \(rest) minor units (what is not yet refunded)")
        }
        // The gateway returns the money once this commits (`PaymentRecovery`).
        let refundID = RecordID.generate().description
        try GatewayCalls.queueRefund(paymentID: id, refundID: refundID, amount: amount, transaction: transaction)
        return try PaymentLifecycle.machine.firePayment(
            amount == rest ? .refund : .refundPart, on: id, marketplaceID: marketplaceID.description,
            by: actor, expectedVersion: expectedVersion, reason: reason, transaction: transaction
        ) { record in
            let currency = record.subject.amount?.currencyCode ?? ""
            var refund = SoukV1.Refund()
            refund.id = refundID
            refund.amount = SoukV1.Money(amountMinor: amount, currencyCode: currency)
            refund.reason = reason
            refund.refundedByAccountID = refunder
            refund.createTime = Timestamp(transaction.now)
            record.subject.refunds.append(refund)
            record.subject.refundedAmount = SoukV1.Money(amountMinor: record.subject.refundedAmount.minor + amount, currencyCode: currency)
        }
    }
}

extension SoukV1.PaymentMethodInput.Method {
    /// The contract's enum value of the method chosen.
    public var paymentMethod: SoukV1.PaymentMethod {
        switch self {
        case .cardToken: .card
        case .applePayToken: .applePay
        case .googlePayToken: .googlePay
        case .cash: .cash
        }
    }
}

extension SoukV1.PaymentMethodInput.Method {
    /// The method as the gateway takes it, and the name of its token's field; nil for cash.
    var gatewayMethod: (GatewayAuthorizationRequest.Method, String)? {
        switch self {
        case .cardToken(let token): (.cardToken(token), "card_token")
        case .applePayToken(let token): (.applePayToken(token), "apple_pay_token")
        case .googlePayToken(let token): (.googlePayToken(token), "google_pay_token")
        case .cash: nil
        }
    }
}

extension Optional where Wrapped == SoukV1.Money {
    /// The amount in minor units; 0 when unset.
    public var minor: Int64 { self?.amountMinor ?? 0 }
}
