import SoukKit
import SoukMessages
import SoukStore

typealias PlaceRecord = MarketRecord<SoukV1.Place>

/// Places of interest on the map, per (marketplace, category) and (marketplace, "any").
enum PlaceTable {
    static let geo = GeoIndex<PlaceRecord>("places.geo") { stored in
        guard let location = stored.value.subject.address?.location else { return [] }
        let position = GeoPosition(latitude: location.latitude, longitude: location.longitude)
        return [PlaceScope.any, PlaceScope.category(stored.value.subject.category)].map {
            GeoEntry(scope: [.string(stored.value.marketplaceID), .string($0)], position: position)
        }
    }
    /// Not converted yet: stores the contract message `souk.v1.Place` itself, not a `souk.store.v1` record (ADDING-A-SERVICE.md, "Stored records are not wire messages").
    static let table = marketTable("places", SoukV1.Place.self, indexes: [geo.index])
}

/// The scopes of the places' geospatial index.
enum PlaceScope {
    static let any = "any"
    static func category(_ category: SoukV1.PlaceCategory) -> String { "category:\(category.rawValue)" }
}

extension SoukV1.Place: StampedMessage {}
