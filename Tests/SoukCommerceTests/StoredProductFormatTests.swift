import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukShops

/// The products table stored `souk.v1.Product` before products had a record of their own
/// (`souk.store.v1.Product`, which keeps its field numbers): such records still read, and the
/// projection sends them as the contract has them.
@Suite struct StoredProductFormatTests {
    /// An archived, reviewed wine with no bottle left, as the previous format wrote it (its codec:
    /// format byte 1, the marketplace id, then the souk.v1.Product's bytes, made with
    /// `protoc --encode=souk.v1.Product` from the contract before this change).
    static let previousFormat = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d3565366637613862396330648c02120e4261726265726120
        6427416c62611a1c426172626572612066726f6d20506965646d6f6e742c20323032312e2227536f7572206368657272792c
        20706c756d20616e64206120746f756368206f662073706963652e2a1b70697a7a612c20746f6d61746f2070617374612c20
        73616c616d6930013a07426172626572614208506965646d6f6e7448e50f522430313930663361342d303030302d37303030
        2d383030302d3030303030303030303065315a08089e4612034d5952680170047a1454686520686f757365206661766f7572
        6974652e82012430313930663361342d303030302d373030302d383030302d30303030303030303030633388010192010608
        809cb8d806b00101
        """)

    @Test func aProductWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousFormat.withUnsafeBytes { try ProductTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let wine = value.subject
        #expect(wine.name == "Barbera d'Alba" && wine.category == .red && wine.grape == "Barbera" && wine.region == "Piedmont" && wine.vintage == 2021)
        #expect(wine.description == "Barbera from Piedmont, 2021." && wine.tastingNotes == "Sour cherry, plum and a touch of spice.")
        #expect(wine.pairings == "pizza, tomato pasta, salami" && wine.imageMediaIDs == ["0190f3a4-0000-7000-8000-0000000000e1"])
        #expect(wine.price == SoukV1.Money(amountMinor: 8990, currencyCode: "MYR") && wine.stock == 0 && wine.available && wine.featured)
        #expect(wine.expertRating == 4 && wine.expertReview == "The house favourite." && wine.reviewerAccountID == "0190f3a4-0000-7000-8000-0000000000c3")
        #expect(wine.archived && wine.archiveTime?.seconds == 1_796_083_200)
        let time = StoreTime(microsecondsSinceEpoch: 1_796_083_200_000_000)
        let record = StoredRecord(id: RecordID.generate(), version: 6, createdAt: time, updatedAt: time, value: value)
        let shown = ProductProjection.product(record)
        #expect(shown.id == record.id.description && shown.version == 6 && shown.createTime == Timestamp(time))
        #expect(shown.name == wine.name && shown.price == wine.price && shown.expertReview == wine.expertReview && shown.featured)
        // Nothing in stock: shown unavailable, though the staff's switch is on.
        #expect(!shown.available && shown.stock == 0 && shown.archived && shown.archiveTime == wine.archiveTime)
    }
}
