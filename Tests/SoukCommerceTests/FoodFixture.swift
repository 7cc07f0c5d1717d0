import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukPayments
import SoukStore
import SoukTesting
import Testing

import SoukCommerceTesting
@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops

/// A DineSwift-like marketplace over a fresh harness (commerce joined to identity's role
/// decisions), with helpers to build restaurants and menus through the contract.
struct FoodFixture {
    let harness: DomainHarness
    let market: SoukV1.Marketplace
    let admin: String

    static let beirut = SoukV1.GeoPoint(latitude: 33.8938, longitude: 35.5018)

    static func make(deliveryFee: Int64 = 300, taxBps: Int32 = 0) async throws -> FoodFixture {
        let harness = try DomainHarness(
            domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self], makeDomains: { identity in let payables = PayableTargets(); return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)] + CommerceDomains.mounting(Commerce(store: identity.store, identity: identity, payables: payables), identity: identity) })
        let market = try await harness.marketplace(
            slug: "dineswift", vertical: .foodDelivery, currency: "USD",
            settings: .init(commerce: .init(
                taxRateBps: taxBps, deliveryFee: .init(amountMinor: deliveryFee, currencyCode: "USD"), defaultCommissionBps: 1500,
                acceptedPaymentMethods: [.cash])))
        return FoodFixture(harness: harness, market: market, admin: try await harness.adminToken(market, email: "admin@dineswift.example"))
    }

    func catalog<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, token: String? = nil) async throws -> Response {
        try await harness.call("souk.v1.Catalog", method, request, token: token)
    }

    func catalogError(_ method: String, _ request: some ProtoMessage, token: String? = nil) async -> RPCError? {
        await harness.error("souk.v1.Catalog", method, request, token: token, as: SoukV1.Restaurant.self)
    }

    func carts<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, token: String) async throws -> Response {
        try await harness.call("souk.v1.Carts", method, request, token: token)
    }

    func cartError(_ method: String, _ request: some ProtoMessage, token: String) async -> RPCError? {
        await harness.error("souk.v1.Carts", method, request, token: token, as: SoukV1.Cart.self)
    }

    /// A restaurant account that signed up (provider role pending): its account and token.
    func pendingOwner(_ email: String) async throws -> (account: SoukV1.Account, token: String) {
        let response = try await harness.signUp(market, email: email, roles: [.provider])
        return (try #require(response.account), try #require(response.session).accessToken)
    }

    func restaurantInput(_ name: String, at point: SoukV1.GeoPoint = beirut, categories: [String] = ["pizza"]) -> SoukV1.Restaurant {
        SoukV1.Restaurant(
            name: name, description: "\(name) in Beirut",
            address: .init(line1: "Hamra Street 1", city: "Beirut", countryCode: "LB", location: point), categories: categories)
    }

    func createRestaurant(_ name: String, token: String, at point: SoukV1.GeoPoint = beirut, categories: [String] = ["pizza"]) async throws
        -> SoukV1.Restaurant
    {
        try await catalog("CreateRestaurant", SoukV1.CreateRestaurantRequest(
            marketplaceID: market.id, requestID: RecordID.generate().description, restaurant: restaurantInput(name, at: point, categories: categories)),
            token: token)
    }

    /// An approved, open restaurant and its owner's token.
    func openRestaurant(_ name: String, at point: SoukV1.GeoPoint = beirut, categories: [String] = ["pizza"]) async throws
        -> (restaurant: SoukV1.Restaurant, owner: String)
    {
        let email = name.lowercased().filter { $0.isASCII && $0.isLetter } + "@dineswift.example"
        let owner = try await pendingOwner(email)
        let created = try await createRestaurant(name, token: owner.token, at: point, categories: categories)
        let approved: SoukV1.Restaurant = try await catalog("ApproveRestaurant", SoukV1.ApproveRestaurantRequest(
            marketplaceID: market.id, restaurantID: created.id), token: admin)
        let opened: SoukV1.Restaurant = try await catalog("UpdateRestaurant", SoukV1.UpdateRestaurantRequest(
            marketplaceID: market.id, restaurant: .init(id: approved.id, open: true), updateMask: .init(paths: ["open"])), token: owner.token)
        return (opened, owner.token)
    }

    func money(_ cents: Int64) -> SoukV1.Money { SoukV1.Money(amountMinor: cents, currencyCode: "USD") }

    /// A pizza with a required size (small +0, large +400) and up to two extras.
    func pizzaInput(_ restaurant: SoukV1.Restaurant, name: String = "Margherita Pizza", price: Int64 = 900, discountBps: Int32 = 0)
        -> SoukV1.MenuItem
    {
        SoukV1.MenuItem(
            restaurantID: restaurant.id, name: name, price: money(price), discountBps: discountBps, section: "Pizza", available: true,
            optionGroups: [
                .init(id: "size", name: "Size", required: true, minChoices: 1, maxChoices: 1,
                      choices: [.init(id: "small", name: "Small", price: money(0)), .init(id: "large", name: "Large", price: money(400))]),
                .init(id: "extras", name: "Extras", minChoices: 0, maxChoices: 2,
                      choices: [.init(id: "cheese", name: "Cheese", price: money(150)), .init(id: "olives", name: "Olives", price: money(75)),
                                .init(id: "basil", name: "Basil", price: money(25))]),
            ])
    }

    func createItem(_ item: SoukV1.MenuItem, token: String) async throws -> SoukV1.MenuItem {
        try await catalog("CreateMenuItem", SoukV1.CreateMenuItemRequest(
            marketplaceID: market.id, requestID: RecordID.generate().description, menuItem: item), token: token)
    }

    func addLine(_ item: SoukV1.MenuItem, _ options: [(String, String)], quantity: Int32 = 1, note: String = "", token: String,
                 requestID: String? = nil) async throws -> SoukV1.Cart {
        try await carts("AddCartLine", addRequest(item, options, quantity: quantity, note: note, requestID: requestID), token: token)
    }

    func addRequest(_ item: SoukV1.MenuItem, _ options: [(String, String)], quantity: Int32 = 1, note: String = "", requestID: String? = nil)
        -> SoukV1.AddCartLineRequest
    {
        SoukV1.AddCartLineRequest(
            marketplaceID: market.id, requestID: requestID ?? RecordID.generate().description,
            itemID: item.id, quantity: quantity, options: options.map { SoukV1.CartLineOption(groupID: $0.0, choiceID: $0.1) }, note: note)
    }
}
