import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore
import SoukKit
import Synchronization

/// What a payable target owes, read inside the paying transaction.
public struct PayableDue: Sendable {
    /// Stored as the payment's target.
    public var target: SoukV1.ResourceRef
    /// The account that must pay.
    public var payer: RecordID
    /// The account paid; empty when the marketplace itself is paid.
    public var payee: String
    /// The server's amount, never the client's.
    public var amount: SoukV1.Money
    /// How the amount divides between the payment provider, the platform and the payee, when
    /// the target splits it (rental bills); stored on the payment.
    public var split: SoukV1.PaymentSplit?

    public init(target: SoukV1.ResourceRef, payer: RecordID, payee: String, amount: SoukV1.Money, split: SoukV1.PaymentSplit? = nil) {
        self.target = target
        self.payer = payer
        self.payee = payee
        self.amount = amount
        self.split = split
    }
}

/// A kind of record whose payments' refunds it records (an order, a laundry job, a rental bill).
public protocol RefundedTarget: Sendable {
    /// Records on the target that `amount` minor units of its payment were just refunded
    /// (`payment` as it is after the refund), in the refunding transaction. `Payments.RefundPayment`
    /// calls it; a domain that refunds through `PayableTargets.refund` calls its own.
    func refunded(_ id: String, payment: SoukV1.Payment, amount: Int64, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, actor: AuditActor, transaction: Transaction) throws
}

/// A kind of record paid through `Payments.CreatePayment` (a laundry job, a rental bill), which
/// its domain registers with `PayableTargets`. Each call gets the caller's marketplace as the
/// call read it, so paying transactions never lock the marketplace record.
public protocol PayableTarget: RefundedTarget {
    /// The account that must pay the target `id`, for the RPC's ownership check. NOT_FOUND when
    /// it is missing or in another marketplace.
    func payer(of id: String, marketplaceID: RecordID, store: Store) throws -> RecordID

    /// Reads the target in `transaction`: NOT_FOUND when missing or in another marketplace;
    /// PERMISSION_DENIED when `caller` may not pay it; FAILED_PRECONDITION (ALREADY_PAID, or not
    /// payable yet) otherwise.
    func due(_ id: String, caller: Caller, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, transaction: Transaction) throws -> PayableDue

    /// Records the stored payment (SUCCESSFUL; PENDING for cash) on the target, in the same
    /// transaction.
    func settle(_ id: String, payment: SoukV1.Payment, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, actor: AuditActor, transaction: Transaction) throws
}

/// The ledger operations other domains may run inside their own transactions.
public struct PaymentLedgerAccess: Sendable {
    /// Refunds part or all of a successful payment; returns the payment after it.
    public typealias Refund = @Sendable (_ paymentID: String, _ amount: Int64, _ reason: String, _ refunder: String, _ actor: AuditActor,
                                         _ marketplaceID: RecordID, _ transaction: Transaction) throws -> SoukV1.Payment
    /// Records money the platform pays out to an account; returns the stored payment.
    public typealias PayOut = @Sendable (_ target: SoukV1.ResourceRef, _ to: RecordID, _ amount: SoukV1.Money, _ reason: String,
                                         _ actor: AuditActor, _ marketplaceID: RecordID, _ transaction: Transaction) throws -> SoukV1.Payment

    let refund: Refund
    let payOut: PayOut

    public init(refund: @escaping Refund, payOut: @escaping PayOut) {
        self.refund = refund
        self.payOut = payOut
    }
}

/// Where domains paid through `Payments.CreatePayment` meet the payment ledger: one per server,
/// passed to every domain; each registers the kinds of record it makes payable (a laundry job, a
/// rental bill) or whose payments it shows (an order), so the payments module names none of them.
public final class PayableTargets: Sendable {
    private let targets = Mutex<[SoukV1.ResourceType: any PayableTarget]>([:])
    private let refundables = Mutex<[SoukV1.ResourceType: any RefundedTarget]>([:])

    public init() {}

    /// Makes records of `type` payable through `target` (one target per type).
    public func register(_ type: SoukV1.ResourceType, _ target: any PayableTarget) {
        targets.withLock { $0[type] = target }
        refundables.withLock { $0[type] = target }
    }

    /// Tells `target` of the refunds of payments whose target is of `type`, for records paid
    /// elsewhere than `CreatePayment` (orders, paid at checkout).
    public func registerRefunds(_ type: SoukV1.ResourceType, _ target: any RefundedTarget) {
        refundables.withLock { $0[type] = target }
    }

    /// The target registered for `type`, or nil when no mounted domain pays that type.
    public func target(_ type: SoukV1.ResourceType) -> (any PayableTarget)? {
        targets.withLock { $0[type] }
    }

    /// What records the refunds of payments for `type`, or nil when no mounted domain does.
    public func refundedTarget(_ type: SoukV1.ResourceType) -> (any RefundedTarget)? {
        refundables.withLock { $0[type] }
    }

    /// Refunds `amount` minor units of a successful payment in `transaction` (all that is left
    /// → REFUNDED, less → PARTIALLY_REFUNDED) and returns the payment after it.
    public func refund(
        paymentID: String, amount: Int64, reason: String, refunder: String, actor: AuditActor, marketplaceID: RecordID,
        transaction: Transaction
    ) throws -> SoukV1.Payment {
        try PaymentLedger.access.refund(paymentID, amount, reason, refunder, actor, marketplaceID, transaction)
    }

    /// Records money the platform pays out to `to` (a deposit returned): a SUCCESSFUL payment
    /// with `target`, no payer and `to` as payee.
    public func payOut(
        target: SoukV1.ResourceRef, to: RecordID, amount: SoukV1.Money, reason: String, actor: AuditActor, marketplaceID: RecordID,
        transaction: Transaction
    ) throws -> SoukV1.Payment {
        try PaymentLedger.access.payOut(target, to, amount, reason, actor, marketplaceID, transaction)
    }
}
