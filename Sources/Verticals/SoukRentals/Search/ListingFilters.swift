import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The filters of listing searches, checked once and applied to the records an index range
/// returns (the range itself narrows by the facet, `ListingFacet.of(filter)`).
struct ListingFilters: Sendable {
    let filter: SoukV1.ListingFilter

    init(_ filter: SoukV1.ListingFilter?, currency: String) throws {
        let filter = filter ?? SoukV1.ListingFilter()
        for (field, money) in [("filter.min_monthly_rent", filter.minMonthlyRent), ("filter.max_monthly_rent", filter.maxMonthlyRent)] {
            guard let money else { continue }
            guard money.currencyCode == currency else { throw RPCError.invalidField(field, "must be in \(currency)") }
            guard money.amountMinor >= 0 else { throw RPCError.invalidField(field, "must not be negative") }
        }
        if let low = filter.minMonthlyRent, let high = filter.maxMonthlyRent, low.amountMinor > high.amountMinor {
            throw RPCError.invalidField("filter.max_monthly_rent", "must not be below min_monthly_rent")
        }
        if !SoukV1.ListingType.allCases.contains(filter.type) {
            throw RPCError.invalidField("filter.type", "must be house, apartment or room")
        }
        if !filter.district.isEmpty, filter.regionID.isEmpty { throw RPCError.invalidField("filter.district", "needs filter.region_id") }
        if !filter.regionID.isEmpty, RecordID(filter.regionID) == nil { throw RPCError.invalidField("filter.region_id", "must be a UUID") }
        for (field, value) in [("min_bedrooms", filter.minBedrooms), ("min_bathrooms", filter.minBathrooms), ("min_area_square_meters", filter.minAreaSquareMeters)]
        where value < 0 {
            throw RPCError.invalidField("filter.\(field)", "must not be negative")
        }
        self.filter = filter
    }

    /// The facet whose index range holds every listing that can match.
    var facet: String { ListingFacet.of(filter) }

    /// Part of the page-token stamp: the filters the token was made with.
    var stamp: String { filter.encoded().map(String.init).joined(separator: ",") }

    func matches(_ listing: SoukStoreV1.Listing) -> Bool {
        guard listing.status == .published else { return false }
        let rent = ListingRules.rent(listing)
        if let low = filter.minMonthlyRent, rent < low.amountMinor { return false }
        if let high = filter.maxMonthlyRent, rent > high.amountMinor { return false }
        if filter.type != .unspecified, listing.type != filter.type { return false }
        if !filter.regionID.isEmpty, listing.regionID != filter.regionID { return false }
        if !filter.district.isEmpty, listing.district != filter.district { return false }
        if listing.bedrooms < filter.minBedrooms || listing.bathrooms < filter.minBathrooms { return false }
        if listing.areaSquareMeters < filter.minAreaSquareMeters { return false }
        if filter.furnished, !listing.furnished { return false }
        if filter.parking, !listing.parking { return false }
        return filter.features.allSatisfy(listing.features.contains)
    }
}
