import Foundation
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// A retail product as stored: its own record (`souk.store.v1.Product`, without the id, version
/// and times, which the envelope holds) and its marketplace. RPCs answer with `ProductProjection`.
typealias ProductRecord = MarketRecord<SoukStoreV1.Product>

/// Retail products and the indexes their browsing reads. Every list is one range of one index:
/// each browsing index has, per product, one entry per audience it is shown to (`Audience`) and
/// per facet it can be narrowed to (`Facet`), then the sort key; entries end with the product's
/// version 7 id, so ties (and "create_time desc") follow creation order.
enum ProductTable {
    static let byMarketplace = Index<ProductRecord>.nonUnique("products.marketplace") { [.string($0.marketplaceID)] }
    static let byName = browsing("products.name") { [.string(ProductText.sortKey($0.name))] }
    static let byPrice = browsing("products.price") { [.int($0.price.minor)] }
    static let byRating = browsing("products.rating") { [.int(Int64($0.expertRating))] }
    static let byCreated = browsing("products.created") { _ in [] }
    /// Search: one entry per prefix of each normalized name word, then the name.
    static let byNameWord = Index<ProductRecord>.nonUnique("products.name_word") { record in
        let name = ProductText.sortKey(record.subject.name)
        return Audience.of(record.subject).flatMap { audience in
            ProductText.wordPrefixes(record.subject.name).map {
                [.string(record.marketplaceID), .string(audience.rawValue), .string($0), .string(name)]
            }
        }
    }

    /// Recommendations: listed products by each of their food pairings, best expert rating first
    /// in a descending scan.
    static let byPairingRating = Index<ProductRecord>.nonUnique("products.pairing_rating") { record in
        guard ProductRules.isListed(record.subject) else { return [] }
        return ProductText.pairings(record.subject.pairings).map {
            [.string(record.marketplaceID), .string($0), .int(Int64(record.subject.expertRating))]
        }
    }

    static let table = marketTable(
        "products", SoukStoreV1.Product.self, indexes: [byMarketplace, byName, byPrice, byRating, byCreated, byNameWord, byPairingRating],
        sameIndexEntries: { indexed($0) == indexed($1) })

    /// A product as its indexes read it: the stock only as in stock or not, so that a sale
    /// which leaves some stock rewrites no index entry.
    private static func indexed(_ record: ProductRecord) -> ProductRecord {
        var record = record
        record.subject.stock = record.subject.stock > 0 ? 1 : 0
        return record
    }

    static var all: [AnyTable] { [table.erased] }

    /// An index (marketplace, audience, facet, sort key…).
    private static func browsing(_ name: String, sortKey: @escaping @Sendable (SoukStoreV1.Product) -> [KeyPart]) -> Index<ProductRecord> {
        Index<ProductRecord>.nonUnique(name) { record in
            let product = record.subject
            return Audience.of(product).flatMap { audience in
                Facet.of(product).map { facet in
                    [.string(record.marketplaceID), .string(audience.rawValue), .string(facet)] + sortKey(product)
                }
            }
        }
    }

    /// Who a product is listed for: guests and customers see only `listed` products (not
    /// archived, available, in stock); staff see `active` ones (not archived) or, asking for
    /// archived ones too, `all`.
    enum Audience: String, Sendable {
        case listed, active, all

        static func of(_ product: SoukStoreV1.Product) -> [Audience] {
            var audiences: [Audience] = [.all]
            if !product.archived { audiences.append(.active) }
            if ProductRules.isListed(product) { audiences.append(.listed) }
            return audiences
        }
    }

    /// What a list can be narrowed to by the index itself: everything, one category, the
    /// featured wines.
    enum Facet {
        static let any = "any"
        static let featured = "featured"
        static func category(_ category: SoukV1.ProductCategory) -> String { "category:\(category.rawValue)" }

        static func of(_ product: SoukStoreV1.Product) -> [String] {
            var facets = [any]
            if product.category != .unspecified { facets.append(category(product.category)) }
            if product.featured { facets.append(featured) }
            return facets
        }
    }
}

/// The rules that decide what a product shows.
enum ProductRules {
    /// Whether guests and customers see it and may buy it.
    static func isListed(_ product: SoukStoreV1.Product) -> Bool {
        !product.archived && product.available && product.stock > 0
    }
}

extension SoukStoreV1.Product: ArchivableRecord {}
