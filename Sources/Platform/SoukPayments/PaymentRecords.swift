import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// What other modules may read and change of the payments, inside their own transactions: the
/// payments' table is this module's alone.
extension PaymentLedger {
    /// The payment `id`, read and locked in `transaction`, or nil when there is none.
    public static func payment(_ id: RecordID, transaction: Transaction) throws -> SoukV1.Payment? {
        try transaction.get(PaymentTable.table, id).map(PaymentProjection.payment)
    }

    /// The payment `id` of the marketplace, read and locked in `transaction`; NOT_FOUND when it
    /// is missing or in another marketplace.
    public static func payment(_ id: RecordID, in marketplaceID: RecordID, transaction: Transaction) throws -> SoukV1.Payment {
        PaymentProjection.payment(try transaction.require(PaymentTable.table, id, in: marketplaceID, "payment"))
    }

    /// The payment `id` of the marketplace as stored (for ownership checks); NOT_FOUND when it is
    /// missing or in another marketplace.
    public static func payment(_ id: RecordID, in marketplaceID: RecordID, store: Store) throws -> SoukV1.Payment {
        PaymentProjection.payment(try store.require(PaymentTable.table, id, in: marketplaceID, "payment"))
    }

    /// A step of cash on delivery.
    public enum CashStep: String, Sendable {
        /// In the courier's hands (COLLECTED).
        case collect
        /// Received by the seller (SUCCESSFUL).
        case confirm
    }

    /// Records `step` of the cash payment `id` in `transaction`, fired through the payment
    /// lifecycle: who collected it and when (unless a courier already did), and when it was
    /// received. Returns the payment after it.
    @discardableResult
    public static func recordCash(
        _ step: CashStep, paymentID id: RecordID, marketplaceID: String, actor: AuditActor, expectedVersion: UInt64? = nil,
        transaction: Transaction
    ) throws -> StoredRecord<PaymentRecord> {
        try PaymentLifecycle.machine.firePayment(
            step == .collect ? PaymentMove.collect : .confirm, on: id, marketplaceID: marketplaceID, by: actor, expectedVersion: expectedVersion,
            transaction: transaction
        ) { value in
            if step == .collect || value.subject.collectedByAccountID.isEmpty {
                value.subject.collectedByAccountID = actor.accountID
                value.subject.collectTime = Timestamp(transaction.now)
            }
            if step == .confirm { value.subject.succeedTime = Timestamp(transaction.now) }
        }
    }
}
