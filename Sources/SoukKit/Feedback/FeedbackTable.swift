import SoukGRPC
import SoukMessages
import SoukStore

/// A feedback entry as stored: its own record (`souk.store.v1.FeedbackEntry`, without the id,
/// version and times, which the envelope holds) and its marketplace. RPCs answer with
/// `FeedbackProjection`.
public typealias FeedbackRecord = MarketRecord<SoukStoreV1.FeedbackEntry>

/// Every rating of every vertical (orders, rental bookings, laundry jobs), in one table of the
/// kit, so that `Feedback.ListFeedback` lists them in one place. The domain that rates a subject
/// writes its entry here in the rating's transaction (`insert`). Entries end with the entry's
/// version 7 id, so newest first is a descending scan.
public enum FeedbackTable {
    public static let bySubject = Index<FeedbackRecord>.nonUnique("feedback.subject") {
        [.string($0.marketplaceID), .string($0.subject.subject?.id ?? "")]
    }
    public static let byMarketplace = Index<FeedbackRecord>.nonUnique("feedback.marketplace") { [.string($0.marketplaceID)] }
    public static let byRated = Index<FeedbackRecord>.nonUnique("feedback.rated") {
        $0.subject.ratedAccountID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.ratedAccountID)]
    }
    public static let byListing = Index<FeedbackRecord>.nonUnique("feedback.listing") {
        $0.subject.listingID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.listingID)]
    }
    public static let byRestaurant = Index<FeedbackRecord>.nonUnique("feedback.restaurant") {
        $0.subject.restaurantID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.restaurantID)]
    }
    public static let byAuthor = Index<FeedbackRecord>.nonUnique("feedback.author") {
        [.string($0.marketplaceID), .string($0.subject.authorAccountID)]
    }
    /// Only entries no admin answered yet: the admins' inbox.
    public static let unanswered = Index<FeedbackRecord>.nonUnique("feedback.unanswered") {
        $0.subject.answer == nil ? [.string($0.marketplaceID)] : nil
    }

    public static let table = marketTable(
        "feedback", SoukStoreV1.FeedbackEntry.self, indexes: [bySubject, byMarketplace, byRated, byListing, byRestaurant, byAuthor, unanswered])

    /// The entries `author` wrote about `subjectID`, read in `transaction` (at most a few: one per
    /// target).
    public static func entries(about subjectID: String, by author: String, marketplaceID: String, transaction: Transaction) throws
        -> [SoukStoreV1.FeedbackEntry]
    {
        try transaction.list(table, bySubject, .starting(with: [.string(marketplaceID), .string(subjectID)]), limit: 100)
            .map(\.value.subject).filter { $0.authorAccountID == author }
    }

    /// Stores a new entry and its audit record (CREATED) in `transaction`.
    public static func insert(
        _ entry: SoukStoreV1.FeedbackEntry, marketplaceID: String, actor: AuditActor, transaction: Transaction
    ) throws -> StoredRecord<FeedbackRecord> {
        let record = try transaction.insert(table, FeedbackRecord(marketplaceID: marketplaceID, entry))
        try AuditLog.record(
            in: transaction, marketplaceID: marketplaceID, resource: SoukV1.ResourceRef(type: .feedback, id: record.id.description),
            actor: actor, to: "CREATED", resourceVersion: record.version)
        return record
    }
}

/// What callers see of a stored feedback entry: the contract's `FeedbackEntry`, built field by
/// field (an allow-list: a field added to the stored record reaches no caller until a line here
/// names it). The rating domains' views add the author's and the rated party's summaries.
public enum FeedbackProjection {
    public static func entry(_ record: StoredRecord<FeedbackRecord>) -> SoukV1.FeedbackEntry {
        let stored = record.value.subject
        var entry = record.stamped(SoukV1.FeedbackEntry())
        entry.subject = stored.subject
        entry.authorAccountID = stored.authorAccountID
        entry.ratedAccountID = stored.ratedAccountID
        entry.listingID = stored.listingID
        entry.restaurantID = stored.restaurantID
        entry.stars = stored.stars
        entry.comment = stored.comment
        entry.answer = stored.answer
        return entry
    }
}

// Feedback entries are written by every domain that rates (orders, bookings, laundry jobs).
extension SoukV1.FeedbackEntry: StampedMessage {}
