import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A booking as stored: the contract message (without its id, version and times, which the
/// envelope holds) and its marketplace.
public typealias BookingRecord = MarketRecord<SoukV1.Booking>

/// Bookings and their indexes. Entries of a non-unique index end with the record id, a version 7
/// id, so every range below is in request order (read descending: newest first).
enum BookingTable {
    /// Whether the booking holds its listing: a CONFIRMED or ACTIVE lease.
    static func holdsListing(_ booking: SoukV1.Booking) -> Bool { booking.status == .confirmed || booking.status == .active }

    /// Whether the lessee still waits for an answer or a deposit.
    static func isOpen(_ booking: SoukV1.Booking) -> Bool { booking.status == .requested || booking.status == .confirmed }

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
        "rental_bookings", SoukV1.Booking.self, indexes: [byLessee, byLessor, byListing, lease, openRequest])
}

extension StoredRecord where Value == BookingRecord {
    /// The booking with the envelope's id, version and times.
    var booking: SoukV1.Booking { api() }
}

extension SoukV1.Booking: StampedMessage {}
