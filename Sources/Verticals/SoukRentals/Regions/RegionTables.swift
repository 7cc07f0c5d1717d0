import SoukKit
import SoukMessages
import SoukStore

/// A region as stored: its own record (`souk.store.v1.Region`, without the id, version and
/// times, which the envelope holds) and its marketplace. RPCs answer with `RegionProjection`.
typealias RegionRecord = MarketRecord<SoukStoreV1.Region>

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
    static let table = marketTable("regions", SoukStoreV1.Region.self, indexes: [byName, byLiveName])
}

/// What every caller sees of a stored region: the contract's `Region`, built field by field (an
/// allow-list: a field added to the stored record reaches no caller until a line here names it).
enum RegionProjection {
    static func region(_ record: StoredRecord<RegionRecord>) -> SoukV1.Region {
        let region = record.value.subject
        var shown = record.stamped(SoukV1.Region())
        shown.name = region.name
        shown.districts = region.districts
        shown.archived = region.archived
        return shown
    }
}

extension SoukV1.Region: StampedMessage {}
