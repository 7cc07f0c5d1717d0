import SoukKit
import SoukMessages
import SoukStore

/// A place as stored: its own record (`souk.store.v1.Place`, without the id, version and times,
/// which the envelope holds) and its marketplace. RPCs answer with `PlaceProjection`.
typealias PlaceRecord = MarketRecord<SoukStoreV1.Place>

/// Places of interest on the map, per (marketplace, category) and (marketplace, "any").
enum PlaceTable {
    static let geo = GeoIndex<PlaceRecord>("places.geo") { stored in
        guard let location = stored.value.subject.address?.location else { return [] }
        let position = GeoPosition(latitude: location.latitude, longitude: location.longitude)
        return [PlaceScope.any, PlaceScope.category(stored.value.subject.category)].map {
            GeoEntry(scope: [.string(stored.value.marketplaceID), .string($0)], position: position)
        }
    }
    static let table = marketTable("places", SoukStoreV1.Place.self, indexes: [geo.index])
}

/// The scopes of the places' geospatial index.
enum PlaceScope {
    static let any = "any"
    static func category(_ category: SoukV1.PlaceCategory) -> String { "category:\(category.rawValue)" }
}

/// What every caller sees of a stored place: the contract's `Place`, built field by field (an
/// allow-list: a field added to the stored record reaches no caller until a line here names it).
enum PlaceProjection {
    static func place(_ record: StoredRecord<PlaceRecord>) -> SoukV1.Place {
        let place = record.value.subject
        var shown = record.stamped(SoukV1.Place())
        shown.name = place.name
        shown.category = place.category
        shown.address = place.address
        return shown
    }
}

extension SoukV1.Place: StampedMessage {}
