import SoukKit
import SoukMessages
import SoukStore

/// A driver's availability and last position: one record per courier account, whose id is the
/// account's id.
package struct CourierRecord: Sendable {
    package var marketplaceID: String
    package var status: SoukV1.CourierStatus

    package init(marketplaceID: String, _ status: SoukV1.CourierStatus) {
        self.marketplaceID = marketplaceID
        self.status = status
    }

    /// Whether the driver may be offered work, leaving the freshness of the position aside
    /// (the index's stamp carries it, so that a query filters on it).
    package var isAvailable: Bool { status.online && status.activeDeliveryID.isEmpty && status.location != nil }
}

/// Couriers' statuses and the geospatial index of available drivers.
enum CourierTable {
    /// Available drivers by position, one scope per marketplace, stamped with the time of the
    /// position (µs) so that `location_stale_after` is a filter of the query.
    static let available = GeoIndex<CourierRecord>("couriers.available") { record in
        let status = record.value.status
        guard record.value.isAvailable, let location = status.location else { return [] }
        let stamp = status.locationTime.map { StoreTime($0).microsecondsSinceEpoch } ?? 0
        return [GeoEntry(scope: scope(record.value.marketplaceID), position: GeoPosition(location), stamp: stamp)]
    }

    /// Not converted yet: stores the contract message `souk.v1.CourierStatus` itself, not a `souk.store.v1` record (ADDING-A-SERVICE.md, "Stored records are not wire messages").
    static let table = Table(
        "couriers", codec: FieldCodec.marketplaceMessage(SoukV1.CourierStatus.self, split: { ($0.marketplaceID, $0.status) }, make: CourierRecord.init),
        indexes: [available.index])

    static var all: [AnyTable] { [table.erased] }

    /// The scope of a marketplace's available drivers in the geospatial index.
    static func scope(_ marketplaceID: String) -> [KeyPart] { [.string(marketplaceID)] }
}

extension GeoPosition {
    package init(_ point: SoukV1.GeoPoint) { self.init(latitude: point.latitude, longitude: point.longitude) }
}

extension StoredRecord where Value == CourierRecord {
    /// The contract's view: the status with the record's account id and version.
    package var courierStatus: SoukV1.CourierStatus {
        var status = value.status
        status.courierAccountID = id.description
        status.version = Int64(version)
        status.updateTime = Timestamp(updatedAt)
        return status
    }
}
