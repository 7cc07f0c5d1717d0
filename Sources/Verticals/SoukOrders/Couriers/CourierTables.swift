import SoukKit
import SoukMessages
import SoukStore

/// A driver's availability and last position: one record per courier account, whose id is the
/// account's id. It stores its own record (`souk.store.v1.CourierStatus`, without the account
/// id, version and time, which the envelope holds); RPCs answer with `CourierProjection`.
package struct CourierRecord: Sendable {
    package var marketplaceID: String
    package var status: SoukStoreV1.CourierStatus

    package init(marketplaceID: String, _ status: SoukStoreV1.CourierStatus) {
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

    /// The codec is `MarketRecord`'s (format byte, marketplace id, message), so the records
    /// written when the table stored `souk.v1.CourierStatus` read as the stored record.
    static let table = Table(
        "couriers", codec: FieldCodec.marketplaceMessage(SoukStoreV1.CourierStatus.self, split: { ($0.marketplaceID, $0.status) }, make: CourierRecord.init),
        indexes: [available.index])

    static var all: [AnyTable] { [table.erased] }

    /// The scope of a marketplace's available drivers in the geospatial index.
    static func scope(_ marketplaceID: String) -> [KeyPart] { [.string(marketplaceID)] }
}

extension GeoPosition {
    package init(_ point: SoukV1.GeoPoint) { self.init(latitude: point.latitude, longitude: point.longitude) }
}

/// What a caller allowed to read a courier's status sees (the courier, the marketplace's
/// admins): the contract's `CourierStatus`, built field by field (an allow-list: a field added to
/// the stored record reaches no caller until a line here names it), with the account id, version
/// and time of the envelope.
enum CourierProjection {
    static func status(_ record: StoredRecord<CourierRecord>) -> SoukV1.CourierStatus {
        let status = record.value.status
        var shown = SoukV1.CourierStatus()
        shown.courierAccountID = record.id.description
        shown.version = Int64(record.version)
        shown.updateTime = Timestamp(record.updatedAt)
        shown.online = status.online
        shown.location = status.location
        shown.locationTime = status.locationTime
        shown.activeDeliveryID = status.activeDeliveryID
        return shown
    }
}
