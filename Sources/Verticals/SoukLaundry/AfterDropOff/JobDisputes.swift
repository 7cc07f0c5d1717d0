import Foundation
import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// Disputes of a job's charge: the customer opens one on a paid job within `window` of paying;
/// an admin rejects it or refunds part or all of what is left of the payment through the
/// payment ledger. Both changes are recorded on the job (audit and event stream) and tell
/// both parties.
struct JobDisputes {
    let laundry: Laundry
    var store: Store { laundry.store }

    /// How long after paying a charge may be disputed.
    static let window: Duration = .seconds(7 * 24 * 3600)

    func dispute(_ request: SoukV1.DisputeJobRequest, _ call: SoukCall) async throws -> SoukV1.Job {
        let (marketplaceID, _) = try call.requireMarketplace()
        var checks = FieldChecks()
        let jobID = try checks.run { try RequestFields.id(request.jobID, field: "job_id") }
        let expectedVersion = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        let text = try checks.run { try Self.text(request.reason, field: "reason", "say what went wrong") }
        try checks.finish()
        let (id, expected, reason) = (jobID!, expectedVersion ?? nil, text!)
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let current = try transaction.require(id, in: marketplaceID)
            try Self.check(expected, current)
            let job = current.value.subject
            guard let payTime = job.payTime, !job.paymentID.isEmpty else {
                throw RPCError.souk(.failedPrecondition, .notPaid, "job \(id) is not paid: only a paid job's charge can be disputed")
            }
            guard job.dispute == nil else { throw RPCError.souk(.failedPrecondition, .alreadyDisputed, "job \(id) is already disputed") }
            guard transaction.now <= StoreTime(payTime).adding(Self.window) else {
                throw RPCError.souk(.failedPrecondition, .disputeWindowClosed, "job \(id) was paid more than 7 days ago: its charge can no longer be disputed")
            }
            let updated = try transaction.update(JobTable.table, id) {
                $0.subject.dispute = SoukV1.JobDispute(status: .open, reason: reason, openTime: Timestamp(transaction.now))
            }
            try JobLifecycle.machine.recordChange(updated, in: JobTable.table, by: actor, reason: "dispute opened", transaction: transaction)
            try JobChanges.notify(
                [job.dasherAccountID], updated, .jobDisputed, transaction: transaction)
            return updated
        }
        return try JobViews.view(record, call, store: store)
    }

    func resolve(_ request: SoukV1.ResolveDisputeRequest, _ call: SoukCall) async throws -> SoukV1.Job {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let jobID = try checks.run { try RequestFields.id(request.jobID, field: "job_id") }
        let expectedVersion = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        let decision = try checks.run { try Self.text(request.resolution, field: "resolution", "the decision shown to both parties") }
        let refund = request.refund?.amountMinor ?? 0
        let currency = marketplace.currencyCode
        checks.require(
            refund >= 0 && ((request.refund?.currencyCode ?? "").isEmpty || request.refund?.currencyCode == currency), "refund",
            "must be 0 or more minor units of \(currency)")
        try checks.finish()
        let (id, expected, resolution) = (jobID!, expectedVersion ?? nil, decision!)
        let actor = AuditActor(call)
        let payables = laundry.payables
        let record = try await store.write { transaction in
            let current = try transaction.require(id, in: marketplaceID)
            try Self.check(expected, current)
            let job = current.value.subject
            guard var dispute = job.dispute, dispute.status == .open else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "job \(id) has no open dispute")
            }
            let left = (job.paidAmount?.amountMinor ?? 0) - (job.refundedAmount?.amountMinor ?? 0)
            guard refund <= left else { throw RPCError.invalidField("refund", "must be at most \(left) minor units, what is left of the payment") }
            if refund > 0 {
                let payment = try payables.refund(
                    paymentID: job.paymentID, amount: refund, reason: "dispute: \(resolution)", refunder: actor.accountID, actor: actor,
                    marketplaceID: marketplaceID, transaction: transaction)
                _ = try JobPayable.recordRefund(
                    refund, status: payment.status, of: id, marketplaceID: marketplaceID, marketplace: marketplace, transaction: transaction)
            }
            dispute.status = .resolved
            dispute.resolution = resolution
            dispute.resolvedByAccountID = actor.accountID
            dispute.refund = SoukV1.Money(amountMinor: refund, currencyCode: currency)
            dispute.resolveTime = Timestamp(transaction.now)
            dispute.outcome = refund == 0 ? .rejected : refund == left ? .fullRefund : .partialRefund
            let updated = try transaction.update(JobTable.table, id) { [dispute] record in record.subject.dispute = dispute }
            try JobLifecycle.machine.recordChange(updated, in: JobTable.table, by: actor, reason: "dispute resolved: \(dispute.outcome.protoName)", transaction: transaction)
            try JobChanges.notify(
                [job.customerAccountID, job.dasherAccountID], updated, .jobDisputeResolved(resolution: resolution), transaction: transaction)
            return updated
        }
        return try JobViews.view(record, call, store: store)
    }

    /// `text` trimmed: required (`what` says what it is for) and at most 2000 characters.
    private static func text(_ text: String, field: String, _ what: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw RPCError.invalidField(field, "is required: \(what)") }
        guard trimmed.count <= 2000 else { throw RPCError.invalidField(field, "must be at most 2000 characters") }
        return trimmed
    }

    /// ABORTED when the client read another version.
    private static func check(_ expected: UInt64?, _ current: StoredRecord<JobRecord>) throws {
        if let expected, expected != current.version {
            throw RPCError.staleVersion("job", current.id.description, expected: expected, actual: current.version)
        }
    }
}
