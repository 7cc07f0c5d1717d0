import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

/// The kit's shared tables stored contract messages before they had records of their own
/// (`souk.store.v1.AuditEntry`, `souk.store.v1.MailMessage`, `souk.store.v1.FeedbackEntry`,
/// which keep their field numbers):
/// such records still read, and the projections send them as the contract has them.
@Suite struct StoredKitRecordFormatTests {
    static let marketplaceID = "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d"
    static let time = StoreTime(microsecondsSinceEpoch: 1_799_222_400_000_000)

    /// A customer's cancellation of an order as the previous format wrote it (format byte 1, the
    /// marketplace id, then the souk.v1.AuditEntry's bytes, made with
    /// `protoc --encode=souk.v1.AuditEntry` from the contract before this change).
    static let previousAuditEntry = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064b70112280809122430313930
        663361342d303030302d373030302d383030302d3030303030303030303061371a2430313930663361342d303030302d3730
        30302d383030302d30303030303030303030653520012a1a736f756b2e76312e4f72646572732f43616e63656c4f72646572
        32144f524445525f5354415455535f50454e44494e473a164f524445525f5354415455535f43414e43454c4c4544420d6f72
        64657265642074776963654803520863616e63656c2d31
        """)

    @Test func anAuditEntryWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousAuditEntry.withUnsafeBytes { try AuditTable.table.codec.decode($0) }
        #expect(value.marketplaceID == Self.marketplaceID)
        let entry = value.subject
        #expect(entry.resource == SoukV1.ResourceRef(type: .order, id: "0190f3a4-0000-7000-8000-0000000000a7"))
        #expect(entry.actorAccountID == "0190f3a4-0000-7000-8000-0000000000e5" && entry.actorRole == .customer)
        #expect(entry.action == "souk.v1.Orders/CancelOrder" && entry.reason == "ordered twice" && entry.requestID == "cancel-1")
        #expect(entry.fromState == "ORDER_STATUS_PENDING" && entry.toState == "ORDER_STATUS_CANCELLED" && entry.resourceVersion == 3)
        let record = StoredRecord(id: RecordID.generate(), version: 1, createdAt: Self.time, updatedAt: Self.time, value: value)
        let shown = AuditProjection.entry(record)
        #expect(shown.id == record.id.description && shown.createTime?.seconds == 1_799_222_400)
        #expect(shown.resource == entry.resource && shown.actorRole == .customer && shown.toState == "ORDER_STATUS_CANCELLED")
        #expect(shown.resourceVersion == 3 && shown.requestID == "cancel-1" && shown.reason == "ordered twice")
    }

    /// A sent password-reset mail as the previous format wrote it (format byte 1, the marketplace
    /// id, then the souk.v1.MailMessage's bytes, made with `protoc --encode=souk.v1.MailMessage`
    /// from the contract before this change).
    static let previousMail = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d3565366637613862396330647410011a164d61692e4e6775
        79656e404578616d706c652e636f6d222430313930663361342d303030302d373030302d383030302d303030303030303030
        3065352a13526573657420796f75722070617373776f72643211596f757220636f64653a2034383239313338024002620608
        80e9f7d906
        """)

    @Test func aMailWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousMail.withUnsafeBytes { try MailTable.table.codec.decode($0) }
        #expect(value.marketplaceID == Self.marketplaceID)
        let mail = value.subject
        #expect(mail.kind == .passwordReset && mail.status == .sent && mail.attempts == 2 && mail.lastError.isEmpty)
        #expect(mail.toAddress == "Mai.Nguyen@Example.com" && mail.accountID == "0190f3a4-0000-7000-8000-0000000000e5")
        #expect(mail.subject == "Reset your password" && mail.body == "Your code: 482913" && mail.sendTime?.seconds == 1_799_222_400)
        let record = StoredRecord(id: RecordID.generate(), version: 3, createdAt: Self.time, updatedAt: Self.time, value: value)
        let operatorView = MailProjection.message(record, revealSecrets: true)
        #expect(operatorView.id == record.id.description && operatorView.version == 3 && operatorView.body == "Your code: 482913")
        #expect(operatorView.toAddress == mail.toAddress && operatorView.status == .sent && operatorView.sendTime == mail.sendTime)
        #expect(MailProjection.message(record, revealSecrets: false).body == MailOutbox.redacted)
    }

    /// A customer's answered rating of a food order's restaurant as the previous format wrote it
    /// (format byte 1, the marketplace id, then the souk.v1.FeedbackEntry's bytes, made with
    /// `protoc --encode=souk.v1.FeedbackEntry` from the contract before this change).
    static let previousFeedback = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064c60112280809122430313930
        663361342d303030302d373030302d383030302d3030303030303030303061371a2430313930663361342d303030302d3730
        30302d383030302d30303030303030303030653530043a105761726d20616e64206f6e2074696d65423a0a0a5468616e6b20
        796f7521122430313930663361342d303030302d373030302d383030302d3030303030303030303061641a060880e9f7d906
        722430313930663361342d303030302d373030302d383030302d303030303030303030306433
        """)

    @Test func aFeedbackEntryWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousFeedback.withUnsafeBytes { try FeedbackTable.table.codec.decode($0) }
        #expect(value.marketplaceID == Self.marketplaceID)
        let entry = value.subject
        #expect(entry.subject == SoukV1.ResourceRef(type: .order, id: "0190f3a4-0000-7000-8000-0000000000a7"))
        #expect(entry.authorAccountID == "0190f3a4-0000-7000-8000-0000000000e5" && entry.ratedAccountID.isEmpty)
        #expect(entry.restaurantID == "0190f3a4-0000-7000-8000-0000000000d3" && entry.stars == 4 && entry.comment == "Warm and on time")
        #expect(entry.answer?.text == "Thank you!" && entry.answer?.answerTime?.seconds == 1_799_222_400)
        let record = StoredRecord(id: RecordID.generate(), version: 2, createdAt: Self.time, updatedAt: Self.time, value: value)
        let shown = FeedbackProjection.entry(record)
        #expect(shown.id == record.id.description && shown.version == 2 && shown.createTime?.seconds == 1_799_222_400)
        #expect(shown.subject == entry.subject && shown.restaurantID == entry.restaurantID && shown.stars == 4)
        #expect(shown.comment == entry.comment && shown.answer == entry.answer && shown.author == nil && shown.rated == nil)
    }
}
