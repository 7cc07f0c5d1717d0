import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The listing moves bookings make, inside the booking's own transaction. The status and
/// `active_booking_id` follow the booking: server-maintained, they keep the listing's version,
/// so a lessor's open edit stays valid (DOMAIN decision 9).
///
/// - `markRented(_:bookingID:actor:transaction:)`: called once by a booking's confirmation.
///   The listing must be PUBLISHED and free; it becomes RENTED with `active_booking_id` set. Of
///   two confirmations racing for one listing, the transaction that commits first wins; the other
///   reads the listing RENTED and gets FAILED_PRECONDITION (LISTING_LEASED).
/// - `markAvailable(_:bookingID:actor:transaction:)`: called when that booking ends or is
///   cancelled: the listing is PUBLISHED again. Does nothing when another booking (or none)
///   holds it.
public enum ListingStates {
    @discardableResult
    public static func markRented(
        _ listingID: RecordID, bookingID: String, marketplaceID: RecordID, actor: AuditActor, transaction: Transaction
    ) throws -> SoukV1.Listing {
        let current = try transaction.require(ListingTable.table, listingID, in: marketplaceID, "listing")
        if current.value.subject.status == .rented {
            throw RPCError.souk(
                .failedPrecondition, .listingLeased,
                "listing \(listingID) is already leased (booking \(current.value.subject.activeBookingID))")
        }
        return ListingProjection.listing(try ListingLifecycle.machine.fire(
                .rent, on: listingID, in: ListingTable.table, marketplaceID: marketplaceID.description, by: actor, reason: "booking \(bookingID)",
            maintained: true, transaction: transaction
        ) { $0.subject.activeBookingID = bookingID })
    }

    public static func markAvailable(
        _ listingID: RecordID, bookingID: String, marketplaceID: RecordID, actor: AuditActor, transaction: Transaction
    ) throws {
        guard let current = try transaction.get(ListingTable.table, listingID), current.value.marketplaceID == marketplaceID.description,
              current.value.subject.status == .rented, current.value.subject.activeBookingID == bookingID
        else { return }
        try ListingLifecycle.machine.fire(
                .release, on: listingID, in: ListingTable.table, marketplaceID: marketplaceID.description, by: actor, reason: "booking \(bookingID)",
            maintained: true, transaction: transaction
        ) { $0.subject.activeBookingID = "" }
    }
}
