import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// What one party of a lease sees of the other: a summary (name, avatar, rating; no e-mail,
/// no phone).
enum RentalParties {
    static func summary(_ id: String, store: Store) throws -> SoukV1.PersonSummary? {
        guard let recordID = RecordID(id), var account = try IdentityRecords.account(recordID, store) else { return nil }
        try RentalsAccountPart.project(&account, store)
        return Parties.summary(of: account, vertical: .rentals)
    }
}

/// Rentals' part of MARA accounts (`AccountPart`): the lessor's rating, which rentals keeps
/// (`BookingReviews.lessorTotals`) and the account view shows.
struct RentalsAccountPart: AccountPart {
    func project(_ account: inout SoukV1.Account, _ reader: any RecordLookup) throws {
        try Self.project(&account, reader)
    }

    /// Fills `Account.rating` of `account` (its id set) from the lessor totals.
    static func project(_ account: inout SoukV1.Account, _ reader: any RecordLookup) throws {
        guard let id = RecordID(account.id) else { return }
        account.rating = try RatingTotal.summary(of: id, in: BookingReviews.lessorTotals, reader) ?? SoukV1.RatingSummary()
    }
}
