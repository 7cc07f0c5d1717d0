import SoukKit
import SoukMessages
import SoukStore

/// Customers' ratings of restaurants: the one place a restaurant's `rating` changes. Food
/// feedback calls `apply` in the transaction that stores a customer's rating of a delivered
/// order; the average is kept exact by `RatingTotalTable` and written as a server-maintained
/// field, so it never changes the version the owner edits with. The rating indexes follow.
public enum RestaurantRatings {
    /// Adds `stars` (1–5) to restaurant `restaurantID`'s rating and returns the new summary.
    @discardableResult
    public static func apply(stars: Int32, to restaurantID: RecordID, in transaction: Transaction) throws -> SoukV1.RatingSummary {
        precondition((1...5).contains(stars), "ratings are 1 to 5 stars; callers check the request")
        guard try transaction.get(RestaurantTable.table, restaurantID) != nil else { throw StoreError.notFound(table: RestaurantTable.table.name, id: restaurantID) }
        let summary = try RatingTotalTable.add(stars, to: restaurantID, transaction: transaction)
        try transaction.updateMaintainedFields(RestaurantTable.table, restaurantID) { $0.subject.rating = summary }
        return summary
    }
}
