import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Rentals`: regions, listings, search, nearby places and favorites; bookings, bills
/// and lessor income.
struct RentalsService {
    let rentals: Rentals
    var store: Store { rentals.store }

    var declaration: SoukV1Services.Rentals {
        let regions = Regions(store: store)
        let listings = Listings(store: store)
        let search = ListingSearch(store: store)
        let places = Places(store: store)
        let favorites = Favorites(store: store)
        let requests = BookingRequests(store: store)
        let decisions = BookingDecisions(store: store)
        let leaseEnd = LeaseEnd(store: store, payables: rentals.payables)
        let bills = MonthlyBills(store: store)
        let income = LessorIncome(store: store)
        let store = store
        let booking = BookingViews.ownership(\SoukV1.GetBookingRequest.bookingID, store: store)
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
            requestBooking: .handler(verticals: [.rentals], requests.request),
            getBooking: .handler(verticals: [.rentals], owner: booking) { request, call in try BookingViews.get(request.bookingID, call, store: store) },
            listBookings: .handler(verticals: [.rentals], owner: BookingViews.listOwnership(store: store)) { request, call in
                try BookingViews.list(request, call, store: store)
            },
            confirmBooking: .handler(verticals: [.rentals], owner: BookingViews.ownership(\.bookingID, store: store), decisions.confirm),
            declineBooking: .handler(verticals: [.rentals], owner: BookingViews.ownership(\.bookingID, store: store), decisions.decline),
            cancelBooking: .handler(verticals: [.rentals], owner: BookingViews.ownership(\.bookingID, store: store), requests.cancel),
            endLease: .handler(verticals: [.rentals], owner: BookingViews.ownership(\.bookingID, store: store), leaseEnd.end),
            returnDeposit: .handler(verticals: [.rentals], owner: BookingViews.ownership(\.bookingID, store: store), leaseEnd.returnDeposit),
            watchBooking: .handler(verticals: [.rentals], owner: BookingViews.ownership(\.bookingID, store: store)) { request, writer, call in
                try await BookingViews.watch(request, writer, call, store: store)
            },
            createMonthlyBill: .handler(verticals: [.rentals], owner: BookingViews.ownership(\.bookingID, store: store), bills.create),
            getBill: .handler(verticals: [.rentals], owner: BillViews.ownership(\.billID, store: store)) { request, call in
                try BillViews.get(request.billID, call, store: store)
            },
            listBills: .handler(verticals: [.rentals], owner: BillViews.listOwnership(store: store)) { request, call in
                try BillViews.list(request, call, store: store)
            },
            updateBill: .handler(verticals: [.rentals], owner: BillViews.ownership({ $0.bill?.id ?? "" }, store: store), bills.update),
            getLessorIncome: .handler(verticals: [.rentals], owner: .account(\.lessorAccountID), income.get))
    }
}
