import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A water service as stored.
public typealias ServiceRecord = MarketRecord<SoukV1.Service>

/// Water services and the indexes their browsing reads.
public enum ServiceTable {
    static let byMarketplace = Index<ServiceRecord>.nonUnique("services.marketplace") { [.string($0.marketplaceID)] }

    public static let table = marketTable("services", SoukV1.Service.self, indexes: [byMarketplace])

    static var all: [AnyTable] { [table.erased] }
}
