import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A feedback entry as stored.
public typealias FeedbackRecord = MarketRecord<SoukV1.FeedbackEntry>

/// Feedback, with the index of each list `Feedback.ListFeedback` serves. Entries end with the
/// entry's version 7 id, so newest first is a descending scan.
public enum FeedbackTable {
    static let bySubject = Index<FeedbackRecord>.nonUnique("feedback.subject") {
        [.string($0.marketplaceID), .string($0.subject.subject?.id ?? "")]
    }
    static let byMarketplace = Index<FeedbackRecord>.nonUnique("feedback.marketplace") { [.string($0.marketplaceID)] }
    static let byRated = Index<FeedbackRecord>.nonUnique("feedback.rated") {
        $0.subject.ratedAccountID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.ratedAccountID)]
    }
    static let byListing = Index<FeedbackRecord>.nonUnique("feedback.listing") {
        $0.subject.listingID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.listingID)]
    }
    static let byRestaurant = Index<FeedbackRecord>.nonUnique("feedback.restaurant") {
        $0.subject.restaurantID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.restaurantID)]
    }
    static let byAuthor = Index<FeedbackRecord>.nonUnique("feedback.author") {
        [.string($0.marketplaceID), .string($0.subject.authorAccountID)]
    }
    /// Only entries no admin answered yet: the admins' inbox.
    static let unanswered = Index<FeedbackRecord>.nonUnique("feedback.unanswered") {
        $0.subject.answer == nil ? [.string($0.marketplaceID)] : nil
    }

    public static let table = marketTable(
        "feedback", SoukV1.FeedbackEntry.self, indexes: [bySubject, byMarketplace, byRated, byListing, byRestaurant, byAuthor, unanswered])

    static var all: [AnyTable] { [table.erased, RatingTotalTable.table.erased] }
}

/// The star totals behind the averages of accounts, services and restaurants (`RatingTotal`).
enum RatingTotalTable {
    static let table = RatingTotal.table("rating_totals")

    /// Adds `stars` to the total of `id` and returns the new summary.
    static func add(_ stars: Int32, to id: RecordID, transaction: Transaction) throws -> SoukV1.RatingSummary {
        try RatingTotal.add(stars, to: id, in: table, transaction: transaction)
    }
}
