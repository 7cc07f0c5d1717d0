import SoukKit
import SoukMessages

/// The lifecycle of a listing: a lessor prepares a DRAFT, publishes it (an active lessor only),
/// a booking's confirmation marks it RENTED and its end makes it PUBLISHED again; the owner or an
/// admin archives a draft or published listing and restores it as a draft.
/// A listing's transitions.
public enum ListingMove: String, TransitionName {
    case publish, rent, release, archive, restore
}

public enum ListingLifecycle {
    public static let machine = StateMachine<SoukStoreV1.Listing, SoukV1.ListingStatus, ListingMove>(
        "Listing", resource: .listing, state: \.status, initial: [.draft],
        transitions: [
            // Lessors act in the customer role (every account holds it; the provider role may be pending).
            Transition(.publish, from: [.draft], to: .published, by: [.customer, .admin]),
            // The booking's confirmation (ListingStates.markRented), by the lessor or the server.
            Transition(.rent, from: [.published], to: .rented, by: [.provider, .customer, .admin, .system], refusal: .listingLeased),
            // The booking's end or cancellation (ListingStates.markAvailable).
            Transition(.release, from: [.rented], to: .published, by: [.provider, .customer, .admin, .system]),
            Transition(.archive, from: [.draft, .published], to: .archived, by: [.customer, .admin]),
            Transition(.restore, from: [.archived], to: .draft, by: [.customer, .admin]),
        ])
}
