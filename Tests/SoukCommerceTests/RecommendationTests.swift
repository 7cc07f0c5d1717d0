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

/// Recommendations: the wine's category first, then each shared food pairing, each wine once.
@Suite struct RecommendationTests {
    @Test func categoryThenEachPairingEachWineOnceAcrossPages() async throws {
        let harness = try DomainHarness(domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self], makeDomains: { identity in let payables = PayableTargets(); return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)] + CommerceDomains.mounting(Commerce(store: identity.store, payables: payables)) })
        let shop = try await harness.marketplace(slug: "chateau", vertical: .retail, currency: "MYR")
        func wine(_ name: String, _ category: SoukV1.ProductCategory, pairings: String = "", rating: Int32, stock: Int32 = 5) -> ProductRecord {
            var product = SoukStoreV1.Product()
            product.name = name
            product.category = category
            product.pairings = pairings
            product.expertRating = rating
            product.price = .init(amountMinor: 9000, currencyCode: "MYR")
            product.stock = stock
            product.available = true
            return ProductRecord(marketplaceID: shop.id, product)
        }
        let wines = [
            wine("Barbera", .red, pairings: "Lamb, hard cheese", rating: 5), wine("Merlot", .red, rating: 3),
            wine("Nebbiolo", .red, rating: 4), wine("Sold-out Syrah", .red, pairings: "lamb", rating: 5, stock: 0),
            wine("Riesling", .white, pairings: "lamb", rating: 2), wine("Chardonnay", .white, pairings: "Hard Cheese, lamb", rating: 4),
            wine("Rosé", .rose, pairings: "fish", rating: 5),
        ]
        let ids = try await harness.store.write { transaction in
            try wines.map { try transaction.insert(ProductTable.table, $0).id.description }
        }
        let expected = ["Nebbiolo", "Merlot", "Chardonnay", "Riesling"]
        var request = SoukV1.ListRecommendedProductsRequest(marketplaceID: shop.id, pageSize: 20, productID: ids[0])
        let whole: SoukV1.ListProductsResponse = try await harness.call("souk.v1.Catalog", "ListRecommendedProducts", request)
        #expect(whole.products.map(\.name) == expected)

        request.pageSize = 1
        var walked: [String] = []
        for _ in 0..<10 {
            let page: SoukV1.ListProductsResponse = try await harness.call("souk.v1.Catalog", "ListRecommendedProducts", request)
            walked += page.products.map(\.name)
            if page.nextPageToken.isEmpty { break }
            request.pageToken = page.nextPageToken
        }
        #expect(walked == expected)
        request.pageToken = "9~." + (request.pageToken.split(separator: ".").last.map(String.init) ?? "")
        let forged = await harness.error("souk.v1.Catalog", "ListRecommendedProducts", request, as: SoukV1.ListProductsResponse.self)
        #expect(forged?.code == .invalidArgument)
    }
}
