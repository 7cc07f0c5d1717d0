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

    /// `nearest` inside `transaction`: the committed entries, read without a lock (the caller
    /// locks the courier it picks and checks it again).
    package static func nearest(_ query: GeoQuery, in transaction: Transaction) throws -> GeoPage<CourierRecord> {
        try transaction.nearest(CourierTable.table, CourierTable.available, query)
    }

    /// Whether the courier may be offered work, leaving the freshness of their position aside:
    /// online, placed, and holding no open delivery (an offer past its time holds them no more,
    /// though the index of available couriers keeps them out until its timer frees them).
    package static func isFree(_ courier: StoredRecord<CourierRecord>, transaction: Transaction) throws -> Bool {
        guard courier.value.status.online, courier.value.status.location != nil else { return false }
        return try openDelivery(of: courier, transaction: transaction) == nil
    }

    /// The open delivery the courier holds at the transaction's time, if any.
    package static func openDelivery(of courier: StoredRecord<CourierRecord>, transaction: Transaction) throws -> RecordID? {
        try openDelivery(of: courier, at: transaction.now) { try transaction.get(DeliveryTable.table, $0) }
    }

    /// The open delivery the courier holds at `now`, the delivery read by `read`.
    package static func openDelivery(
        of courier: StoredRecord<CourierRecord>, at now: StoreTime, read: (RecordID) throws -> StoredRecord<DeliveryRecord>?
    ) throws -> RecordID? {
        guard let id = RecordID(courier.value.status.activeDeliveryID), let delivery = try read(id) else { return nil }
        return isOpen(delivery.value.subject, at: now) ? id : nil
    }

    /// Whether `delivery` still holds its order and its courier at `now`: open, and not an offer
    /// past its time (`DeliveryLifecycles.settled`).
    package static func isOpen(_ delivery: SoukStoreV1.Delivery, at now: StoreTime) -> Bool {
        DeliveryReads.open.contains(DeliveryLifecycles.settled(delivery, at: now).status)
    }

    /// The scope of a marketplace's available couriers in `nearest`'s query.
    package static func scope(_ marketplaceID: String) -> [KeyPart] { CourierTable.scope(marketplaceID) }

    /// Makes `deliveryID` the delivery courier `id` carries (empty: none), without changing the
    /// record's version (a server-maintained field).
    package static func setActiveDelivery(_ deliveryID: String, of id: RecordID, in transaction: Transaction) throws {
        try transaction.updateMaintainedFields(CourierTable.table, id) { $0.status.activeDeliveryID = deliveryID }
    }
}
