import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// DineSwift's part of its orders: a cancelled order leaves the reports (and the driver's cash
/// they counted); `ListOrders` filters by the caller's restaurant; a rating of the restaurant
/// counts in its average; food deliveries are shown by `FoodDeliveryViews` (an offer past
/// its time as EXPIRED).
struct FoodOrders: OrderVertical {
    let commerce: Commerce

    var needsPaymentBeforeCancel: Bool { true }

    func cancelled(_ cancellation: OrderCancellation, transaction: Transaction) throws {
        try FoodOrderEffects.cancelled(
            cancellation.order, payment: cancellation.paymentBefore, marketplace: cancellation.marketplace,
            marketplaceID: cancellation.marketplaceID, transaction: transaction)
    }

    func ownsSeller(_ restaurantID: String, call: SoukCall, caller: Caller, roles: Set<SoukV1.Role>, store: Store) throws -> Bool {
        try Restaurants.owns(restaurantID, field: "restaurant_id", call, caller, roles, store: store)
    }

    func ratedSubjects(of order: SoukStoreV1.Order, restaurantID: String, transaction: Transaction) throws -> [RecordID] {
        RecordID(restaurantID).map { [$0] } ?? []
    }

    func rated(_ subject: RecordID, _ summary: SoukV1.RatingSummary, transaction: Transaction) throws {
        try FoodRestaurants.rated(subject, summary, transaction: transaction)
    }

    func deliveryView(_ deliveryID: String, call: SoukCall, store: Store) throws -> SoukV1.Delivery {
        try FoodDeliveryViews.view(deliveryID, call, store: store)
    }
}
