import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A delivery as stored.
public typealias DeliveryRecord = MarketRecord<SoukV1.Delivery>

/// Deliveries, with the index of each list `Deliveries.ListDeliveries` serves.
public enum DeliveryTable {
    static let byOrder = Index<DeliveryRecord>.nonUnique("deliveries.order") { [.string($0.marketplaceID), .string($0.subject.orderID)] }

    public static let table = marketTable("deliveries", SoukV1.Delivery.self, indexes: [byOrder])

    static var all: [AnyTable] { [table.erased] }
}
