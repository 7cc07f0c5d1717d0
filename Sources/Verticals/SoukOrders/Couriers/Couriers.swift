import SoukKit
import SoukMessages
import SoukStore

/// The couriers' status records as the verticals reach them, inside the caller's transaction;
/// the table is the shared orders' own (`CourierTable`). Food dispatch reads a driver's status,
/// finds the nearest available drivers and marks the delivery a driver carries.
package enum Couriers {
    /// Courier `id`'s status record, read (and locked) in `transaction`; nil when there is none.
    package static func get(_ id: RecordID, in transaction: Transaction) throws -> StoredRecord<CourierRecord>? {
        try transaction.get(CourierTable.table, id)
    }

    /// One page of the available couriers nearest the query's center (`CourierTable.available`).
    package static func nearest(_ query: GeoQuery, in store: Store) throws -> GeoPage<CourierRecord> {
        try store.nearest(CourierTable.table, CourierTable.available, query)
    }

    /// The scope of a marketplace's available couriers in `nearest`'s query.
    package static func scope(_ marketplaceID: String) -> [KeyPart] { CourierTable.scope(marketplaceID) }

    /// Makes `deliveryID` the delivery courier `id` carries (empty: none), without changing the
    /// record's version (a server-maintained field).
    package static func setActiveDelivery(_ deliveryID: String, of id: RecordID, in transaction: Transaction) throws {
        try transaction.updateMaintainedFields(CourierTable.table, id) { $0.status.activeDeliveryID = deliveryID }
    }
}
