import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukOrders

/// The couriers table stored `souk.v1.CourierStatus` before couriers had a record of their own
/// (`souk.store.v1.CourierStatus`, which keeps its field numbers): such records still read, and
/// the projection sends them as the contract has them.
@Suite struct StoredCourierFormatTests {
    /// An online driver carrying a delivery, as the previous format wrote it (its codec: format
    /// byte 1, the marketplace id, then the souk.v1.CourierStatus's bytes, made with
    /// `protoc --encode=souk.v1.CourierStatus` from the contract before this change).
    static let previousFormat = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d3565366637613862396330644410011a12098638d6c56d34
        394011dfe00b93a9a24b40220608809cb8d8062a2430313930663361342d303030302d373030302d383030302d3030303030
        30303030306437
        """)

    @Test func aCourierStatusWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousFormat.withUnsafeBytes { try CourierTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let status = value.status
        #expect(status.online && status.location == SoukV1.GeoPoint(latitude: 25.2048, longitude: 55.2708))
        #expect(status.locationTime?.seconds == 1_796_083_200 && status.activeDeliveryID == "0190f3a4-0000-7000-8000-0000000000d7")
        #expect(!value.isAvailable)
        let time = StoreTime(microsecondsSinceEpoch: 1_796_083_260_000_000)
        let record = StoredRecord(id: RecordID.generate(), version: 7, createdAt: time, updatedAt: time, value: value)
        let shown = CourierProjection.status(record)
        #expect(shown.courierAccountID == record.id.description && shown.version == 7 && shown.updateTime == Timestamp(time))
        #expect(shown.online && shown.location == status.location && shown.locationTime == status.locationTime)
        #expect(shown.activeDeliveryID == status.activeDeliveryID)
    }
}
