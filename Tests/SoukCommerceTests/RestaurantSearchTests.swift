import Foundation
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops

/// Searching restaurants and items near a point, checked against a brute-force haversine filter.
@Suite struct RestaurantSearchTests {

    /// Restaurants stored straight into the store around Beirut: some open, some closed, some not
    /// approved or archived (never shown).
    static func seed(_ food: FoodFixture, count: Int, random: inout SplitMix) async throws -> [StoredRecord<RestaurantRecord>] {
        var restaurants: [SoukStoreV1.Restaurant] = []
        for n in 0..<count {
            let input = food.restaurantInput(
                "Place \(n)",
                at: .init(latitude: 33.8938 + Double.random(in: -0.15...0.15, using: &random),
                          longitude: 35.5018 + Double.random(in: -0.15...0.15, using: &random)),
                categories: n % 3 == 0 ? ["pizza"] : ["lebanese"])
            // Stored as CreateRestaurant stores its owner's fields.
            var restaurant = SoukStoreV1.Restaurant()
            RestaurantValidation.apply(Array(Restaurants.maskPaths), from: input, to: &restaurant)
            restaurant.ownerAccountID = RecordID.generate().description
            restaurant.open = n % 2 == 0
            restaurant.approvalState = n % 7 == 3 ? .pending : .approved
            restaurant.archived = n % 11 == 5
            restaurants.append(restaurant)
        }
        let market = food.market.id
        return try await food.harness.store.write { [restaurants] transaction in
            try restaurants.map { try transaction.insert(RestaurantTable.table, RestaurantRecord(marketplaceID: market, $0)) }
        }
    }

    @Test func restaurantsNearAPointMatchABruteForceHaversineFilter() async throws {
        let food = try await FoodFixture.make()
        var random = SplitMix(state: 42)
        let stored = try await Self.seed(food, count: 120, random: &random)
        for _ in 0..<12 {
            let center = SoukV1.GeoPoint(latitude: 33.8938 + Double.random(in: -0.12...0.12, using: &random),
                                         longitude: 35.5018 + Double.random(in: -0.12...0.12, using: &random))
            let radius = Int32.random(in: 1_000...15_000, using: &random)
            let openOnly = Bool.random(using: &random)
            let category = Bool.random(using: &random) ? "pizza" : ""
            let point = GeoPosition(latitude: center.latitude, longitude: center.longitude)
            func shown(_ restaurant: SoukStoreV1.Restaurant) -> Bool {
                RestaurantRules.isVisible(restaurant) && (!openOnly || restaurant.open) && (category.isEmpty || restaurant.categories.contains(category))
            }
            let candidates: [(id: RecordID, meters: Double)] = stored.filter { shown($0.value.subject) }.map {
                ($0.id, GeoDistance.meters(point, RestaurantRules.position($0.value.subject)!))
            }
            let expected = candidates.filter { $0.meters <= Double(radius) }
                .sorted { $0.meters != $1.meters ? $0.meters < $1.meters : $0.id < $1.id }
            var seen: [(String, Int32)] = []
            var token = ""
            repeat {
                let page: SoukV1.ListRestaurantsResponse = try await food.catalog("ListRestaurants", SoukV1.ListRestaurantsRequest(
                    marketplaceID: food.market.id, pageSize: 7, pageToken: token, near: center, radiusMeters: radius, openOnly: openOnly,
                    category: category))
                seen += page.restaurants.map { ($0.restaurant!.id, $0.distanceMeters) }
                token = page.nextPageToken
            } while !token.isEmpty
            #expect(seen.map(\.0) == expected.map(\.id.description))
            #expect(zip(seen, expected).allSatisfy { abs(Double($0.1) - $1.meters) <= 1 })
        }
    }

