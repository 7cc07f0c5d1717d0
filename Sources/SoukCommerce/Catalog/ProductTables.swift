import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A retail product as stored.
public typealias ProductRecord = MarketRecord<SoukV1.Product>

/// Retail products and the indexes their browsing reads.
public enum ProductTable {
    static let byMarketplace = Index<ProductRecord>.nonUnique("products.marketplace") { [.string($0.marketplaceID)] }

    public static let table = marketTable("products", SoukV1.Product.self, indexes: [byMarketplace])

    static var all: [AnyTable] { [table.erased] }
}
