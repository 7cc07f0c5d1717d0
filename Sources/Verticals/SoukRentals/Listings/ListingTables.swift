import SoukKit
import SoukMessages
import SoukStore

/// A listing as stored.
public typealias ListingRecord = MarketRecord<SoukV1.Listing>

/// Listings and the indexes every list and search reads. Non-unique entries end with the
/// listing's version 7 id, so a descending range is newest first.
public enum ListingTable {
    /// (marketplace, owner, live): a lessor's listings; `live` entries leave out archived ones.
    static let byOwner = Index<ListingRecord>.nonUnique("listings.owner") { record in
        ListingRules.liveFlags(record.subject).map { [.string(record.marketplaceID), .string(record.subject.ownerAccountID), .bool($0)] }
    }
    /// (marketplace, live): every listing, for admins.
    static let byMarketplace = Index<ListingRecord>.nonUnique("listings.marketplace") { record in
        ListingRules.liveFlags(record.subject).map { [.string(record.marketplaceID), .bool($0)] }
    }
    /// (marketplace, region, district): whether a region or district is in use.
    static let byDistrict = Index<ListingRecord>.nonUnique("listings.district") { record in
        [[.string(record.marketplaceID), .string(record.subject.regionID), .string(record.subject.district)]]
    }
    /// Published listings (marketplace, facet), newest first in a descending range.
    static let byFacet = Index<ListingRecord>.nonUnique("listings.facet") { record in
        ListingFacet.of(record.subject).map { [.string(record.marketplaceID), .string($0)] }
    }
    /// Published listings (marketplace, facet, rent).
    static let byFacetRent = Index<ListingRecord>.nonUnique("listings.facet_rent") { record in
        ListingFacet.of(record.subject).map { [.string(record.marketplaceID), .string($0), .int(ListingRules.rent(record.subject))] }
    }
    /// Published listings (marketplace, word prefix): one entry per prefix of each normalized
    /// word of the title and the address (`ListingText`), so a query word finds every word it
    /// begins in one range; a listing's entries depend on its own text only.
    static let byWord = Index<ListingRecord>.nonUnique("listings.word_prefix") { record in
        ListingText.indexedPrefixes(record.subject).map { [.string(record.marketplaceID), .string($0)] }
    }
    /// Published listings (marketplace, word prefix, rent).
    static let byWordRent = Index<ListingRecord>.nonUnique("listings.word_prefix_rent") { record in
        let rent = ListingRules.rent(record.subject)
        return ListingText.indexedPrefixes(record.subject).map { [.string(record.marketplaceID), .string($0), .int(rent)] }
    }
    /// Published listings on the map, per (marketplace, facet).
    /// On the finer grid: a city's listings are dense (hundreds a square kilometre at a million),
    /// and a nearby query reads whole cells.
    static let geo = GeoIndex<ListingRecord>("listings.geo", cellSize: .meters153) { stored in
        let listing = stored.value.subject
        guard let position = ListingRules.position(listing) else { return [] }
        return ListingFacet.of(listing).map { GeoEntry(scope: [.string(stored.value.marketplaceID), .string($0)], position: position) }
    }

    /// Not converted yet: stores the contract message `souk.v1.Listing` itself, not a `souk.store.v1` record (ADDING-A-SERVICE.md, "Stored records are not wire messages").
    public static let table = marketTable(
        "listings", SoukV1.Listing.self,
        indexes: [byOwner, byMarketplace, byDistrict, byFacet, byFacetRent, byWord, byWordRent, geo.index])
}

/// What a search of published listings can be narrowed to by its index range alone: every
/// published listing, one region, one type.
enum ListingFacet {
    static let any = "any"
    static func region(_ id: String) -> String { "region:\(id)" }
    static func type(_ type: SoukV1.ListingType) -> String { "type:\(type.rawValue)" }

    /// The facets of a listing: none unless it is published.
    static func of(_ listing: SoukV1.Listing) -> [String] {
        guard listing.status == .published else { return [] }
        var facets = [any, region(listing.regionID)]
        if listing.type != .unspecified { facets.append(type(listing.type)) }
        return facets
    }

    /// The narrowest facet of a filter: its region, else its type, else every listing.
    static func of(_ filter: SoukV1.ListingFilter) -> String {
        if !filter.regionID.isEmpty { return region(filter.regionID) }
        if filter.type != .unspecified { return type(filter.type) }
        return any
    }
}

/// The rules on a listing's fields that several places read.
enum ListingRules {
    /// `[false]` for an archived listing, `[false, true]` otherwise: lists that hide archived
    /// listings read the `true` entries.
    static func liveFlags(_ listing: SoukV1.Listing) -> [Bool] {
        listing.status == .archived ? [false] : [false, true]
    }

    static func rent(_ listing: SoukV1.Listing) -> Int64 { listing.monthlyRent?.amountMinor ?? 0 }

    static func position(_ listing: SoukV1.Listing) -> GeoPosition? {
        guard let location = listing.address?.location else { return nil }
        let position = GeoPosition(latitude: location.latitude, longitude: location.longitude)
        return position.isValid ? position : nil
    }

    /// Everyone sees published and rented listings; drafts and archived ones are their owner's
    /// and the admins'.
    static func isPublic(_ listing: SoukV1.Listing) -> Bool {
        listing.status == .published || listing.status == .rented
    }
}

/// The words a listing is found by: those of its title and its address.
enum ListingText {
    /// The prefixes a published listing is indexed by (`SearchText.prefixes`); none otherwise.
    static func indexedPrefixes(_ listing: SoukV1.Listing) -> [String] {
        guard listing.status == .published else { return [] }
        return SearchText.prefixes(of: words(listing))
    }

    /// The distinct normalized words of the title and the address (street, building, district,
    /// city).
    static func words(_ listing: SoukV1.Listing) -> [String] {
        let address = listing.address ?? SoukV1.Address()
        return SearchText.distinctWords([listing.title, address.line1, address.line2, listing.district, address.city])
    }
}

extension SoukV1.Listing: StampedMessage {}
