import Foundation
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// A rating of one side of a job by the other, stored as the contract's feedback entry.
typealias JobRatingRecord = MarketRecord<SoukV1.FeedbackEntry>

/// Ratings of jobs and the star totals behind the averages they keep current.
enum JobRatingTables {
    /// One rating per job and author: the second one finds the first here.
    static let byJobAndAuthor = Index<JobRatingRecord>.unique("laundry_ratings.job_author") {
        [.string($0.marketplaceID), .string($0.subject.subject?.id ?? ""), .string($0.subject.authorAccountID)]
    }
    static let ratings = marketTable("laundry_ratings", SoukV1.FeedbackEntry.self, indexes: [byJobAndAuthor])
    /// Totals of the stars each Dasher received (`Account.rating`), under the account's id.
    static let dasherTotals = RatingTotal.table("laundry_dasher_rating_totals")
    /// Totals of the stars each customer received (`Account.customer_rating`), under the account's id.
    static let customerTotals = RatingTotal.table("laundry_customer_rating_totals")

    static var all: [AnyTable] { [ratings.erased, dasherTotals.erased, customerTotals.erased] }
}

/// `RateJob`: the customer rates the Dasher once the job is paid, the Dasher rates the
/// customer from stage 9; once each. The rated account's average changes in the rating's
/// transaction. A Dasher's rating shows the starting 5 stars (count 0) until the first
/// rating, which replaces it: the average is of real ratings only.
struct JobRatings {
    let laundry: Laundry
    var store: Store { laundry.store }

    func rate(_ request: SoukV1.RateJobRequest, _ call: SoukCall) async throws -> SoukV1.FeedbackEntry {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let requestID = try RequestFields.requestID(request.requestID)
        let id = try RequestFields.id(request.jobID, field: "job_id")
        guard (1...5).contains(request.stars) else { throw RPCError.invalidField("stars", "must be a whole number of stars from 1 to 5") }
        guard request.comment.count <= 2000 else { throw RPCError.invalidField("comment", "must be at most 2000 characters") }
        let me = caller.accountID.description
        let market = marketplaceID.description
        let actor = AuditActor(call, requestID: requestID)
        let result = try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: market, account: me, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.FeedbackEntry>()
        ) { transaction in
            // Reading the job locks it: two ratings of one job serialize here.
            let record = try transaction.require(id, in: marketplaceID)
            let job = record.job
            let byCustomer = job.customerAccountID == me
            try Self.checkRatable(job, byCustomer: byCustomer)
            let key: [KeyPart] = [.string(market), .string(id.description), .string(me)]
            guard try transaction.get(JobRatingTables.ratings, unique: JobRatingTables.byJobAndAuthor, key) == nil else {
                throw RPCError.souk(
                    .alreadyExists, .alreadyRated, "job \(id) is already rated by its \(byCustomer ? "customer" : "Dasher"): each side rates once")
            }
            var entry = SoukV1.FeedbackEntry()
            entry.subject = SoukV1.ResourceRef(type: .job, id: id.description)
            entry.authorAccountID = me
            entry.ratedAccountID = byCustomer ? job.dasherAccountID : job.customerAccountID
            entry.stars = request.stars
            entry.comment = request.comment
            let stored = try transaction.insert(JobRatingTables.ratings, JobRatingRecord(marketplaceID: market, entry))
            try AuditLog.record(
                in: transaction, marketplaceID: market, resource: SoukV1.ResourceRef(type: .feedback, id: stored.id.description),
                actor: actor, to: "CREATED", resourceVersion: stored.version)
            try Self.addToAverage(request.stars, of: entry.ratedAccountID, asDasher: byCustomer, transaction: transaction)
            // Server-maintained flags: they do not change the version the parties act with.
            try transaction.updateMaintainedFields(JobTable.table, id) { job in
                if byCustomer { job.subject.customerRatedDasher = true } else { job.subject.dasherRatedCustomer = true }
            }
            return stored.api() as SoukV1.FeedbackEntry
        }.value
        var entry = result
        entry.author = try LaundryStudents.summary(entry.authorAccountID, store: store)
        entry.rated = try LaundryStudents.summary(entry.ratedAccountID, store: store)
        return entry
    }

    /// NOT_RATABLE unless the job is at stage 9 and, for the customer, paid.
    private static func checkRatable(_ job: SoukV1.Job, byCustomer: Bool) throws {
        guard job.state == .droppedOff else {
            throw RPCError.souk(
                .failedPrecondition, .notRatable,
                "job \(job.id) is \(job.state == .cancelled ? "cancelled" : "at stage \(job.stage.rawValue)"): jobs are rated after stage 9")
        }
        if byCustomer, job.paymentID.isEmpty {
            throw RPCError.souk(.failedPrecondition, .notRatable, "job \(job.id) is not paid yet: pay for it before rating the Dasher")
        }
    }

    /// Adds `stars` to the rated account's total and writes its new average on the account.
    private static func addToAverage(_ stars: Int32, of accountID: String, asDasher: Bool, transaction: Transaction) throws {
        guard let id = RecordID(accountID), try transaction.get(AccountTable.table, id) != nil else { return }
        let summary = try RatingTotal.add(
            stars, to: id, in: asDasher ? JobRatingTables.dasherTotals : JobRatingTables.customerTotals, transaction: transaction)
        try transaction.updateMaintainedFields(AccountTable.table, id) { record in
            if asDasher { record.account.rating = summary } else { record.account.customerRating = summary }
        }
    }
}
