import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukPayments
import SoukStore

/// A job as `Payments.CreatePayment` pays it: its customer pays the final price to the Dasher
/// once the job is at stage 9, and only once. The final price is fixed at stage 7, which
/// every job passes before stage 9. Paying records the payment on the job and adds it to the
/// Dasher's earnings, in the paying transaction.
struct JobPayable: PayableTarget {
    func payer(of id: String, marketplaceID: RecordID, store: Store) throws -> RecordID {
        let recordID = try RequestFields.id(id, field: "job_id")
        let job = try store.require(JobTable.table, recordID, in: marketplaceID, "job").value.subject
        guard let payer = RecordID(job.customerAccountID) else { throw RPCError.notFound("job", id) }
        return payer
    }

    func due(_ id: String, caller: Caller, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, transaction: Transaction) throws -> PayableDue {
        let recordID = try RequestFields.id(id, field: "job_id")
        let job = try transaction.require(recordID, in: marketplaceID).value.subject
        guard job.customerAccountID == caller.accountID.description, let payer = RecordID(job.customerAccountID) else {
            throw RPCError.souk(.permissionDenied, .notAllowed, "only the customer of job \(id) pays for it")
        }
        guard job.paymentID.isEmpty else { throw RPCError.souk(.failedPrecondition, .alreadyPaid, "job \(id) is already paid") }
        guard job.state == .droppedOff, let amount = job.finalPrice?.total else {
            let why = job.state == .cancelled ? "it was cancelled" : "it is at stage \(job.stage.rawValue); jobs are paid after stage 9"
            throw RPCError.souk(.failedPrecondition, .invalidTransition, "job \(id) is not payable: \(why)")
        }
        return PayableDue(target: SoukV1.ResourceRef(type: .job, id: id), payer: payer, payee: job.dasherAccountID, amount: amount)
    }

    func settle(_ id: String, payment: SoukV1.Payment, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, actor: AuditActor, transaction: Transaction) throws {
        let recordID = try RequestFields.id(id, field: "job_id")
        let record = try transaction.update(JobTable.table, recordID) { record in
            record.subject.paymentID = payment.id
            record.subject.paymentStatus = payment.status
            record.subject.paidAmount = payment.amount
            record.subject.payTime = Timestamp(transaction.now)
        }
        try JobLifecycle.machine.recordChange(record, in: JobTable.table, by: actor, reason: "paid", transaction: transaction)
        try EarningsLedger.paid(
            payment.amount?.amountMinor ?? 0, dasherID: record.value.subject.dasherAccountID, marketplace: marketplace,
            marketplaceID: marketplaceID.description, transaction: transaction)
        try JobChanges.notify(
            [record.value.subject.dasherAccountID], record, .jobPaid, transaction: transaction)
    }

    func refunded(_ id: String, payment: SoukV1.Payment, amount: Int64, marketplaceID: RecordID, marketplace: SoukV1.Marketplace, actor: AuditActor, transaction: Transaction) throws {
        let recordID = try RequestFields.id(id, field: "job_id")
        let record = try Self.recordRefund(
            amount, status: payment.status, of: recordID, marketplaceID: marketplaceID, marketplace: marketplace, transaction: transaction)
        try JobLifecycle.machine.recordChange(record, in: JobTable.table, by: actor, reason: "payment refunded", transaction: transaction)
    }

    /// The one place a refund of a job's payment is written: the job's payment state and
    /// refunded amount, and the Dasher's earnings of the period of the refund. Returns the job.
    static func recordRefund(
        _ amount: Int64, status: SoukV1.PaymentStatus, of id: RecordID, marketplaceID: RecordID, marketplace: SoukV1.Marketplace,
        transaction: Transaction
    ) throws -> StoredRecord<JobRecord> {
        let record = try transaction.update(JobTable.table, id) { record in
            let currency = record.subject.paidAmount?.currencyCode ?? ""
            record.subject.paymentStatus = status
            record.subject.refundedAmount = SoukV1.Money(amountMinor: (record.subject.refundedAmount?.amountMinor ?? 0) + amount, currencyCode: currency)
        }
        try EarningsLedger.refunded(
            amount, dasherID: record.value.subject.dasherAccountID, marketplace: marketplace, marketplaceID: marketplaceID.description,
            transaction: transaction)
        return record
    }
}
