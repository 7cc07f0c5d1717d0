import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukIdentity

/// The addresses table stored `souk.v1.SavedAddress` before addresses had a record of their own
/// (`souk.store.v1.SavedAddress`, which keeps its field numbers): such records still read, and
/// the projection sends them as the contract has them.
@Suite struct StoredAddressFormatTests {
    /// An archived address as the previous format wrote it (format byte 1, the marketplace id,
    /// then the souk.v1.SavedAddress's bytes, made with `protoc --encode=souk.v1.SavedAddress`
    /// from the contract before this change).
    static let previousFormat = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064940112243031393066336134
        2d303030302d373030302d383030302d3030303030303030303065351a620a04486f6d65120a4d6169204e677579656e1a0c
        2b383439303132333435363722113132204c79205468756f6e67204b696574320548616e6f694a02564e52120983c0caa145
        063540114b598638d6755a405a0e4761746520636f64652031323334280132060880e9f7d906
        """)

    @Test func anAddressWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousFormat.withUnsafeBytes { try AddressTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let saved = value.subject
        #expect(saved.accountID == "0190f3a4-0000-7000-8000-0000000000e5" && !saved.isDefault && saved.archived)
        #expect(saved.archiveTime?.seconds == 1_799_222_400)
        let address = try #require(saved.address)
        #expect(address.label == "Home" && address.recipientName == "Mai Nguyen" && address.phone == "+84901234567")
        #expect(address.line1 == "12 Ly Thuong Kiet" && address.city == "Hanoi" && address.countryCode == "VN")
        #expect(address.location?.latitude == 21.0245 && address.location?.longitude == 105.8412 && address.deliveryNotes == "Gate code 1234")
        let time = StoreTime(microsecondsSinceEpoch: 1_799_222_400_000_000)
        let record = StoredRecord(id: RecordID.generate(), version: 5, createdAt: time, updatedAt: time, value: value)
        let shown = AddressProjection.address(record)
        #expect(shown.id == record.id.description && shown.version == 5 && shown.updateTime?.seconds == 1_799_222_400)
        #expect(shown.accountID == saved.accountID && shown.address == address && shown.archived && !shown.isDefault)
        #expect(shown.archiveTime == saved.archiveTime)
    }
}
