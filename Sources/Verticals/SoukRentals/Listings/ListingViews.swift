import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// A listing as a caller sees it: its lessor as a summary (name, avatar, rating) and whether
/// the caller saved it, each read with one lookup.
struct ListingViews {
    let store: Store

    func view(_ listing: SoukV1.Listing, _ call: SoukCall) throws -> SoukV1.Listing {
        var shown = listing
        shown.lessor = try lessor(listing.ownerAccountID)
        if let caller = call.caller {
            shown.saved = try Favorites.isSaved(
                listing.id, account: caller.accountID.description, marketplaceID: call.marketplace?.id ?? "", store: store)
        }
        return shown
    }

    /// What lessees see of the lessor.
    func lessor(_ accountID: String) throws -> SoukV1.PersonSummary? {
        try RentalParties.summary(accountID, store: store)
    }

    /// Everyone sees published and rented listings; the owner and admins every one.
    static func canSee(_ listing: SoukStoreV1.Listing, _ call: SoukCall) -> Bool {
        ListingRules.isPublic(listing) || RentalsAccess.isAdmin(call) || call.caller?.accountID.description == listing.ownerAccountID
    }
}
