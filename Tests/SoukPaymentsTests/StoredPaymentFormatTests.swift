import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukPayments

/// The payments table stored `souk.v1.Payment` before payments had a record of their own
/// (`souk.store.v1.Payment`, which keeps its field numbers): such records still read, and the
/// projection sends them as the contract has them.
@Suite struct StoredPaymentFormatTests {
    /// A card payment of a rental bill, refunded in part, as the previous format wrote it (format
    /// byte 1, the marketplace id, then the souk.v1.Payment's bytes, made with
    /// `protoc --encode=souk.v1.Payment` from the contract before this change).
    static let previousFormat = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064cd0212280812122430313930
        663361342d303030302d373030302d383030302d3030303030303030303062311a2430313930663361342d303030302d3730
        30302d383030302d303030303030303030306535222430313930663361342d303030302d373030302d383030302d30303030
        3030303030306332280130053a0a0890898b041203564e4442090890e5221203564e444a740a2430313930663361342d3030
        30302d373030302d383030302d30303030303030303030663912090890e5221203564e441a135761746572206d6574657220
        6d697372656164222430313930663361342d303030302d373030302d383030302d3030303030303030303061642a0608808c
        fdd9065204766973615a0434323432620b73696d5f63685f3966326372220a0908ccd80f1203564e44120908d4931a120356
        4e441a0a08f09ce1031203564e449a01060880e9f7d906
        """)

    @Test func aPaymentWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousFormat.withUnsafeBytes { try PaymentTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let payment = value.subject
        #expect(payment.target == SoukV1.ResourceRef(type: .bill, id: "0190f3a4-0000-7000-8000-0000000000b1"))
        #expect(payment.payerAccountID == "0190f3a4-0000-7000-8000-0000000000e5" && payment.payeeAccountID == "0190f3a4-0000-7000-8000-0000000000c2")
        #expect(payment.method == .card && payment.status == .partiallyRefunded)
        #expect(payment.amount?.amountMinor == 8_570_000 && payment.refundedAmount?.amountMinor == 570_000 && payment.amount?.currencyCode == "VND")
        #expect(payment.refunds.count == 1 && payment.refunds.first?.reason == "Water meter misread" && payment.refunds.first?.createTime?.seconds == 1_799_308_800)
        #expect(payment.cardBrand == "visa" && payment.cardLast4 == "4242" && payment.gatewayReference == "sim_ch_9f2c")
        #expect(payment.split?.payeeShare?.amountMinor == 7_884_400 && payment.split?.providerFee?.amountMinor == 257_100)
        #expect(payment.succeedTime?.seconds == 1_799_222_400 && payment.failureReason.isEmpty && payment.payoutReason.isEmpty)
        let time = StoreTime(microsecondsSinceEpoch: 1_799_308_800_000_000)
        let record = StoredRecord(id: RecordID.generate(), version: 3, createdAt: time, updatedAt: time, value: value)
        let shown = PaymentProjection.payment(record)
        #expect(shown.id == record.id.description && shown.version == 3 && shown.updateTime?.seconds == 1_799_308_800)
        #expect(shown.target == payment.target && shown.method == .card && shown.status == .partiallyRefunded && shown.refunds == payment.refunds)
        #expect(shown.amount == payment.amount && shown.refundedAmount == payment.refundedAmount && shown.split == payment.split)
        #expect(shown.cardLast4 == "4242" && shown.gatewayReference == "sim_ch_9f2c" && shown.succeedTime == payment.succeedTime)
        #expect(shown.availableTransitions.isEmpty)
    }
}
