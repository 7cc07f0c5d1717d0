import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A booking as stored: its own record (`souk.store.v1.Booking`, without the id, version and
/// times, which the envelope holds) and its marketplace. RPCs answer with `BookingProjection`.
public typealias BookingRecord = MarketRecord<SoukStoreV1.Booking>

/// Bookings and their indexes. Entries of a non-unique index end with the record id, a version 7
/// id, so every range below is in request order (read descending: newest first).
enum BookingTable {
    /// Whether the booking holds its listing: a CONFIRMED or ACTIVE lease.
    static func holdsListing(_ booking: SoukStoreV1.Booking) -> Bool { booking.status == .confirmed || booking.status == .active }

    /// Whether the lessee still waits for an answer or a deposit.
    static func isOpen(_ booking: SoukStoreV1.Booking) -> Bool { booking.status == .requested || booking.status == .confirmed }

    /// Two entries per party: under BOOKING_STATUS_UNSPECIFIED (any status) and under the
    /// booking's status, so that a list with or without one status filter is one range.
    private static func byStatus(_ record: BookingRecord, _ party: String) -> [[KeyPart]] {
        let base: [KeyPart] = [.string(record.marketplaceID), .string(party)]
        return [base + [.enumCase(SoukV1.BookingStatus.unspecified)], base + [.enumCase(record.subject.status)]]
    }
    static let byLessee = Index<BookingRecord>.nonUnique("rental_bookings.lessee", keys: { byStatus($0, $0.subject.lesseeAccountID) })
    static let byLessor = Index<BookingRecord>.nonUnique("rental_bookings.lessor", keys: { byStatus($0, $0.subject.lessorAccountID) })
    static let byListing = Index<BookingRecord>.nonUnique("rental_bookings.listing", keys: { byStatus($0, $0.subject.listingID) })

    /// At most one CONFIRMED or ACTIVE booking per listing, whatever the listing record says.
    static let lease = Index<BookingRecord>.unique("rental_bookings.lease") { record in
        holdsListing(record.subject) ? [.string(record.marketplaceID), .string(record.subject.listingID)] : nil
    }
    /// A lessee's open booking of a listing: one at a time.
    static let openRequest = Index<BookingRecord>.unique("rental_bookings.open_request") { record in
        isOpen(record.subject)
            ? [.string(record.marketplaceID), .string(record.subject.listingID), .string(record.subject.lesseeAccountID)] : nil
    }

    static let table = marketTable(
        "rental_bookings", SoukStoreV1.Booking.self, indexes: [byLessee, byLessor, byListing, lease, openRequest])
}

/// What a caller sees of a stored booking: the contract's `Booking`, built field by field (an
/// allow-list: a field added to the stored record reaches no caller until a line here names
/// it). The parties' summaries and the available transitions come from `BookingViews.view`.
enum BookingProjection {
    static func booking(_ record: StoredRecord<BookingRecord>) -> SoukV1.Booking {
        let booking = record.value.subject
        var shown = record.stamped(SoukV1.Booking())
        shown.listingID = booking.listingID
        shown.listingTitle = booking.listingTitle
        shown.listingAddress = booking.listingAddress
        shown.lesseeAccountID = booking.lesseeAccountID
        shown.lessorAccountID = booking.lessorAccountID
        shown.status = booking.status
        shown.startDate = booking.startDate
        shown.months = booking.months
        shown.endDate = booking.endDate
        shown.monthlyRent = booking.monthlyRent
        shown.deposit = booking.deposit
        shown.depositBillID = booking.depositBillID
        shown.depositReturn = booking.depositReturn
        shown.message = booking.message
        shown.reason = booking.reason
        shown.confirmTime = booking.confirmTime
        shown.activateTime = booking.activateTime
        shown.endTime = booking.endTime
        return shown
    }
}

extension SoukV1.Booking: StampedMessage {}
