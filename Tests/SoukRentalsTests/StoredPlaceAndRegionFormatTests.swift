import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukRentals

/// The regions and places tables stored `souk.v1.Region` and `souk.v1.Place` before they had
/// records of their own (`souk.store.v1.Region` and `Place`, which keep their field numbers):
/// such records still read, and the projections send them as the contract has them.
@Suite struct StoredPlaceAndRegionFormatTests {
    static let time = StoreTime(microsecondsSinceEpoch: 1_796_083_200_000_000)

    /// An archived region as the previous format wrote it (its codec: format byte 1, the
    /// marketplace id, then the souk.v1.Region's bytes, made with `protoc --encode=souk.v1.Region`
    /// from the contract before this change). CreateRegion stored the request's region as it
    /// came, so it holds the id its client sent ("client-chosen"), which the envelope's replaces.
    static let previousRegion = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064550a0d636c69656e742d6368
        6f73656e121b5468c3a06e68207068e1bb912048e1bb93204368c3ad204d696e681a085175e1baad6e20311a0d42c3ac6e68
        205468e1baa16e681a0c5468e1bba720c490e1bba9632001
        """)

    /// A market as the previous format wrote it (`protoc --encode=souk.v1.Place`, the same codec).
    static let previousPlace = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d3565366637613862396330645512124368e1bba32042e1ba
        bf6e205468c3a06e681802223d22134cc3aa204ce1bba3692c205175e1baad6e2031320e48e1bb93204368c3ad204d696e68
        4a02564e521209ec51b81e858b254011e9263108acac5a40
        """)

    @Test func aRegionWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousRegion.withUnsafeBytes { try RegionTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        #expect(value.subject.name == "Thành phố Hồ Chí Minh" && value.subject.districts == ["Quận 1", "Bình Thạnh", "Thủ Đức"])
        #expect(value.subject.archived)
        let record = StoredRecord(id: RecordID.generate(), version: 3, createdAt: Self.time, updatedAt: Self.time, value: value)
        let shown = RegionProjection.region(record)
        #expect(shown.id == record.id.description && shown.version == 3 && shown.createTime == Timestamp(Self.time))
        #expect(shown.name == value.subject.name && shown.districts == value.subject.districts && shown.archived)
    }

    @Test func aPlaceWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousPlace.withUnsafeBytes { try PlaceTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let place = value.subject
        #expect(place.name == "Chợ Bến Thành" && place.category == .market)
        #expect(place.address?.line1 == "Lê Lợi, Quận 1" && place.address?.countryCode == "VN")
        #expect(place.address?.location == SoukV1.GeoPoint(latitude: 10.7725, longitude: 106.698))
        let record = StoredRecord(id: RecordID.generate(), version: 1, createdAt: Self.time, updatedAt: Self.time, value: value)
        let shown = PlaceProjection.place(record)
        #expect(shown.id == record.id.description && shown.version == 1 && shown.updateTime == Timestamp(Self.time))
        #expect(shown.name == place.name && shown.category == .market && shown.address == place.address)
    }
}
