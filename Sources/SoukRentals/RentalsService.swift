import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Rentals`: regions, listings, search, nearby places and favorites. Bookings, bills
/// and lessor income answer UNIMPLEMENTED.
struct RentalsService {
    let rentals: Rentals
    var store: Store { rentals.store }

    var declaration: SoukV1Services.Rentals {
        let regions = Regions(store: store)
        let listings = Listings(store: store)
        let search = ListingSearch(store: store)
        let places = Places(store: store)
        let favorites = Favorites(store: store)
        let store = store
        return SoukV1Services.Rentals(
            createRegion: .handler(verticals: [.rentals], regions.create),
            getRegion: .handler(verticals: [.rentals], regions.get),
            listRegions: .handler(verticals: [.rentals], regions.list),
            updateRegion: .handler(verticals: [.rentals], regions.update),
            createListing: .handler(verticals: [.rentals], listings.create),
            getListing: .handler(verticals: [.rentals], listings.get),
            listListings: .handler(verticals: [.rentals], owner: .account(\.ownerAccountID), listings.list),
            updateListing: .handler(verticals: [.rentals], owner: Listings.ownership({ $0.listing?.id ?? "" }, store: store), listings.update),
            publishListing: .handler(verticals: [.rentals], owner: Listings.ownership(\.listingID, store: store), listings.publish),
            archiveListing: .handler(verticals: [.rentals], owner: Listings.ownership(\.listingID, store: store), listings.archive),
            restoreListing: .handler(verticals: [.rentals], owner: Listings.ownership(\.listingID, store: store), listings.restore),
            searchListings: .handler(verticals: [.rentals], search.search),
            searchNearbyListings: .handler(verticals: [.rentals], search.nearby),
            recommendListings: .handler(verticals: [.rentals], search.recommend),
            createPlace: .handler(verticals: [.rentals], places.create),
            updatePlace: .handler(verticals: [.rentals], places.update),
            deletePlace: .handler(verticals: [.rentals], places.delete),
            listNearbyPlaces: .handler(verticals: [.rentals], places.listNearby),
            addFavorite: .handler(verticals: [.rentals], favorites.add),
            removeFavorite: .handler(verticals: [.rentals], owner: .caller, favorites.remove),
            listFavorites: .handler(verticals: [.rentals], owner: .caller, favorites.list),
            requestBooking: .unimplemented,
            getBooking: .unimplemented,
            listBookings: .unimplemented,
            confirmBooking: .unimplemented,
            declineBooking: .unimplemented,
            cancelBooking: .unimplemented,
            endLease: .unimplemented,
            returnDeposit: .unimplemented,
            watchBooking: .unimplemented,
            createMonthlyBill: .unimplemented,
            getBill: .unimplemented,
            listBills: .unimplemented,
            updateBill: .unimplemented,
            getLessorIncome: .unimplemented)
    }
}
