import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukRentals

/// The rental_bills table stored `souk.v1.Bill` before bills had a record of their own
/// (`souk.store.v1.Bill`, which keeps its field numbers): such records still read, and the
/// projection sends them as the contract has them.
@Suite struct StoredBillFormatTests {
    /// A paid monthly bill, marked overdue before it was paid, as the previous format wrote it
    /// (its codec: format byte 1, the marketplace id, then the souk.v1.Bill's bytes, made with
    /// `protoc --encode=souk.v1.Bill` from the contract before this change).
    static let previousFormat = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064ec0212243031393066336134
        2d303030302d373030302d383030302d3030303030303030303063311a2430313930663361342d303030302d373030302d38
        3030302d303030303030303030306131222430313930663361342d303030302d373030302d383030302d3030303030303030
        303065352a2430313930663361342d303030302d373030302d383030302d30303030303030303030633230023a0508eb0f10
        01420a0880a4e8031203564e444a1608011207313830206b57681a0908d0bb1b1203564e444a0d08021a0908c0a907120356
        4e44520a0890898b041203564e445a0708eb0f1001180560026a204a616e756172792c207769746820746865206d65746572
        2072656164696e6773722430313930663361342d303030302d373030302d383030302d3030303030303030303066317a0608
        80e9f7d9069a01220a0908ccd80f1203564e44120908d4931a1203564e441a0a08f09ce1031203564e44a00101aa01060890
        a4f6d906
        """)

    @Test func aBillWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousFormat.withUnsafeBytes { try BillTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let bill = value.subject
        #expect(bill.bookingID == "0190f3a4-0000-7000-8000-0000000000c1" && bill.lesseeAccountID == "0190f3a4-0000-7000-8000-0000000000e5")
        #expect(bill.kind == .monthly && bill.status == .paid && bill.period == SoukV1.BillingPeriod(year: 2027, month: 1))
        #expect(bill.rent?.amountMinor == 8_000_000 && bill.total?.amountMinor == 8_570_000 && bill.total?.currencyCode == "VND")
        #expect(bill.utilities.map(\.kind) == [.electricity, .water] && bill.utilities.first?.description == "180 kWh")
        #expect(bill.dueDate == SoukV1.Date(year: 2027, month: 1, day: 5) && bill.note == "January, with the meter readings")
        #expect(bill.paymentID == "0190f3a4-0000-7000-8000-0000000000f1" && bill.paidTime?.seconds == 1_799_222_400)
        #expect(bill.split?.lessorShare?.amountMinor == 7_884_400 && bill.split?.providerFee?.amountMinor == 257_100)
        #expect(bill.overdue && bill.overdueTime?.seconds == 1_799_197_200)
        let time = StoreTime(microsecondsSinceEpoch: 1_799_222_400_000_000)
        let record = StoredRecord(id: RecordID.generate(), version: 4, createdAt: time, updatedAt: time, value: value)
        let shown = BillProjection.bill(record)
        #expect(shown.id == record.id.description && shown.version == 4 && shown.status == .paid && shown.kind == .monthly)
        #expect(shown.utilities == bill.utilities && shown.total == bill.total && shown.split == bill.split)
        #expect(shown.overdue && shown.overdueTime == bill.overdueTime && shown.paidTime == bill.paidTime)
        #expect(shown.availableTransitions.isEmpty)
    }
}