    @Test func searchFindsNameWordsAndRatingOrdersTheNearbyOnes() async throws {
        let food = try await FoodFixture.make()
        let (roma, _) = try await food.openRestaurant("Pizzería Roma", at: .init(latitude: 33.8959, longitude: 35.4828))
        let (napoli, _) = try await food.openRestaurant("Napoli Pizza House", at: .init(latitude: 33.8886, longitude: 35.5197))
        _ = try await food.openRestaurant("Zaatar Corner", at: .init(latitude: 33.8950, longitude: 35.5155), categories: ["lebanese"])
        for (id, stars) in [(roma.id, Int32(3)), (napoli.id, 5)] {
            let restaurantID = RecordID(id)!
            try await food.harness.store.write { transaction in
                try FoodRestaurants.rated(restaurantID, try RatingTotalTable.add(stars, to: restaurantID, transaction: transaction), transaction: transaction)
            }
        }
        func names(_ request: SoukV1.SearchRestaurantsRequest) async throws -> [String] {
            let response: SoukV1.ListRestaurantsResponse = try await food.catalog("SearchRestaurants", request)
            return response.restaurants.map { $0.restaurant!.name }
        }
        #expect(try await names(.init(marketplaceID: food.market.id, query: "PIZZ")) == ["Napoli Pizza House", "Pizzería Roma"])
        #expect(try await names(.init(marketplaceID: food.market.id, query: "pizzeria ro")) == ["Pizzería Roma"])
        let west = SoukV1.GeoPoint(latitude: 33.8960, longitude: 35.4800)
        #expect(try await names(.init(marketplaceID: food.market.id, query: "pizz", near: west)) == ["Pizzería Roma", "Napoli Pizza House"])
        #expect(try await names(.init(marketplaceID: food.market.id, query: "pizz", near: west, orderBy: "rating desc"))
            == ["Napoli Pizza House", "Pizzería Roma"])
        let empty = await food.catalogError("SearchRestaurants", SoukV1.SearchRestaurantsRequest(marketplaceID: food.market.id, query: " - "))
        #expect(empty?.code == .invalidArgument && empty?.message.hasPrefix("query") == true)
        let far = await food.catalogError("ListRestaurants", SoukV1.ListRestaurantsRequest(
            marketplaceID: food.market.id, near: west, radiusMeters: 50_001))
        #expect(far?.code == .invalidArgument && far?.message.hasPrefix("radius_meters") == true)
        let rated: SoukV1.ListRestaurantsResponse = try await food.catalog("ListRestaurants", SoukV1.ListRestaurantsRequest(
            marketplaceID: food.market.id, orderBy: "rating desc"))
        #expect(rated.restaurants.map { $0.restaurant!.name } == ["Napoli Pizza House", "Pizzería Roma", "Zaatar Corner"])
    }

    @Test func itemsAreFoundAcrossNearbyRestaurantsWithTheirRestaurant() async throws {
        let food = try await FoodFixture.make()
        let (near, nearOwner) = try await food.openRestaurant("Near Pizza", at: .init(latitude: 33.8959, longitude: 35.4828))
        let (far, farOwner) = try await food.openRestaurant("Far Pizza", at: .init(latitude: 33.9300, longitude: 35.5900))
        let (closed, closedOwner) = try await food.openRestaurant("Closed Pizza", at: .init(latitude: 33.8960, longitude: 35.4830))
        for (restaurant, owner) in [(near, nearOwner), (far, farOwner), (closed, closedOwner)] {
            _ = try await food.createItem(food.pizzaInput(restaurant, name: "Margherita Pizza"), token: owner)
            _ = try await food.createItem(food.pizzaInput(restaurant, name: "Pepperoni Pizza"), token: owner)
            _ = try await food.createItem(SoukV1.MenuItem(restaurantID: restaurant.id, name: "Tiramisu", price: food.money(500),
                                                          section: "Desserts", available: true), token: owner)
            _ = try await food.createItem(SoukV1.MenuItem(restaurantID: restaurant.id, name: "Hidden Pizza", price: food.money(500),
                                                          section: "Pizza", available: true, hidden: true), token: owner)
        }
        let _: SoukV1.Restaurant = try await food.catalog("UpdateRestaurant", SoukV1.UpdateRestaurantRequest(
            marketplaceID: food.market.id, restaurant: .init(id: closed.id, open: false), updateMask: .init(paths: ["open"])), token: closedOwner)
        let point = SoukV1.GeoPoint(latitude: 33.8958, longitude: 35.4826)
        var results: [SoukV1.MenuItemResult] = []
        var token = ""
        repeat {
            let page: SoukV1.SearchMenuItemsResponse = try await food.catalog("SearchMenuItems", SoukV1.SearchMenuItemsRequest(
                marketplaceID: food.market.id, pageSize: 1, pageToken: token, query: "pizza", near: point, radiusMeters: 20_000, openOnly: true))
            results += page.results
            token = page.nextPageToken
        } while !token.isEmpty
        #expect(results.map { "\($0.restaurantName): \($0.menuItem!.name)" } == [
            "Near Pizza: Margherita Pizza", "Near Pizza: Pepperoni Pizza", "Far Pizza: Margherita Pizza", "Far Pizza: Pepperoni Pizza",
        ])
        #expect(results[0].distanceMeters < 100 && results[2].distanceMeters > 5_000)
        let desserts: SoukV1.SearchMenuItemsResponse = try await food.catalog("SearchMenuItems", SoukV1.SearchMenuItemsRequest(
            marketplaceID: food.market.id, section: "desserts", near: point, radiusMeters: 2_000))
        #expect(desserts.results.map(\.restaurantName) == ["Near Pizza", "Closed Pizza"])
        let noPoint = await food.catalogError("SearchMenuItems", SoukV1.SearchMenuItemsRequest(marketplaceID: food.market.id, query: "pizza"))
        #expect(noPoint?.code == .invalidArgument && noPoint?.message.hasPrefix("near") == true)
    }
}
