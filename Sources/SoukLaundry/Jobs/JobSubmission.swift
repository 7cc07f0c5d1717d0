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
        let requestID = try RequestFields.requestID(request.requestID)
        let customer = try LaundryStudents.requireStudent(call, store: store)
        let estimate = try JobPricing.estimate(loads: request.loadsEstimate, addOns: request.addOns, marketplace: marketplace)
        try Self.checkTimes(request)
        if request.instructions.count > Self.maxInstructions {
            throw RPCError.invalidField("instructions", "must be at most \(Self.maxInstructions) characters")
        }
        if request.sameGenderOnly, LaundryStudents.gender(customer) == .unspecified {
            throw RPCError.invalidField("same_gender_only", "needs the gender of your laundry profile")
        }
        let market = marketplaceID.description
        let dorm = LaundryStudents.dorm(customer)
        var job = SoukV1.Job(
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
            if !preferred.isEmpty {
                try JobChanges.notify([preferred], record, title: "A laundry job names you", body: "Ask for work to see it.", transaction: transaction)
            }
            return record.job
        }.value
        // A retry gets the job as it is now.
        return try JobViews.get(stored.id, call, store: store)
    }

    /// A preferred Dasher must be an active Dasher of the customer's dorm accepting requests
    /// (NOT_FOUND for no such Dasher, FAILED_PRECONDITION when not accepting).
    private static func checkPreferred(_ id: String, customer: SoukV1.Account, market: String, transaction: Transaction) throws {
        guard let dasher = try LaundryStudents.account(id, marketplaceID: market, transaction: transaction),
              LaundryStudents.isActiveDasher(dasher), LaundryStudents.dorm(dasher) == LaundryStudents.dorm(customer), dasher.id != customer.id
        else {
            throw RPCError.souk(.notFound, .resourceNotFound, "preferred_dasher_account_id: no Dasher \(id) in your dorm", field: "preferred_dasher_account_id")
        }
        guard dasher.dasherProfile?.acceptingRequests == true else {
            throw RPCError.souk(.failedPrecondition, .dasherNotAccepting, "Dasher \(id) is not accepting requests", field: "preferred_dasher_account_id")
        }
    }

    /// Drop-off, when given with a pickup, comes after it.
    private static func checkTimes(_ request: SoukV1.SubmitJobRequest) throws {
        if let pickup = request.pickupTime, let dropoff = request.dropoffTime, StoreTime(dropoff) <= StoreTime(pickup) {
            throw RPCError.invalidField("dropoff_time", "must be after pickup_time")
        }
    }
}
