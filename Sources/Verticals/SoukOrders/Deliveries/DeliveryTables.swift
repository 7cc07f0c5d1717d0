import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A delivery as stored.
package typealias DeliveryRecord = MarketRecord<SoukStoreV1.Delivery>

/// Deliveries, with the index of each list `Deliveries.ListDeliveries` serves. Entries end with
/// the delivery's version 7 id, so newest first is a descending scan.
enum DeliveryTable {
    static let byOrder = Index<DeliveryRecord>.nonUnique("deliveries.order") { [.string($0.marketplaceID), .string($0.subject.orderID)] }
    static let byMarketplace = Index<DeliveryRecord>.nonUnique("deliveries.marketplace") { [.string($0.marketplaceID)] }
    static let byStatus = Index<DeliveryRecord>.nonUnique("deliveries.status") {
        [.string($0.marketplaceID), .enumCase($0.subject.status)]
    }
    static let byCourier = Index<DeliveryRecord>.nonUnique("deliveries.courier") {
        $0.subject.courierAccountID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.courierAccountID)]
    }
    static let byCourierStatus = Index<DeliveryRecord>.nonUnique("deliveries.courier_status") {
        $0.subject.courierAccountID.isEmpty
            ? nil : [.string($0.marketplaceID), .string($0.subject.courierAccountID), .enumCase($0.subject.status)]
    }

    /// Food offers by the time they lapse (`deliveries.offer_expiry`) went with the polling
    /// loop: the offer-lapse timer keeps its own schedule.
    static let table = marketTable(
        "deliveries", SoukStoreV1.Delivery.self, indexes: [byOrder, byMarketplace, byStatus, byCourier, byCourierStatus]
    ).retiring("deliveries.offer_expiry")

    static var all: [AnyTable] { [table.erased] }
}
