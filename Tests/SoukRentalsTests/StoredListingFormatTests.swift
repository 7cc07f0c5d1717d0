import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukRentals

/// The listings table stored `souk.v1.Listing` before listings had a record of their own
/// (`souk.store.v1.Listing`, which keeps its field numbers): such records still read, and the
/// projection sends them as the contract has them.
@Suite struct StoredListingFormatTests {
    /// A rented listing as the previous format wrote it (its codec: format byte 1, the marketplace
    /// id, then the souk.v1.Listing's bytes, made with `protoc --encode=souk.v1.Listing` from the
    /// contract before this change), with a lessor summary and `saved`, which the store no longer
    /// keeps.
    static let previousFormat = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064920312243031393066336134
        2d303030302d373030302d383030302d3030303030303030303063321a2e0a2430313930663361342d303030302d37303030
        2d383030302d30303030303030303030633212064d616920542e221553747564696f206e65617220486f616e204b69656d2a
        265175696574207374726565742c2035206d696e757465732066726f6d20746865206c616b652e30023a2c220b3132204861
        6e6720426169320548616e6f694a02564e52120983c0caa14506354011c3f5285c8f765a404a0a0880a4e8031203564e4450
        025a0a0880c8d0071203564e4462106169725f636f6e646974696f6e696e676204776966696a2430313930663361342d3030
        30302d373030302d383030302d303030303030303030306431702378018001018a012430313930663361342d303030302d37
        3030302d383030302d303030303030303030306237920105080210c203c2012430313930663361342d303030302d37303030
        2d383030302d303030303030303030306139ca010c486fc3a06e204b69e1babf6dd00103d80101e80101
        """)

    @Test func aListingWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousFormat.withUnsafeBytes { try ListingTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let listing = value.subject
        #expect(listing.ownerAccountID == "0190f3a4-0000-7000-8000-0000000000c2" && listing.title == "Studio near Hoan Kiem")
        #expect(listing.status == .rented && listing.type == .apartment && listing.activeBookingID == "0190f3a4-0000-7000-8000-0000000000b7")
        #expect(listing.address?.city == "Hanoi" && listing.address?.location?.latitude == 21.0245 && listing.district == "Hoàn Kiếm")
        #expect(listing.monthlyRent?.amountMinor == 8_000_000 && listing.depositMonths == 2 && listing.deposit?.amountMinor == 16_000_000)
        #expect(listing.features == ["air_conditioning", "wifi"] && listing.photoMediaIDs == ["0190f3a4-0000-7000-8000-0000000000d1"])
        #expect(listing.areaSquareMeters == 35 && listing.bedrooms == 1 && listing.bathrooms == 1 && listing.furnished && !listing.parking)
        #expect(listing.rating == SoukV1.RatingSummary(count: 2, averageHundredths: 450) && listing.regionID == "0190f3a4-0000-7000-8000-0000000000a9")
        let time = StoreTime(microsecondsSinceEpoch: 1_796_083_200_000_000)
        let record = StoredRecord(id: RecordID.generate(), version: 5, createdAt: time, updatedAt: time, value: value)
        let shown = ListingProjection.listing(record)
        #expect(shown.id == record.id.description && shown.version == 5 && shown.status == .rented)
        #expect(shown.address == listing.address && shown.rating == listing.rating && shown.deposit == listing.deposit)
        #expect(shown.lessor == nil && !shown.saved)
    }
}
