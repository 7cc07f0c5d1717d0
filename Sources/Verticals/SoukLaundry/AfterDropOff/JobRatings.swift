import Foundation
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// The star totals behind the averages ratings of jobs keep current. The ratings themselves are
/// feedback entries of the kit's `FeedbackTable`, listed by `Feedback.ListFeedback` with every
/// other vertical's.
enum JobRatingTables {
    /// Totals of the stars each Dasher received (shown as `Account.rating`), under the account's id.
    static let dasherTotals = RatingTotal.table("laundry_dasher_rating_totals")
    /// Totals of the stars each customer received (shown as `Account.customer_rating`), under the account's id.
    static let customerTotals = RatingTotal.table("laundry_customer_rating_totals")

    static var all: [AnyTable] { [dasherTotals.erased, customerTotals.erased, LegacyJobRatings.table.erased] }
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
        var checks = FieldChecks()
        let requestID = try checks.run { try RequestFields.requestID(request.requestID) } ?? ""
        let jobID = try checks.run { try RequestFields.id(request.jobID, field: "job_id") }
        checks.require((1...5).contains(request.stars), "stars", "must be a whole number of stars from 1 to 5")
        checks.require(request.comment.count <= 2000, "comment", "must be at most 2000 characters")
        try checks.finish()
        let id = jobID!
        let me = caller.accountID.description
        let market = marketplaceID.description
        let actor = AuditActor(call, requestID: requestID)
        let result = try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: market, account: me, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.FeedbackEntry>()
        ) { transaction in
            // Reading the job locks it: two ratings of one job serialize here.
            let record = try transaction.require(id, in: marketplaceID)
            let job = record.value.subject
            let byCustomer = job.customerAccountID == me
            try Self.checkRatable(job, id: id, byCustomer: byCustomer)
            guard try FeedbackTable.entries(about: id.description, by: me, marketplaceID: market, transaction: transaction).isEmpty else {
                throw RPCError.souk(
                    .alreadyExists, .alreadyRated, "job \(id) is already rated by its \(byCustomer ? "customer" : "Dasher"): each side rates once")
            }
            var entry = SoukStoreV1.FeedbackEntry()
            entry.subject = SoukV1.ResourceRef(type: .job, id: id.description)
            entry.authorAccountID = me
            entry.ratedAccountID = byCustomer ? job.dasherAccountID : job.customerAccountID
            entry.stars = request.stars
            entry.comment = request.comment
            let stored = try FeedbackTable.insert(entry, marketplaceID: market, actor: actor, transaction: transaction)
            try Self.addToAverage(request.stars, of: entry.ratedAccountID, asDasher: byCustomer, transaction: transaction)
            // Server-maintained flags: they do not change the version the parties act with.
            try transaction.updateMaintainedFields(JobTable.table, id) { job in
                if byCustomer { job.subject.customerRatedDasher = true } else { job.subject.dasherRatedCustomer = true }
            }
            return FeedbackProjection.entry(stored)
        }.value
        var entry = result
        entry.author = try LaundryStudents.summary(entry.authorAccountID, store: store)
        entry.rated = try LaundryStudents.summary(entry.ratedAccountID, store: store)
        return entry
    }

    /// NOT_RATABLE unless the job is at stage 9 and, for the customer, paid.
    private static func checkRatable(_ job: SoukStoreV1.Job, id: RecordID, byCustomer: Bool) throws {
        guard job.state == .droppedOff else {
            throw RPCError.souk(
                .failedPrecondition, .notRatable,
                "job \(id) is \(job.state == .cancelled ? "cancelled" : "at stage \(job.stage.rawValue)"): jobs are rated after stage 9")
        }
        if byCustomer, job.paymentID.isEmpty {
            throw RPCError.souk(.failedPrecondition, .notRatable, "job \(id) is not paid yet: pay for it before rating the Dasher")
        }
    }

    /// Adds `stars` to the rated account's total (which the account view shows,
    /// `LaundryProfiles.project`); a Dasher's new average also orders the accepting Dashers.
    private static func addToAverage(_ stars: Int32, of accountID: String, asDasher: Bool, transaction: Transaction) throws {
        guard let id = RecordID(accountID), try IdentityRecords.account(id, transaction) != nil else { return }
        let summary = try RatingTotal.add(
            stars, to: id, in: asDasher ? JobRatingTables.dasherTotals : JobRatingTables.customerTotals, transaction: transaction)
        if asDasher, try transaction.get(LaundryPersonTable.table, id) != nil {
            try transaction.updateMaintainedFields(LaundryPersonTable.table, id) { $0.dasherRatingHundredths = summary.averageHundredths }
        }
    }
}
