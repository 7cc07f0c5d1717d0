import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// What bookings read and change of their listing, inside the booking's transaction. Reading
/// the listing locks it: every request and confirmation of one listing is serialized there.
enum LeaseListings {
    /// Listing `id` of the marketplace, read and locked; NOT_FOUND unless it is public (published
    /// or rented).
    static func require(_ id: RecordID, marketplaceID: RecordID, transaction: Transaction) throws -> StoredRecord<ListingRecord> {
        let record = try transaction.require(ListingTable.table, id, in: marketplaceID, "listing")
        guard ListingRules.isPublic(record.value.subject) else { throw RPCError.notFound("listing", id.description) }
        return record
    }

    /// The booking's listing, read and locked, whatever its state.
    static func lock(_ id: String, marketplaceID: RecordID, transaction: Transaction) throws -> StoredRecord<ListingRecord> {
        let recordID = try RequestFields.id(id, field: "listing_id")
        return try transaction.require(ListingTable.table, recordID, in: marketplaceID, "listing")
    }

    /// The confirmed booking holds its listing: RENTED (LISTING_LEASED when it is not published).
    static func rent(_ listing: StoredRecord<ListingRecord>, booking: StoredRecord<BookingRecord>, actor: AuditActor, transaction: Transaction) throws {
        try ListingStates.markRented(
            listing.id, bookingID: booking.id.description, marketplaceID: try RequestFields.id(booking.value.marketplaceID, field: "marketplace_id"),
            actor: actor, transaction: transaction)
    }

    /// The booking no longer holds its listing (cancelled or ended): PUBLISHED again.
    static func release(_ booking: StoredRecord<BookingRecord>, actor: AuditActor, transaction: Transaction) throws {
        guard let id = RecordID(booking.value.subject.listingID) else { return }
        try ListingStates.markAvailable(
            id, bookingID: booking.id.description, marketplaceID: try RequestFields.id(booking.value.marketplaceID, field: "marketplace_id"), actor: actor,
            transaction: transaction)
    }
}
