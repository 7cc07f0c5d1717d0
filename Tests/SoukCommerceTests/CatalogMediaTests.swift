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

/// Catalog pictures are media references: attached when a product names them (so guests may read
/// them and the purge keeps them), detached when it no longer does.
@Suite struct CatalogMediaTests {
    let harness: DomainHarness

    init() throws {
        harness = try DomainHarness(domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self], makeDomains: { identity in let payables = PayableTargets(); return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)] + CommerceDomains.mounting(Commerce(store: identity.store, payables: payables)) })
    }

    func upload(_ shop: SoukV1.Marketplace, contentType: String) async throws -> RecordID {
        let marketplaceID = try #require(RecordID(shop.id))
        return try await harness.store.write { transaction in
            try transaction.insert(MediaTable.table, MediaRecord(
                marketplaceID: marketplaceID, ownerAccountID: RecordID.generate(), contentType: contentType, sizeBytes: 10,
                sha256: Array(repeating: 1, count: 32), fileName: "bottle", purpose: .unspecified, references: [],
                unreferencedSince: transaction.now)).id
        }
    }

    @Test func aProductsPicturesAreAttachedAndDetached() async throws {
        let shop = try await harness.marketplace(slug: "chateau", vertical: .retail, currency: "MYR")
        let staff = try await harness.token(.provider, in: shop)
        let bottle = try await upload(shop, contentType: "image/png")
        let leaflet = try await upload(shop, contentType: "application/pdf")
        var wine = SoukV1.Product()
        wine.name = "Barbera d'Alba"
        wine.price = .init(amountMinor: 8990, currencyCode: "MYR")
        wine.stock = 3
        wine.available = true
        wine.imageMediaIDs = [bottle.description, leaflet.description]
        let notImage = await harness.error(
            "souk.v1.Catalog", "CreateProduct", SoukV1.CreateProductRequest(marketplaceID: shop.id, requestID: "p0", product: wine), token: staff,
            as: SoukV1.Product.self)
        #expect(notImage?.code == .invalidArgument && notImage?.fieldViolations.first?.field == "product.image_media_ids[1]")

        wine.imageMediaIDs = [bottle.description]
        let created: SoukV1.Product = try await harness.call(
            "souk.v1.Catalog", "CreateProduct", SoukV1.CreateProductRequest(marketplaceID: shop.id, requestID: "p1", product: wine), token: staff)
        var media = try #require(try harness.store.get(MediaTable.table, bottle))
        #expect(media.value.unreferencedSince == nil && media.value.references.map(\.referrer.id) == [created.id])
        #expect(media.value.references.first?.visibility == .marketplace)

        var change = SoukV1.Product()
        change.id = created.id
        let _: SoukV1.Product = try await harness.call(
            "souk.v1.Catalog", "UpdateProduct",
            SoukV1.UpdateProductRequest(marketplaceID: shop.id, product: change, updateMask: .init(paths: ["image_media_ids"])), token: staff)
        media = try #require(try harness.store.get(MediaTable.table, bottle))
        #expect(media.value.references.isEmpty && media.value.unreferencedSince != nil)
    }
}
