import SoukKit
import SoukMessages
import SoukStore

/// The star totals behind the averages of couriers, services and restaurants (`RatingTotal`).
/// The entries themselves are the kit's `FeedbackTable`, shared with every vertical.
enum RatingTotalTable {
    static let table = RatingTotal.table("rating_totals")

    static var all: [AnyTable] { [table.erased] }

    /// Adds `stars` to the total of `id` and returns the new summary.
    static func add(_ stars: Int32, to id: RecordID, transaction: Transaction) throws -> SoukV1.RatingSummary {
        try RatingTotal.add(stars, to: id, in: table, transaction: transaction)
    }
}
