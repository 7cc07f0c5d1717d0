import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukNotifications

/// The notifications table stored `souk.v1.Notification` before notifications had a record of
/// their own (`souk.store.v1.Notification`, which keeps its field numbers): such records still
/// read, and the projection sends them as the contract has them.
@Suite struct StoredNotificationFormatTests {
    /// A read notification of a shipped order as the previous format wrote it (format byte 1, the
    /// marketplace id, then the souk.v1.Notification's bytes, made with
    /// `protoc --encode=souk.v1.Notification` from the contract before this change).
    static let previousFormat = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d3565366637613862396330648f0112243031393066336134
        2d303030302d373030302d383030302d303030303030303030306535180120012a124f726465722031303432207368697070
        65643219596f7572206f72646572206973206f6e20697473207761792e3a280809122430313930663361342d303030302d37
        3030302d383030302d30303030303030303030613740014a060880e9f7d9065011
        """)

    @Test func aNotificationWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousFormat.withUnsafeBytes { try NotificationTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let note = value.subject
        #expect(note.accountID == "0190f3a4-0000-7000-8000-0000000000e5" && note.kind == .order && note.category == .activity)
        #expect(note.title == "Order 1042 shipped" && note.body == "Your order is on its way.")
        #expect(note.subject == SoukV1.ResourceRef(type: .order, id: "0190f3a4-0000-7000-8000-0000000000a7"))
        #expect(note.read && note.readTime?.seconds == 1_799_222_400 && note.sequence == 17)
        let time = StoreTime(microsecondsSinceEpoch: 1_799_200_000_000_000)
        let record = StoredRecord(id: RecordID.generate(), version: 2, createdAt: time, updatedAt: time, value: value)
        let shown = NotificationProjection.notification(record)
        #expect(shown.id == record.id.description && shown.createTime?.seconds == 1_799_200_000)
        #expect(shown.accountID == note.accountID && shown.kind == .order && shown.category == .activity && shown.subject == note.subject)
        #expect(shown.title == note.title && shown.body == note.body && shown.read && shown.readTime == note.readTime && shown.sequence == 17)
    }
}
