import Foundation
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The checks on a listing's fields a lessor writes, and how they are copied onto the stored
/// listing.
enum ListingValidation {
    /// Every path a create reads and an update may name.
    static let maskPaths: Set<String> = [
        "title", "description", "type", "address", "region_id", "district", "monthly_rent", "deposit_months", "features",
        "photo_media_ids", "area_square_meters", "bedrooms", "bathrooms", "furnished", "parking",
    ]

    /// The highest monthly rent, in minor units (1 trillion dong): no deposit or bill can overflow.
    static let maxRentMinor: Int64 = 1_000_000_000_000

    /// Records in `checks` what is wrong with the fields of `paths` that need no store read.
    /// The region, the district and the photos are checked in the writing transaction
    /// (`checkStored`).
    static func check(_ listing: SoukV1.Listing, paths: Set<String>, marketplace: SoukV1.Marketplace, into checks: inout FieldChecks) throws {
        if paths.contains("title"), let problem = RentalsText.problem(listing.title, limit: 120) { checks.add("listing.title", problem) }
        if paths.contains("description") {
            checks.require(listing.description.count <= 5000, "listing.description", "must be at most 5000 characters")
        }
        if paths.contains("type") {
            let known = listing.type != .unspecified && SoukV1.ListingType.allCases.contains(listing.type)
            checks.require(known, "listing.type", "must be house, apartment or room")
        }
        if paths.contains("address") { try checkAddress(listing.address, into: &checks) }
        if paths.contains("monthly_rent") {
            let rent = listing.monthlyRent ?? SoukV1.Money()
            if rent.currencyCode != marketplace.currencyCode {
                checks.add("listing.monthly_rent", "must be in \(marketplace.currencyCode)")
            } else {
                checks.require(rent.amountMinor > 0 && rent.amountMinor <= maxRentMinor, "listing.monthly_rent", "must be above 0 and at most \(maxRentMinor)")
            }
        }
        if paths.contains("deposit_months") {
            let most = maxDepositMonths(marketplace)
            checks.require((1...most).contains(listing.depositMonths), "listing.deposit_months", "must be from 1 to \(most) months of rent")
        }
        for (path, value, limit) in [
            ("area_square_meters", listing.areaSquareMeters, Int32(100_000)), ("bedrooms", listing.bedrooms, 50), ("bathrooms", listing.bathrooms, 50),
        ] where paths.contains(path) {
            checks.require((0...limit).contains(value), "listing.\(path)", "must be from 0 to \(limit)")
        }
        if paths.contains("features") {
            checks.require(listing.features.count <= 30, "listing.features", "must be at most 30")
            for (index, feature) in listing.features.enumerated() where !isTag(feature) {
                checks.add("listing.features[\(index)]", "must be 1 to 40 lower-case letters, digits or _ (\"air_conditioning\")")
            }
        }
        if paths.contains("photo_media_ids") {
            checks.require(listing.photoMediaIDs.count <= 20, "listing.photo_media_ids", "must be at most 20")
        }
    }

    /// Deposits range from 1 to the marketplace's `max_deposit_months` (2 when unset).
    static func maxDepositMonths(_ marketplace: SoukV1.Marketplace) -> Int32 {
        let most = marketplace.settings?.rentals?.maxDepositMonths ?? 0
        return most > 0 ? most : 2
    }

    private static func checkAddress(_ address: SoukV1.Address?, into checks: inout FieldChecks) throws {
        guard let address else { return checks.add("listing.address", "is required") }
        if let problem = RentalsText.problem(address.line1, limit: 200) { checks.add("listing.address.line1", problem) }
        for (field, text) in [("line2", address.line2), ("city", address.city)] where text.count > 200 {
            checks.add("listing.address.\(field)", "must be at most 200 characters")
        }
        try checks.check { _ = try SearchArea.point(address.location, field: "listing.address.location") }
    }

    private static func isTag(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 40 && text.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// Copies the fields of `paths` from `input` onto `listing`, and the deposit the server
    /// derives (rent × months).
    static func apply(_ paths: some Sequence<String>, from input: SoukV1.Listing, to listing: inout SoukStoreV1.Listing) {
        for path in paths {
            switch path {
            case "title": listing.title = input.title
            case "description": listing.description = input.description
            case "type": listing.type = input.type
            case "address":
                var address = input.address ?? SoukV1.Address()
                // The district is the listing's; the phone is the lessor's account's, never shown.
                address.phone = ""
                listing.address = address
            case "region_id": listing.regionID = input.regionID
            case "district": listing.district = input.district
            case "monthly_rent": listing.monthlyRent = input.monthlyRent
            case "deposit_months": listing.depositMonths = input.depositMonths
            case "features": listing.features = Array(Set(input.features)).sorted()
            case "photo_media_ids": listing.photoMediaIDs = input.photoMediaIDs
            case "area_square_meters": listing.areaSquareMeters = input.areaSquareMeters
            case "bedrooms": listing.bedrooms = input.bedrooms
            case "bathrooms": listing.bathrooms = input.bathrooms
            case "furnished": listing.furnished = input.furnished
            default: listing.parking = input.parking
            }
        }
        let rent = listing.monthlyRent ?? SoukV1.Money()
        listing.deposit = SoukV1.Money(amountMinor: rent.amountMinor * Int64(listing.depositMonths), currencyCode: rent.currencyCode)
    }

    /// The checks that read the store, in the writing transaction: the region and district, and
    /// the photos, which must be images the owner uploaded (attached to the listing; photos it
    /// no longer names are detached).
    static func checkStored(
        _ listing: StoredRecord<ListingRecord>, previousPhotos: [String], transaction: Transaction
    ) throws {
        let subject = listing.value.subject
        try Regions.requireDistrict(
            subject.regionID, subject.district, marketplaceID: listing.value.marketplaceID, field: "listing.region_id",
            districtField: "listing.district", transaction: transaction)
        guard let market = RecordID(listing.value.marketplaceID) else { return }
        let referrer = MediaReferrer(type: .listing, id: listing.id.description, field: "photo_media_ids")
        for (index, media) in subject.photoMediaIDs.enumerated() {
            try MediaReferences.attach(
                media, field: "listing.photo_media_ids[\(index)]", to: referrer, visibility: .marketplace, marketplaceID: market,
                uploader: RecordID(subject.ownerAccountID), imagesOnly: true, in: transaction)
        }
        for media in Set(previousPhotos).subtracting(subject.photoMediaIDs) {
            try MediaReferences.detach(media, from: referrer, in: transaction)
        }
    }
}
