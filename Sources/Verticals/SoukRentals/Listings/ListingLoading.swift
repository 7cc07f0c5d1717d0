import SoukKit
import SoukMessages
import SoukStore

extension Rentals {
    /// Stores a listing as given, without `CreateListing`'s checks and lifecycle, inside the
    /// caller's transaction: a bulk load that is not what a benchmark measures (`bench/rentals`).
    /// Returns its id.
    public static func loadListing(_ listing: SoukStoreV1.Listing, marketplaceID: String, in transaction: Transaction) throws -> RecordID {
        try transaction.insert(ListingTable.table, ListingRecord(marketplaceID: marketplaceID, listing)).id
    }
}
