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
    /// stores the payment. INVALID_ARGUMENT when no method is given, the method is not accepted
    /// by the marketplace (PAYMENT_METHOD_NOT_ACCEPTED) or its token is invalid
    /// (PAYMENT_TOKEN_INVALID); FAILED_PRECONDITION (PAYMENT_DECLINED) when the gateway declines.
    public static func charge(
        _ input: SoukV1.PaymentMethodInput?, field: String, _ charge: Charge, actor: AuditActor, transaction: Transaction
    ) throws -> StoredRecord<PaymentRecord> {
        let method = try acceptedMethod(input, field: field, marketplace: charge.marketplace)
        let kind = method.paymentMethod
        var payment = SoukV1.Payment()
        payment.target = charge.target
        payment.payerAccountID = charge.payer.description
        payment.payeeAccountID = charge.payee
        payment.method = kind
        payment.amount = charge.amount
        payment.split = charge.split
        payment.refundedAmount = SoukV1.Money(amountMinor: 0, currencyCode: charge.amount.currencyCode)
        let declined: String?
        switch method {
        case .cash:
            payment.status = .pending
            declined = nil
        case .cardToken(let token):
            let card = try useCardToken(token, field: field + ".card_token", charge: charge, transaction: transaction)
            payment.cardBrand = card.brand
            payment.cardLast4 = card.last4
            declined = SimulatedGateway.declines[card.last4]
        case .applePayToken(let token):
            declined = try SimulatedGateway.walletOutcome(token, prefix: "applepay_", field: field + ".apple_pay_token")
        case .googlePayToken(let token):
            declined = try SimulatedGateway.walletOutcome(token, prefix: "googlepay_", field: field + ".google_pay_token")
        }
        if let declined {
            throw RPCError.souk(.failedPrecondition, .paymentDeclined, "the payment was declined: \(declined)")
        }
        if kind != .cash {
            payment.status = .successful
            payment.gatewayReference = "sim_" + RecordID.generate().compactHex
            payment.succeedTime = Timestamp(transaction.now)
        }
        return try PaymentLifecycle.machine.create(
            PaymentRecord(marketplaceID: charge.marketplaceID.description, payment), in: PaymentTable.table, by: actor,
            transaction: transaction)
    }

    /// The card a token stands for, marking a one-time token used. Test tokens are reusable.
    private static func useCardToken(_ token: String, field: String, charge: Charge, transaction: Transaction) throws
        -> (brand: String, last4: String)
    {
        if let test = SimulatedGateway.testTokens[token] { return test }
        let invalid = RPCError.invalidField(field, "is not a card token this account may use (unknown, expired or used)", reason: .paymentTokenInvalid)
        guard let stored = try transaction.get(CardTokenTable.table, unique: CardTokenTable.byToken, [.bytes(CardTokenTable.hash(token))]),
              stored.value.marketplaceID == charge.marketplaceID.description, stored.value.accountID == charge.payer,
              !stored.value.used, stored.value.expiry > transaction.now
        else { throw invalid }
        // A declined charge rolls this back, so the token stays usable for another try.
        try transaction.update(CardTokenTable.table, stored.id) { $0.used = true }
        return (stored.value.brand, stored.value.last4)
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
            return try PaymentLifecycle.machine.fire(
                "void", on: id, in: PaymentTable.table, marketplaceID: marketplaceID.description, by: system, reason: reason,
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
        return try PaymentLifecycle.machine.fire(
            amount == rest ? "refund" : "refund_part", on: id, in: PaymentTable.table, marketplaceID: marketplaceID.description,
            by: actor, expectedVersion: expectedVersion, reason: reason, transaction: transaction
        ) { record in
            let currency = record.subject.amount?.currencyCode ?? ""
            var refund = SoukV1.Refund()
            refund.id = RecordID.generate().description
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

extension Optional where Wrapped == SoukV1.Money {
    /// The amount in minor units; 0 when unset.
    public var minor: Int64 { self?.amountMinor ?? 0 }
}
