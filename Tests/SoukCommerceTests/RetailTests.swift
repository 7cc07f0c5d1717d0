import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

import SoukCommerceTesting
@testable import SoukFood
@testable import SoukOrders
@testable import SoukShops
@testable import SoukPayments
@testable import SoukNotifications

/// The Chateau Du Nox journey through the contract: browsing, carts, checkout and the order's life.
@Suite struct RetailTests {
    let harness: DomainHarness

    init() throws {
        harness = try DomainHarness(domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self], makeDomains: { identity in let payables = PayableTargets(); return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)] + CommerceDomains.mounting(Commerce(store: identity.store, payables: payables)) })
    }

    func shop() async throws -> SoukV1.Marketplace {
        try await harness.marketplace(
            slug: "chateau-du-nox", vertical: .retail, currency: "MYR",
            settings: .init(commerce: .init(
                taxRateBps: 2600, shippingFee: .init(amountMinor: 5990, currencyCode: "MYR"), maxQuantityPerCartLine: 12,
                acceptedPaymentMethods: [.card])))
    }

    func product(
        _ shop: SoukV1.Marketplace, _ name: String, price: Int64, stock: Int32, category: SoukV1.ProductCategory = .red, token: String
    ) async throws -> SoukV1.Product {
        try await harness.call("souk.v1.Catalog", "CreateProduct", SoukV1.CreateProductRequest(
            marketplaceID: shop.id, requestID: RecordID.generate().description,
            product: .init(name: name, category: category, price: .init(amountMinor: price, currencyCode: "MYR"), stock: stock, available: true)),
            token: token)
    }

    func add(_ shop: SoukV1.Marketplace, _ product: SoukV1.Product, _ quantity: Int32, token: String) async throws -> SoukV1.Cart {
        try await harness.call("souk.v1.Carts", "AddCartLine", SoukV1.AddCartLineRequest(
            marketplaceID: shop.id, requestID: "add-\(product.id)-\(quantity)", itemID: product.id, quantity: quantity), token: token)
    }

    func checkoutRequest(_ shop: SoukV1.Marketplace, _ requestID: String, card: String = "tok_visa") -> SoukV1.CheckoutRequest {
        SoukV1.CheckoutRequest(
            marketplaceID: shop.id, requestID: requestID,
            address: .init(choice: .address(.init(recipientName: "Aisyah", line1: "12 Jalan Ampang", city: "Kuala Lumpur", countryCode: "MY"))),
            addressConfirmed: true, payment: .init(method: .cardToken(card)))
    }

    @Test func taxRoundsHalfAwayFromZero() {
        #expect(RetailPricing.tax(26970, bps: 2600) == 7012)
        #expect(RetailPricing.tax(1, bps: 5000) == 1)
        #expect(RetailPricing.tax(-1, bps: 5000) == -1)
        #expect(RetailPricing.tax(3, bps: 1000) == 0)
    }

    @Test func cartTotalsAreExactToTheSen() async throws {
        let shop = try await shop()
        let staff = try await harness.token(.provider, in: shop)
        let customer = try await harness.token(.customer, in: shop)
        let barbera = try await product(shop, "Barbera d'Alba", price: 8990, stock: 20, token: staff)
        let cart = try await add(shop, barbera, 3, token: customer)
        let price = try #require(cart.price)
        #expect(price.subtotal?.amountMinor == 26970 && price.taxRateBps == 2600 && price.tax?.amountMinor == 7012)
        #expect(price.fees.map(\.kind) == [.shipping] && price.fees.first?.amount?.amountMinor == 5990)
        #expect(price.total?.amountMinor == 39972 && price.total?.currencyCode == "MYR")
        #expect(cart.lines.first?.name == "Barbera d'Alba" && cart.lines.first?.purchasable == true)
        let guest = await harness.error("souk.v1.Carts", "GetCart", SoukV1.GetCartRequest(marketplaceID: shop.id), as: SoukV1.Cart.self)
        #expect(guest?.code == .unauthenticated)
    }

    @Test func aLineHoldsAtMostTwelveAndAProductOnce() async throws {
        let shop = try await shop()
        let staff = try await harness.token(.provider, in: shop)
        let customer = try await harness.token(.customer, in: shop)
        let barbera = try await product(shop, "Barbera d'Alba", price: 8990, stock: 40, token: staff)
        let tooMany = await harness.error("souk.v1.Carts", "AddCartLine", SoukV1.AddCartLineRequest(
            marketplaceID: shop.id, requestID: "a13", itemID: barbera.id, quantity: 13), token: customer, as: SoukV1.Cart.self)
        #expect(tooMany?.code == .invalidArgument && tooMany?.soukReason == .quantityLimit && tooMany?.message.contains("quantity") == true)
        _ = try await add(shop, barbera, 12, token: customer)
        let again = await harness.error("souk.v1.Carts", "AddCartLine", SoukV1.AddCartLineRequest(
            marketplaceID: shop.id, requestID: "a-again", itemID: barbera.id, quantity: 1), token: customer, as: SoukV1.Cart.self)
        #expect(again?.code == .alreadyExists && again?.soukReason == .cartLineExists && again?.message.contains("Barbera d'Alba") == true)
    }

    @Test func aDeclinedCardLeavesCartAndStockAsTheyWere() async throws {
        let shop = try await shop()
        let staff = try await harness.token(.provider, in: shop)
        let customer = try await harness.token(.customer, in: shop)
        let barbera = try await product(shop, "Barbera d'Alba", price: 8990, stock: 5, token: staff)
        let before = try await add(shop, barbera, 2, token: customer)
        let declined = await harness.error("souk.v1.Orders", "Checkout", checkoutRequest(shop, "c1", card: "tok_decline"), token: customer, as: SoukV1.Order.self)
        #expect(declined?.code == .failedPrecondition && declined?.soukReason == .paymentDeclined)
        let after: SoukV1.Cart = try await harness.call("souk.v1.Carts", "GetCart", SoukV1.GetCartRequest(marketplaceID: shop.id), token: customer)
        #expect(after == before)
        let stock: SoukV1.Product = try await harness.call("souk.v1.Catalog", "GetProduct", SoukV1.GetProductRequest(marketplaceID: shop.id, productID: barbera.id))
        #expect(stock.stock == 5)
        let payments = try harness.store.list(PaymentTable.table, PaymentTable.byMarketplace, .starting(with: [.string(shop.id)]))
        #expect(payments.items.isEmpty)
    }

    @Test func aRetriedCheckoutGivesOneOrderAndOneCharge() async throws {
        let shop = try await shop()
        let staff = try await harness.token(.provider, in: shop)
        let customer = try await harness.token(.customer, in: shop)
        let barbera = try await product(shop, "Barbera d'Alba", price: 8990, stock: 5, token: staff)
        _ = try await add(shop, barbera, 3, token: customer)
        let order: SoukV1.Order = try await harness.call("souk.v1.Orders", "Checkout", checkoutRequest(shop, "c1"), token: customer)
        let again: SoukV1.Order = try await harness.call("souk.v1.Orders", "Checkout", checkoutRequest(shop, "c1"), token: customer)
        #expect(again.id == order.id && order.status == .pending && order.orderNumber.hasPrefix("TCDN-"))
        #expect(order.price?.total?.amountMinor == 39972 && order.paymentStatus == .successful && order.paymentMethod == .card)
        let payments = try harness.store.list(PaymentTable.table, PaymentTable.byMarketplace, .starting(with: [.string(shop.id)]))
        #expect(payments.items.count == 1)
        let stock: SoukV1.Product = try await harness.call("souk.v1.Catalog", "GetProduct", SoukV1.GetProductRequest(marketplaceID: shop.id, productID: barbera.id))
        #expect(stock.stock == 2)
        let cart: SoukV1.Cart = try await harness.call("souk.v1.Carts", "GetCart", SoukV1.GetCartRequest(marketplaceID: shop.id), token: customer)
        #expect(cart.lines.isEmpty)
        // The shop ships, records delivery; the customer confirms receipt.
        let shipped: SoukV1.Order = try await harness.call("souk.v1.Orders", "ShipOrder", SoukV1.ShipOrderRequest(
            marketplaceID: shop.id, orderID: order.id, shippingCarrier: "Pos Laju", trackingNumber: "EP123MY"), token: staff)
        #expect(shipped.status == .shipped && shipped.trackingNumber == "EP123MY")
        let early = await harness.error("souk.v1.Orders", "ConfirmOrderReceived", SoukV1.ConfirmOrderReceivedRequest(
            marketplaceID: shop.id, orderID: order.id), token: customer, as: SoukV1.Order.self)
        #expect(early?.code == .failedPrecondition)
        let delivered: SoukV1.Order = try await harness.call("souk.v1.Orders", "DeliverOrder", SoukV1.DeliverOrderRequest(
            marketplaceID: shop.id, orderID: order.id), token: staff)
        #expect(delivered.status == .delivered && delivered.deliverTime != nil)
        let received: SoukV1.Order = try await harness.call("souk.v1.Orders", "ConfirmOrderReceived", SoukV1.ConfirmOrderReceivedRequest(
            marketplaceID: shop.id, orderID: order.id), token: customer)
        #expect(received.status == .received && received.receiveTime != nil)
        // Every move told the customer: placed, shipped, delivered, received.
        let notes = try harness.store.list(
            NotificationTable.table, NotificationTable.byAccount, .starting(with: [.string(shop.id), .string(order.customerAccountID)]))
        #expect(notes.items.map(\.value.subject.title) == ["placed", "shipped", "delivered", "received"].map { "Order \(order.orderNumber) \($0)" })
    }

    @Test func twoCustomersRacingForTheLastBottleMakeOneOrder() async throws {
        let shop = try await shop()
        let staff = try await harness.token(.provider, in: shop)
        let last = try await product(shop, "Tokaji Aszu", price: 25900, stock: 1, category: .dessert, token: staff)
        var tokens: [String] = []
        for index in 0..<8 {
            let token = try await harness.token(.customer, in: shop, email: "racer\(index)@chateau.example")
            _ = try await add(shop, last, 1, token: token)
            tokens.append(token)
        }
        let harness = harness
        let request = checkoutRequest(shop, "race")
        let outcomes = await withTaskGroup(of: RPCError?.self) { group in
            for token in tokens {
                group.addTask { await harness.error("souk.v1.Orders", "Checkout", request, token: token, as: SoukV1.Order.self) }
            }
            return await group.reduce(into: [RPCError?]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.compactMap { $0 }.allSatisfy { $0.code == .failedPrecondition && $0.soukReason == .outOfStock })
        let stored = try #require(try harness.store.get(ProductTable.table, RecordID(last.id)!))
        #expect(stored.value.subject.stock == 0)
    }

    @Test func guestsBrowseOnlyListedWinesWithFiltersSortsAndSearch() async throws {
        let shop = try await shop()
        let staff = try await harness.token(.provider, in: shop)
        _ = try await product(shop, "Château Margaux", price: 89900, stock: 3, token: staff)
        _ = try await product(shop, "Barbera d'Alba", price: 8990, stock: 10, token: staff)
        _ = try await product(shop, "Chablis", price: 21900, stock: 10, category: .white, token: staff)
        _ = try await product(shop, "Sold Out Merlot", price: 6990, stock: 0, token: staff)
        let all: SoukV1.ListProductsResponse = try await harness.call("souk.v1.Catalog", "ListProducts", SoukV1.ListProductsRequest(marketplaceID: shop.id))
        #expect(all.products.map(\.name) == ["Barbera d'Alba", "Chablis", "Château Margaux"])
        let staffView: SoukV1.ListProductsResponse = try await harness.call(
            "souk.v1.Catalog", "ListProducts", SoukV1.ListProductsRequest(marketplaceID: shop.id), token: staff)
        #expect(staffView.products.count == 4 && staffView.products.first { $0.stock == 0 }?.available == false)
        let reds: SoukV1.ListProductsResponse = try await harness.call("souk.v1.Catalog", "ListProducts", SoukV1.ListProductsRequest(
            marketplaceID: shop.id, filter: .init(category: .red, maxPrice: .init(amountMinor: 50000, currencyCode: "MYR")), orderBy: "price desc"))
        #expect(reds.products.map(\.name) == ["Barbera d'Alba"])
        let byPrice: SoukV1.ListProductsResponse = try await harness.call("souk.v1.Catalog", "ListProducts", SoukV1.ListProductsRequest(
            marketplaceID: shop.id, pageSize: 2, orderBy: "price"))
        #expect(byPrice.products.map(\.name) == ["Barbera d'Alba", "Chablis"] && !byPrice.nextPageToken.isEmpty)
        let otherFilters = await harness.error("souk.v1.Catalog", "ListProducts", SoukV1.ListProductsRequest(
            marketplaceID: shop.id, pageToken: byPrice.nextPageToken, orderBy: "name"), as: SoukV1.ListProductsResponse.self)
        #expect(otherFilters?.code == .invalidArgument)
        let found: SoukV1.ListProductsResponse = try await harness.call("souk.v1.Catalog", "SearchProducts", SoukV1.SearchProductsRequest(
            marketplaceID: shop.id, query: "chat MAR"))
        #expect(found.products.map(\.name) == ["Château Margaux"])
    }
}
