import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukRentals

/// The rental_bookings table stored `souk.v1.Booking` before bookings had a record of their own
/// (`souk.store.v1.Booking`, which keeps its field numbers): such records still read, and the
/// projection sends them as the contract has them.
@Suite struct StoredBookingFormatTests {
    /// An active booking as the previous format wrote it (its codec: format byte 1, the
    /// marketplace id, then the souk.v1.Booking's bytes), with a lessee summary, which the store
    /// no longer keeps.
    static let previousFormat = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064bf0212243031393066336134
        2d303030302d373030302d383030302d3030303030303030303065351a1553747564696f206e65617220486f616e204b6965
        6d2218220b31322048616e6720426169320548616e6f694a02564e2a2430313930663361342d303030302d373030302d3830
        30302d303030303030303030303063322430313930663361342d303030302d373030302d383030302d303030303030303030
        3062303803420708ea0f100c18014806520708eb0f1005181f5a0a0880a4e8031203564e44620a0880c8d0071203564e446a
        2430313930663361342d303030302d373030302d383030302d3030303030303030303062317a0c51756965742074656e616e
        7492010608809cb8d806ba012e0a2430313930663361342d303030302d373030302d383030302d3030303030303030303030
        6312064c616e204e2e
        """)

    @Test func aBookingWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousFormat.withUnsafeBytes { try BookingTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let booking = value.subject
        #expect(booking.status == .active && booking.months == 6 && booking.listingTitle == "Studio near Hoan Kiem")
        #expect(booking.startDate == SoukV1.Date(year: 2026, month: 12, day: 1) && booking.endDate?.day == 31)
        #expect(booking.monthlyRent?.amountMinor == 8_000_000 && booking.deposit?.amountMinor == 16_000_000)
        #expect(booking.depositBillID == "0190f3a4-0000-7000-8000-0000000000b1" && booking.activateTime?.seconds == 1_796_083_200)
        let time = StoreTime(microsecondsSinceEpoch: 1_796_083_200_000_000)
        let record = StoredRecord(id: RecordID.generate(), version: 3, createdAt: time, updatedAt: time, value: value)
        let shown = BookingProjection.booking(record)
        #expect(shown.id == record.id.description && shown.version == 3 && shown.status == .active)
        #expect(shown.listingAddress?.city == "Hanoi" && shown.message == "Quiet tenant" && shown.lessee == nil)
    }
}
