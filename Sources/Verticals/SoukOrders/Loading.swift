import SoukKit
import SoukMessages
import SoukStore

/// Records stored as given, without a request's checks, inside the caller's transaction: bulk
/// loads that are not what a benchmark measures (`bench/dispatch`). Journeys go through the
/// services.
extension Commerce {
    /// Stores a courier's availability and position; returns the record's id.
    public static func loadCourier(_ status: SoukStoreV1.CourierStatus, marketplaceID: String, in transaction: Transaction) throws -> RecordID {
        try transaction.insert(CourierTable.table, CourierRecord(marketplaceID: marketplaceID, status)).id
    }

    /// Moves courier `id` to `location`, reported at `time`, as `UpdateCourierLocation` stores it
    /// (without changing the record's version).
    public static func moveCourier(_ id: RecordID, to location: SoukV1.GeoPoint?, at time: Timestamp?, in transaction: Transaction) throws {
        try transaction.updateMaintainedFields(CourierTable.table, id) {
            $0.status.location = location
            $0.status.locationTime = time
        }
    }

    /// Stores an order as given; returns its id.
    public static func loadOrder(_ order: SoukStoreV1.Order, marketplaceID: String, in transaction: Transaction) throws -> RecordID {
        try transaction.insert(OrderTable.table, OrderRecord(marketplaceID: marketplaceID, order)).id
    }
}
