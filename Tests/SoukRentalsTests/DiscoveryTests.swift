import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import Testing

@testable import SoukRentals

/// Text search, recommendations, nearby places and favorites through the service.
@Suite struct DiscoveryTests {
    /// Three published listings: Quận 1, Bình Thạnh, Dĩ An; and a draft in Quận 1.
    static func listings(_ f: RentalsFixture) async throws -> (quan1: SoukV1.Listing, binhThanh: SoukV1.Listing, diAn: SoukV1.Listing, lessor: RentalsFixture.Person) {
        let lessor = try await f.person("minh", lessor: true)
        let quan1 = try await f.publish(try await f.create(f.draft(), by: lessor), by: lessor.token)
        let binhThanh = try await f.publish(try await f.create(f.draft(
            title: "Phòng trọ Bình Thạnh", line1: "45 Đường Điện Biên Phủ", district: "Bình Thạnh", latitude: 10.8011, longitude: 106.7109,
            rent: 4_000_000, type: .room), by: lessor), by: lessor.token)
        let diAn = try await f.publish(try await f.create(f.draft(
            title: "Nhà nguyên căn Dĩ An", line1: "8 Đường số 9", district: "Dĩ An", region: f.binhDuong, latitude: 10.9069, longitude: 106.7695,
            rent: 7_000_000, type: .house), by: lessor), by: lessor.token)
        _ = try await f.create(f.draft(title: "Bản nháp Quận 1"), by: lessor)
        return (quan1, binhThanh, diAn, lessor)
    }

    func search(_ f: RentalsFixture, _ query: String, filter: SoukV1.ListingFilter? = nil, token: String? = nil) async throws -> [String] {
        let response: SoukV1.SearchListingsResponse = try await f.call(
            "SearchListings", SoukV1.SearchListingsRequest(marketplaceID: f.marketplace.id, query: query, filter: filter), token)
        return response.listings.map { $0.listing!.title }
    }

    @Test func textIgnoresCaseAndVietnameseDiacritics() async throws {
        let f = try await RentalsFixture.make()
        _ = try await Self.listings(f)
        #expect(try await search(f, "quan 1") == ["Căn hộ 2 phòng ngủ Quận 1"])
        #expect(try await search(f, "BINH THANH") == ["Phòng trọ Bình Thạnh"])
        #expect(Set(try await search(f, "duong")) == ["Căn hộ 2 phòng ngủ Quận 1", "Phòng trọ Bình Thạnh", "Nhà nguyên căn Dĩ An"])
        #expect(try await search(f, "dien bien phu") == ["Phòng trọ Bình Thạnh"])
        #expect(try await search(f, "di an", filter: SoukV1.ListingFilter(type: .apartment)).isEmpty)
        #expect(try await search(f, "", filter: SoukV1.ListingFilter(maxMonthlyRent: .init(amountMinor: 5_000_000, currencyCode: "VND"))) == ["Phòng trọ Bình Thạnh"])
        #expect(try await search(f, "", filter: SoukV1.ListingFilter(regionID: f.binhDuong)) == ["Nhà nguyên căn Dĩ An"])
        let rentOrder: SoukV1.SearchListingsResponse = try await f.call(
            "SearchListings", SoukV1.SearchListingsRequest(marketplaceID: f.marketplace.id, orderBy: "monthly_rent"), nil)
        #expect(rentOrder.listings.map { $0.listing!.monthlyRent!.amountMinor } == [4_000_000, 7_000_000, 12_000_000])
        let byDistance: SoukV1.SearchListingsResponse = try await f.call(
            "SearchListings", SoukV1.SearchListingsRequest(
                marketplaceID: f.marketplace.id, query: "duong", near: .init(latitude: 10.91, longitude: 106.77), orderBy: "distance"), nil)
        #expect(byDistance.listings.map { $0.listing!.title }.first == "Nhà nguyên căn Dĩ An")
        let noPoint = await f.error(
            "SearchListings", SoukV1.SearchListingsRequest(marketplaceID: f.marketplace.id, orderBy: "distance"), nil, as: SoukV1.SearchListingsResponse.self)
        #expect(noPoint?.fieldViolations.first?.field == "near")
    }

    @Test func recommendationsWeighDistanceAndRent() async throws {
        let f = try await RentalsFixture.make()
        let (quan1, binhThanh, _, _) = try await Self.listings(f)
        // From Bến Thành market: Quận 1 is near but dear, Bình Thạnh farther and cheap.
        let near = SoukV1.GeoPoint(latitude: 10.7725, longitude: 106.6980)
        let response: SoukV1.SearchListingsResponse = try await f.call(
            "RecommendListings", SoukV1.RecommendListingsRequest(marketplaceID: f.marketplace.id, near: near, radiusMeters: 10_000), nil)
        #expect(response.listings.map { $0.listing!.id } == [binhThanh.id, quan1.id])
        for result in response.listings {
            let expected = 0.6 * Double(result.distanceMeters) / 10_000 + 0.4 * Double(result.listing!.monthlyRent!.amountMinor) / 12_000_000
            #expect(abs(result.score - expected) < 0.001)
        }
        let budget: SoukV1.SearchListingsResponse = try await f.call(
            "RecommendListings", SoukV1.RecommendListingsRequest(
                marketplaceID: f.marketplace.id, near: near, radiusMeters: 10_000, maxMonthlyRent: .init(amountMinor: 5_000_000, currencyCode: "VND")), nil)
        #expect(budget.listings.map { $0.listing!.id } == [binhThanh.id])
    }

