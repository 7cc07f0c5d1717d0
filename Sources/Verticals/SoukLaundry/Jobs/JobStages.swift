import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A job moving through its stages: the assigned Dasher's advances (stage 7 fixes the final
/// price), the customer's confirmation of a final price above twice the estimate, and the
/// customer's cancellation. Every change goes through `JobLifecycle.machine`, which writes it to
/// the job's event stream; the customer is told of each stage.
struct JobStages {
    let laundry: Laundry
    var store: Store { laundry.store }

    func advance(_ request: SoukV1.AdvanceJobStageRequest, _ call: SoukCall) async throws -> SoukV1.Job {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let jobID = try checks.run { try RequestFields.id(request.jobID, field: "job_id") }
        let expectedVersion = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        let target = request.targetStage
        let position = JobLifecycle.stages.firstIndex(of: target) ?? 0
        checks.require(position > 0, "target_stage", "must be a stage from 1 to 9")
        let machineCost = try Self.finalCost(request, target: target, marketplace: marketplace, checks: &checks)
        try checks.finish()
        let id = jobID!
        let expected = expectedVersion ?? nil
        let actualLoads = request.actualLoads
        let actor = AuditActor(call)
        let currency = marketplace.currencyCode
        let record = try await store.write { transaction in
            let current = try transaction.require(id, in: marketplaceID)
            if current.value.subject.finalPriceConfirmationRequired, current.value.subject.stage == .finishedDrying {
                throw RPCError.souk(
                    .failedPrecondition, .finalPriceUnconfirmed, "job \(id): the customer has not confirmed a final price above twice the estimate")
            }
            let job = try JobLifecycle.machine.fire(
                "advance", on: id, in: JobTable.table, marketplaceID: marketplaceID.description, by: actor, to: .stage(target),
                expectedVersion: expected, transaction: transaction
            ) { record in
                JobQueue.stamp(&record.subject, target, transaction.now)
                if target == .droppedOffLaundry { record.subject.completeTime = Timestamp(transaction.now) }
                if let machineCost {
                    let price = try JobPricing.final(machineCostTotal: machineCost, addOns: record.subject.addOns, marketplace: marketplace)
                    record.subject.actualLoads = actualLoads ?? 0
                    record.subject.machineCostTotal = SoukV1.Money(amountMinor: machineCost, currencyCode: currency)
                    record.subject.finalPrice = price
                    record.subject.finalPriceConfirmationRequired = JobPricing.needsConfirmation(final: price, estimate: record.subject.estimate)
                }
            }
            if target == .droppedOffLaundry, let dasherID = RecordID(job.value.subject.dasherAccountID) {
                try LaundryStudents.countCompleted(dasherID, transaction: transaction)
            }
            let waiting = job.value.subject.finalPriceConfirmationRequired
            try JobChanges.notify(
                [job.value.subject.customerAccountID], job, title: "Stage \(position): \(JobChanges.title(target))",
                body: waiting ? "The final price is more than twice the estimate: confirm it so the Dasher can bring your laundry back."
                    : "Your laundry job moved to stage \(position).",
                transaction: transaction)
            return job
        }
        return try JobViews.view(record, call, store: store)
    }

    /// The total machine cost entered on reaching stage 7, with the actual loads (both required
    /// then: each missing one is named, FINAL_COST_REQUIRED); nil for another stage or when a
    /// violation was recorded in `checks`.
    private static func finalCost(
        _ request: SoukV1.AdvanceJobStageRequest, target: SoukV1.JobStage, marketplace: SoukV1.Marketplace, checks: inout FieldChecks
    ) throws -> Int64? {
        guard target == .finishedDrying else { return nil }
        if let loads = request.actualLoads {
            try checks.check { try JobPricing.checkLoads(loads, field: "actual_loads") }
        } else {
            checks.add("actual_loads", "is required to reach stage 7: the loads actually washed", reason: .finalCostRequired)
        }
        guard let cost = request.machineCostTotal else {
            checks.add("machine_cost_total", "is required to reach stage 7: the total machine cost paid", reason: .finalCostRequired)
            return nil
        }
        guard (0...1_000_000).contains(cost.amountMinor), cost.currencyCode.isEmpty || cost.currencyCode == marketplace.currencyCode else {
            checks.add("machine_cost_total", "must be 0 to 1,000,000 minor units of \(marketplace.currencyCode)")
            return nil
        }
        return cost.amountMinor
    }

    func confirmFinalPrice(_ request: SoukV1.ConfirmFinalPriceRequest, _ call: SoukCall) async throws -> SoukV1.Job {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected) = try JobQueue.jobFields(request.jobID, request.expectedVersion)
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let job = try JobLifecycle.machine.fire(
                "confirm_final_price", on: id, in: JobTable.table, marketplaceID: marketplaceID.description, by: actor,
                expectedVersion: expected, transaction: transaction
            ) { record in
                record.subject.finalPriceConfirmationRequired = false
                record.subject.finalPriceConfirmTime = Timestamp(transaction.now)
            }
            try JobChanges.notify(
                [job.value.subject.dasherAccountID], job, title: "Final price confirmed", body: "You may bring the laundry back.",
                transaction: transaction)
            return job
        }
        return try JobViews.view(record, call, store: store)
    }

    func cancel(_ request: SoukV1.CancelJobRequest, _ call: SoukCall) async throws -> SoukV1.Job {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let (id, expected) = try JobQueue.jobFields(request.jobID, request.expectedVersion) { checks in
            checks.require(request.reason.count <= 2000, "reason", "must be at most 2000 characters")
        }
        let last = JobRules(marketplace).lastCancellableStage
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let current = try transaction.require(id, in: marketplaceID).value.subject
            if current.state == .active, current.stage.rawValue > last {
                throw RPCError.souk(
                    .failedPrecondition, .cancelNotAllowed,
                    "job \(id) cannot be cancelled: the laundry has already been picked up (stage \(current.stage.rawValue))")
            }
            let job = try JobLifecycle.machine.fire(
                "cancel", on: id, in: JobTable.table, marketplaceID: marketplaceID.description, by: actor, expectedVersion: expected,
                reason: request.reason, transaction: transaction
            ) { record in
                record.subject.cancelReason = request.reason
                record.subject.cancelTime = Timestamp(transaction.now)
                JobQueue.withdrawOffer(&record.subject)
            }
            let dasher = current.dasherAccountID.isEmpty ? current.offeredToAccountID : current.dasherAccountID
            try JobChanges.notify([dasher], job, title: "Laundry job cancelled", body: "The customer cancelled the job.", transaction: transaction)
            return job
        }
        return try JobViews.view(record, call, store: store)
    }
}
