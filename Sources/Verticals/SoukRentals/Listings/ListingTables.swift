import SoukKit
import SoukMessages
import SoukStore

/// A listing as stored: its own record (`souk.store.v1.Listing`, without the id, version and
/// times, which the envelope holds) and its marketplace. RPCs answer with `ListingProjection`.
typealias ListingRecord = MarketRecord<SoukStoreV1.Listing>

/// Listings and the indexes every list and search reads. Non-unique entries end with the
/// listing's version 7 id, so a descending range is newest first.
enum ListingTable {
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

    static let table = marketTable(
        "listings", SoukStoreV1.Listing.self,
        indexes: [byOwner, byMarketplace, byDistrict, byFacet, byFacetRent, byWord, byWordRent, geo.index])
}

/// What a search of published listings can be narrowed to by its index range alone: every
/// published listing, one region, one type.
enum ListingFacet {
    static let any = "any"
    static func region(_ id: String) -> String { "region:\(id)" }
    static func type(_ type: SoukV1.ListingType) -> String { "type:\(type.rawValue)" }

    /// The facets of a listing: none unless it is published.
    static func of(_ listing: SoukStoreV1.Listing) -> [String] {
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
    static func liveFlags(_ listing: SoukStoreV1.Listing) -> [Bool] {
        listing.status == .archived ? [false] : [false, true]
    }

    static func rent(_ listing: SoukStoreV1.Listing) -> Int64 { listing.monthlyRent?.amountMinor ?? 0 }

    static func position(_ listing: SoukStoreV1.Listing) -> GeoPosition? {
        guard let location = listing.address?.location else { return nil }
        let position = GeoPosition(latitude: location.latitude, longitude: location.longitude)
        return position.isValid ? position : nil
    }

    /// Everyone sees published and rented listings; drafts and archived ones are their owner's
    /// and the admins'.
    static func isPublic(_ listing: SoukStoreV1.Listing) -> Bool {
        listing.status == .published || listing.status == .rented
    }
}

/// The words a listing is found by: those of its title and its address.
enum ListingText {
    /// The prefixes a published listing is indexed by (`SearchText.prefixes`); none otherwise.
    static func indexedPrefixes(_ listing: SoukStoreV1.Listing) -> [String] {
        guard listing.status == .published else { return [] }
        return SearchText.prefixes(of: words(listing))
    }

    /// The distinct normalized words of the title and the address (street, building, district,
    /// city).
    static func words(_ listing: SoukStoreV1.Listing) -> [String] {
        let address = listing.address ?? SoukV1.Address()
        return SearchText.distinctWords([listing.title, address.line1, address.line2, listing.district, address.city])
    }
}

/// What a caller sees of a stored listing: the contract's `Listing`, built field by field (an
/// allow-list: a field added to the stored record reaches no caller until a line here names
/// it). The lessor's summary and whether the caller saved it come from `ListingViews.view`.
enum ListingProjection {
    static func listing(_ record: StoredRecord<ListingRecord>) -> SoukV1.Listing {
        let listing = record.value.subject
        var shown = record.stamped(SoukV1.Listing())
        shown.ownerAccountID = listing.ownerAccountID
        shown.title = listing.title
        shown.description = listing.description
        shown.type = listing.type
        shown.address = listing.address
        shown.monthlyRent = listing.monthlyRent
        shown.depositMonths = listing.depositMonths
        shown.deposit = listing.deposit
        shown.features = listing.features
        shown.photoMediaIDs = listing.photoMediaIDs
        shown.areaSquareMeters = listing.areaSquareMeters
        shown.bedrooms = listing.bedrooms
        shown.bathrooms = listing.bathrooms
        shown.activeBookingID = listing.activeBookingID
        shown.rating = listing.rating
        shown.archiveTime = listing.archiveTime
        shown.regionID = listing.regionID
        shown.district = listing.district
        shown.status = listing.status
        shown.furnished = listing.furnished
        shown.parking = listing.parking
        return shown
    }
}

extension SoukV1.Listing: StampedMessage {}