    @Test func placesNearAListingNearestFirst() async throws {
        let f = try await RentalsFixture.make()
        let (quan1, _, _, lessor) = try await Self.listings(f)
        func place(_ name: String, _ category: SoukV1.PlaceCategory, _ latitude: Double, _ longitude: Double) async throws -> SoukV1.Place {
            try await f.call("CreatePlace", SoukV1.CreatePlaceRequest(
                marketplaceID: f.marketplace.id, requestID: "place-\(latitude)",
                place: .init(name: name, category: category, address: .init(line1: name, location: .init(latitude: latitude, longitude: longitude)))), f.adminToken)
        }
        _ = try await place("Chợ Bến Thành", .market, 10.7725, 106.6980)
        _ = try await place("Bệnh viện Nhi Đồng 2", .hospital, 10.7813, 106.7020)
        _ = try await place("Đại học Quốc gia", .school, 10.8700, 106.8031)
        let refused = await f.error("CreatePlace", SoukV1.CreatePlaceRequest(
            marketplaceID: f.marketplace.id, requestID: "x", place: .init(name: "x", category: .market)), lessor.token, as: SoukV1.Place.self)
        #expect(refused?.code == .permissionDenied)
        let around: SoukV1.ListNearbyPlacesResponse = try await f.call(
            "ListNearbyPlaces", SoukV1.ListNearbyPlacesRequest(marketplaceID: f.marketplace.id, origin: .listingID(quan1.id)), nil)
        #expect(around.places.map { $0.place!.name } == ["Bệnh viện Nhi Đồng 2", "Chợ Bến Thành"])
        #expect(around.places.map(\.distanceMeters) == around.places.map(\.distanceMeters).sorted())
        let markets: SoukV1.ListNearbyPlacesResponse = try await f.call(
            "ListNearbyPlaces", SoukV1.ListNearbyPlacesRequest(marketplaceID: f.marketplace.id, origin: .listingID(quan1.id), categories: [.market]), nil)
        #expect(markets.places.map { $0.place!.name } == ["Chợ Bến Thành"])
        let neither = await f.error(
            "ListNearbyPlaces", SoukV1.ListNearbyPlacesRequest(marketplaceID: f.marketplace.id), nil, as: SoukV1.ListNearbyPlacesResponse.self)
        #expect(neither?.code == .invalidArgument)
    }

    @Test func favoritesAreSavedOnceFlaggedListedAndRemoved() async throws {
        let f = try await RentalsFixture.make()
        let (quan1, binhThanh, _, _) = try await Self.listings(f)
        let lan = try await f.person("lan")
        let add = SoukV1.AddFavoriteRequest(marketplaceID: f.marketplace.id, requestID: "fav-1", listingID: quan1.id)
        let first: SoukV1.Favorite = try await f.call("AddFavorite", add, lan.token)
        let again: SoukV1.Favorite = try await f.call("AddFavorite", add, lan.token)
        #expect(first.id == again.id && first.listing?.saved == true)
        let _: SoukV1.Favorite = try await f.call(
            "AddFavorite", SoukV1.AddFavoriteRequest(marketplaceID: f.marketplace.id, requestID: "fav-2", listingID: binhThanh.id), lan.token)

        let got: SoukV1.Listing = try await f.call("GetListing", SoukV1.GetListingRequest(marketplaceID: f.marketplace.id, listingID: quan1.id), lan.token)
        #expect(got.saved)
        let guest: SoukV1.Listing = try await f.call("GetListing", SoukV1.GetListingRequest(marketplaceID: f.marketplace.id, listingID: quan1.id), nil)
        #expect(!guest.saved)
        let found: SoukV1.SearchListingsResponse = try await f.call(
            "SearchListings", SoukV1.SearchListingsRequest(marketplaceID: f.marketplace.id, query: "quan 1"), lan.token)
        #expect(found.listings.map { $0.listing!.saved } == [true])

        let list: SoukV1.ListFavoritesResponse = try await f.call(
            "ListFavorites", SoukV1.ListFavoritesRequest(marketplaceID: f.marketplace.id, pageSize: 1), lan.token)
        #expect(list.favorites.map(\.listingID) == [binhThanh.id] && !list.nextPageToken.isEmpty)

        let _: SoukV1.RemoveFavoriteResponse = try await f.call(
            "RemoveFavorite", SoukV1.RemoveFavoriteRequest(marketplaceID: f.marketplace.id, listingID: quan1.id), lan.token)
        let removedAgain = await f.error(
            "RemoveFavorite", SoukV1.RemoveFavoriteRequest(marketplaceID: f.marketplace.id, listingID: quan1.id), lan.token, as: SoukV1.RemoveFavoriteResponse.self)
        #expect(removedAgain?.code == .notFound)
        let after: SoukV1.Listing = try await f.call("GetListing", SoukV1.GetListingRequest(marketplaceID: f.marketplace.id, listingID: quan1.id), lan.token)
        #expect(!after.saved)
    }

    @Test func concurrentSavesMakeOneFavorite() async throws {
        let f = try await RentalsFixture.make()
        let (quan1, _, _, _) = try await Self.listings(f)
        let lan = try await f.person("lan")
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for attempt in 0..<6 {
                group.addTask {
                    let favorite: SoukV1.Favorite = try await f.call(
                        "AddFavorite", SoukV1.AddFavoriteRequest(marketplaceID: f.marketplace.id, requestID: "race-\(attempt)", listingID: quan1.id), lan.token)
                    return favorite.id
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(ids.count == 1)
    }
}
