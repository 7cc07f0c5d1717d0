import SoukKit
import SoukMessages
import SoukStore

typealias RegionRecord = MarketRecord<SoukV1.Region>

/// Regions: unique names per marketplace, listed by name.
enum RegionTable {
    static let byName = Index<RegionRecord>.unique("regions.name") {
        [.string($0.marketplaceID), .string(SearchText.normalized($0.subject.name))]
    }
    /// (marketplace, live, name): `live` entries leave out archived regions.
    static let byLiveName = Index<RegionRecord>.nonUnique("regions.live_name", keys: { record in
        [false, true].filter { !($0 && record.subject.archived) }.map { live in
            [.string(record.marketplaceID), .bool(live), .string(SearchText.normalized(record.subject.name))]
        }
    })
    /// Not converted yet: stores the contract message `souk.v1.Region` itself, not a `souk.store.v1` record (ADDING-A-SERVICE.md, "Stored records are not wire messages").
    static let table = marketTable("regions", SoukV1.Region.self, indexes: [byName, byLiveName])
}

extension SoukV1.Region: StampedMessage {}
