import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

extension Shops {
    /// Stores a product as given, without `CreateProduct`'s checks, inside the caller's
    /// transaction: a bulk load that is not what a benchmark measures (`bench/commerce`).
    /// Returns its id.
    public static func loadProduct(_ product: SoukStoreV1.Product, marketplaceID: String, in transaction: Transaction) throws -> RecordID {
        try transaction.insert(ProductTable.table, ProductRecord(marketplaceID: marketplaceID, product)).id
    }
}
