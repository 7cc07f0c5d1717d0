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

/// The exact star total behind a rating average, stored under the rated record's id (an
/// account or a service), so averages never drift by rounding.
struct RatingTotal: Sendable {
    var count: Int64
    var stars: Int64

    /// Average in hundredths of a star, rounded half away from zero.
    var averageHundredths: Int32 {
        count == 0 ? 0 : Int32((stars * 200 + count) / (2 * count))
    }

    var summary: SoukV1.RatingSummary { SoukV1.RatingSummary(count: count, averageHundredths: averageHundredths) }
}

enum RatingTotalTable {
    static let table = Table(
        "rating_totals",
        codec: FieldCodec<RatingTotal>(
            write: { value, writer in
                writer.int(value.count)
                writer.int(value.stars)
            },
            read: { reader in RatingTotal(count: try reader.int(), stars: try reader.int()) }))

    /// Adds `stars` to the total of `id` and returns the new summary.
    static func add(_ stars: Int32, to id: RecordID, transaction: Transaction) throws -> SoukV1.RatingSummary {
        if let current = try transaction.get(table, id) {
            return try transaction.update(table, id) {
                $0.count += 1
                $0.stars += Int64(stars)
            }.value.summary
        }
        return try transaction.insert(table, RatingTotal(count: 1, stars: Int64(stars)), id: id).value.summary
    }
}
