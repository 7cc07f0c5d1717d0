import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// Reviews of a stay (`Feedback.CreateFeedback` with `booking_id`): the lessee of a CONFIRMED,
/// ACTIVE or ENDED booking rates it once; the rating counts in the lessor's average
/// (shown as `Account.rating`, `RentalsAccountPart`) and the listing's (`Listing.rating`), both server-maintained, so neither
/// changes the version a client edits with. The feedback service stores the entry and refuses a
/// second one of the same lessee.
struct BookingReviews: RatableSubject {
    /// Totals of the stars each lessor received, under the account's id.
    static let lessorTotals = RatingTotal.table("rental_lessor_rating_totals")
    /// Totals of the stars each listing received, under the listing's id.
    static let listingTotals = RatingTotal.table("rental_listing_rating_totals")

    static var tables: [AnyTable] { [lessorTotals.erased, listingTotals.erased] }

    /// A stay can be reviewed once the lessor confirmed it, during the lease and after its end.
    static func isReviewable(_ booking: SoukStoreV1.Booking) -> Bool {
        [.confirmed, .active, .ended].contains(booking.status)
    }

    func rater(of id: String, marketplaceID: RecordID, store: Store) throws -> RecordID {
        let recordID = try RequestFields.id(id, field: "booking_id")
        let lessee = try store.require(BookingTable.table, recordID, in: marketplaceID, "booking").value.subject.lesseeAccountID
        return try RequestFields.id(lessee, field: "booking_id")
    }

    func rate(_ id: String, stars: Int32, caller: Caller, marketplaceID: RecordID, transaction: Transaction) throws -> RatedParties {
        let recordID = try RequestFields.id(id, field: "booking_id")
        // Reading the booking locks it: two reviews of one booking serialize here.
        let booking = try transaction.require(BookingTable.table, recordID, in: marketplaceID, "booking").value.subject
        guard booking.lesseeAccountID == caller.accountID.description else {
            throw RPCError.souk(.permissionDenied, .notAllowed, "only the lessee of booking \(id) reviews it")
        }
        guard Self.isReviewable(booking) else {
            throw RPCError.souk(
                .failedPrecondition, .notRatable,
                "booking \(id) is \(booking.status.protoName): a stay is reviewed once the lessor confirmed it (CONFIRMED, ACTIVE or ENDED)")
        }
        // The lessor's average is rentals' record (`RentalsAccountPart` shows it on the account).
        if let lessor = RecordID(booking.lessorAccountID), try IdentityRecords.account(lessor, transaction) != nil {
            _ = try RatingTotal.add(stars, to: lessor, in: Self.lessorTotals, transaction: transaction)
        }
        if let listing = RecordID(booking.listingID), try transaction.get(ListingTable.table, listing) != nil {
            let summary = try RatingTotal.add(stars, to: listing, in: Self.listingTotals, transaction: transaction)
            try transaction.updateMaintainedFields(ListingTable.table, listing) { $0.subject.rating = summary }
        }
        return RatedParties(accountID: booking.lessorAccountID, listingID: booking.listingID)
    }

    func listingRating(_ id: String, marketplaceID: RecordID, store: Store) throws -> SoukV1.RatingSummary {
        let recordID = try RequestFields.id(id, field: "listing_id")
        let listing = try store.require(ListingTable.table, recordID, in: marketplaceID, "listing").value.subject
        guard ListingRules.isPublic(listing) else { throw RPCError.notFound("listing", id) }
        return listing.rating ?? SoukV1.RatingSummary()
    }
}
