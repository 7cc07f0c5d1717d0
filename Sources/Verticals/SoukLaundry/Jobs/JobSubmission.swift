import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The price shown before submitting, and the submission of a job into its dorm's queue.
struct JobSubmission {
    /// Longest instructions a customer may leave the Dasher.
    static let maxInstructions = 1_000

    let laundry: Laundry
    var store: Store { laundry.store }

    func estimate(_ request: SoukV1.EstimateJobPriceRequest, _ call: SoukCall) async throws -> SoukV1.PriceBreakdown {
        let (_, marketplace) = try call.requireMarketplace()
        return try JobPricing.estimate(loads: request.loadsEstimate, addOns: request.addOns, marketplace: marketplace)
    }

    func submit(_ request: SoukV1.SubmitJobRequest, _ call: SoukCall) async throws -> SoukV1.Job {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let customer = try LaundryStudents.requireStudent(call, store: store)
        var checks = FieldChecks()
        let requestID = try checks.run { try RequestFields.requestID(request.requestID) } ?? ""
        let priced = try checks.run { try JobPricing.estimate(loads: request.loadsEstimate, addOns: request.addOns, marketplace: marketplace) }
        try checks.check { try Self.checkTimes(request) }
        checks.require(request.instructions.count <= Self.maxInstructions, "instructions", "must be at most \(Self.maxInstructions) characters")
        checks.require(
            !request.sameGenderOnly || LaundryStudents.gender(customer) != .unspecified, "same_gender_only",
            "needs the gender of your laundry profile")
        try checks.finish()
        let estimate = priced!
        let market = marketplaceID.description
        let dorm = LaundryStudents.dorm(customer)
        var job = SoukStoreV1.Job(
            customerAccountID: customer.id, dormID: dorm, room: customer.laundryProfile?.room ?? "", loadsEstimate: request.loadsEstimate,
            instructions: request.instructions, pickupTime: request.pickupTime, dropoffTime: request.dropoffTime, addOns: request.addOns,
            preferredDasherAccountID: request.preferredDasherAccountID, estimate: estimate)
        job.sameGenderOnly = request.sameGenderOnly
        job.lifecycleState = .stage(.waitingForDasherToAccept)
        let submitted = job
        let actor = AuditActor(call, requestID: requestID)
        let preferred = request.preferredDasherAccountID
        let stored = try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: market, account: customer.id, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Job>()
        ) { transaction in
            var job = submitted
            JobQueue.stamp(&job, .waitingForDasherToAccept, transaction.now)
            if !preferred.isEmpty { try Self.checkPreferred(preferred, customer: customer, market: market, transaction: transaction) }
            let record = try JobLifecycle.machine.create(JobRecord(marketplaceID: market, job), in: JobTable.table, by: actor, transaction: transaction)
            try JobReports.submitted(record, transaction: transaction)
            if !preferred.isEmpty {
                try JobChanges.notify([preferred], record, .jobNamesDasher, transaction: transaction)
            }
            return record.stamped(SoukV1.Job())
        }.value
        // A retry gets the job as it is now.
        return try JobViews.get(stored.id, call, store: store)
    }

    /// A preferred Dasher must be an active Dasher of the customer's dorm accepting requests:
    /// NOT_FOUND for no such Dasher (or the customer themself), FAILED_PRECONDITION
    /// (DASHER_NOT_ACCEPTING) for one who lives in another dorm or is not accepting requests.
    private static func checkPreferred(_ id: String, customer: SoukV1.Account, market: String, transaction: Transaction) throws {
        let field = "preferred_dasher_account_id"
        guard let dasher = try LaundryStudents.account(id, marketplaceID: market, transaction: transaction),
              LaundryStudents.isActiveDasher(dasher), dasher.id != customer.id
        else {
            throw RPCError.souk(.notFound, .resourceNotFound, "no Dasher \(id)", field: field, metadata: ["resource_type": "dasher", "resource_id": id])
        }
        guard LaundryStudents.dorm(dasher) == LaundryStudents.dorm(customer) else {
            throw RPCError.souk(.failedPrecondition, .dasherNotAccepting, "Dasher \(id) lives in another dorm: a job names a Dasher of its own dorm", field: field)
        }
        guard dasher.dasherProfile?.acceptingRequests == true else {
            throw RPCError.souk(.failedPrecondition, .dasherNotAccepting, "Dasher \(id) is not accepting requests", field: field)
        }
    }

    /// Drop-off, when given with a pickup, comes after it.
    private static func checkTimes(_ request: SoukV1.SubmitJobRequest) throws {
        if let pickup = request.pickupTime, let dropoff = request.dropoffTime, StoreTime(dropoff) <= StoreTime(pickup) {
            throw RPCError.invalidField("dropoff_time", "must be after pickup_time")
        }
    }
}
