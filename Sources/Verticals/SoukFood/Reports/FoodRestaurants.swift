import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// Restaurants as reports, ratings and order lists need them, read from `RestaurantTable`.
enum FoodRestaurants {
    /// The owner account of restaurant `restaurantID` of the call's marketplace; NOT_FOUND otherwise.
    static func owner(of restaurantID: String, call: SoukCall, store: Store) throws -> String {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(restaurantID, field: "restaurant_id")
        return try store.require(RestaurantTable.table, id, in: marketplaceID, "restaurant").value.subject.ownerAccountID
    }

    /// The id of the restaurant `accountID` owns in the marketplace, if any.
    static func restaurant(ownedBy accountID: RecordID, marketplaceID: RecordID, store: Store) throws -> String? {
        try store.get(RestaurantTable.table, unique: RestaurantTable.byOwner, [.string(marketplaceID.description), .string(accountID.description)])?
            .id.description
    }

    /// The restaurant's current name ("" when unknown).
    static func name(of restaurantID: String, store: Store) throws -> String {
        guard let id = RecordID(restaurantID) else { return "" }
        return try store.get(RestaurantTable.table, id)?.value.subject.name ?? ""
    }

    /// The one place a restaurant's `rating` changes: food feedback adds the stars to the exact
    /// total (kept by the shared orders) and writes the new `summary` here, in the rating's
    /// transaction, as a server-maintained field (the owner's version is unchanged; the rating
    /// indexes follow).
    static func rated(_ restaurantID: RecordID, _ summary: SoukV1.RatingSummary, transaction: Transaction) throws {
        guard try transaction.get(RestaurantTable.table, restaurantID) != nil else { return }
        try transaction.updateMaintainedFields(RestaurantTable.table, restaurantID) { $0.subject.rating = summary }
    }
}
