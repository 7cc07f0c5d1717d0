import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Restaurants as reports, ratings and order lists need them. Not finished: these read the
/// restaurants' table once restaurants are stored; until then no restaurant is found.
enum FoodRestaurants {
    static func owner(of restaurantID: String, call: SoukCall, store: Store) throws -> String {
        throw RPCError.souk(.unimplemented, .notImplemented, "restaurants are not served yet")
    }

    static func restaurant(ownedBy accountID: RecordID, marketplaceID: RecordID, store: Store) throws -> String? { nil }

    static func name(of restaurantID: String, store: Store) throws -> String { "" }

    static func rated(_ restaurantID: RecordID, _ summary: SoukV1.RatingSummary, transaction: Transaction) throws {}
}
