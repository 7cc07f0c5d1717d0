import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// Browsing, searching and recommending products. Each list reads one range of one index
/// (`ProductTable`); filters the range does not cover (price outside a price sort, rating,
/// featured beside a category, further search words) are checked on the records read, so a
/// page may hold fewer than `page_size` products and still carry a `next_page_token`.
extension CatalogService {
    func listProducts(_ request: SoukV1.ListProductsRequest, _ call: SoukCall) async throws -> SoukV1.ListProductsResponse {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let filter = try ProductFilterCheck(request.filter, currency: marketplace.currencyCode, &checks)
        let audience = ProductFilterCheck.audience(call, showArchived: request.showArchived, availableOnly: filter.availableOnly)
        var (index, direction, pricedRange): (Index<ProductRecord>, ScanDirection, Bool) = (ProductTable.byName, .ascending, false)
        switch request.orderBy.trimmingCharacters(in: .whitespaces).lowercased() {
        case "", "name": break
        case "price": (index, direction, pricedRange) = (ProductTable.byPrice, .ascending, true)
        case "price desc": (index, direction, pricedRange) = (ProductTable.byPrice, .descending, true)
        case "rating desc": (index, direction, pricedRange) = (ProductTable.byRating, .descending, false)
        case "create_time desc": (index, direction, pricedRange) = (ProductTable.byCreated, .descending, false)
        default: checks.add("order_by", "must be one of: name, price, price desc, rating desc, create_time desc")
        }
        try checks.finish()
        let prefix: [KeyPart] = [.string(marketplaceID.description), .string(audience.rawValue), .string(filter.facet)]
        // A price sort narrows the range itself to the price range.
        let range = pricedRange
            ? IndexRange(
                prefix: prefix, lower: filter.minPrice.map { RangeBound([.int($0)], inclusive: true) },
                upper: filter.maxPrice.map { RangeBound([.int($0)], inclusive: true) })
            : IndexRange.starting(with: prefix)
        let filters = "list;\(audience.rawValue);\(filter.stamp);order=\(index.name),\(direction)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let result = try store.list(ProductTable.table, index, range, direction: direction, page: page)
        return SoukV1.ListProductsResponse(
            products: result.items.filter { filter.matches($0.value.subject) }.map(ProductProjection.product),
            nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    func searchProducts(_ request: SoukV1.SearchProductsRequest, _ call: SoukCall) async throws -> SoukV1.ListProductsResponse {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let words = ProductText.words(request.query)
        var checks = FieldChecks()
        checks.require(!words.isEmpty, "query", "must have at least one word")
        checks.require(words.count <= 10, "query", "must have at most 10 words")
        var filter = try ProductFilterCheck(request.filter, currency: marketplace.currencyCode, &checks)
        try checks.finish()
        filter.facet = ProductTable.Facet.any
        filter.queryWords = words
        let audience = ProductFilterCheck.audience(call, showArchived: false, availableOnly: filter.availableOnly)
        // The longest word is the most selective; the index holds prefixes up to SearchText.maxPrefix.
        let key = String(words.max(by: { $0.count < $1.count })!.prefix(SearchText.maxPrefix))
        let filters = "search;\(audience.rawValue);\(words.joined(separator: " "));\(filter.stamp)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let result = try store.list(
            ProductTable.table, ProductTable.byNameWord,
            .starting(with: [.string(marketplaceID.description), .string(audience.rawValue), .string(key)]), page: page)
        return SoukV1.ListProductsResponse(
            products: result.items.filter { filter.matches($0.value.subject) }.map(ProductProjection.product),
            nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    /// Wines to suggest beside one, in groups read one after the other, each one range of an
    /// index, best expert rating first within it: listed wines of the same category, then those
    /// sharing each of its food pairings in turn. A wine already shown by an earlier group is
    /// skipped (it has the category, or an earlier pairing), and so is the wine itself. The page
    /// token carries the group and the position in it.
    func listRecommendedProducts(_ request: SoukV1.ListRecommendedProductsRequest, _ call: SoukCall) async throws
        -> SoukV1.ListProductsResponse
    {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.productID, field: "product_id")
        let product = try store.require(ProductTable.table, id, in: marketplaceID, "product")
        guard ProductView.isStaff(call) || !product.value.subject.archived else { throw RPCError.notFound("product", id.description) }
        let wine = product.value.subject
        let market = KeyPart.string(marketplaceID.description)
        let pairings = ProductText.pairings(wine.pairings)
        var groups: [(index: Index<ProductRecord>, range: IndexRange, shows: @Sendable (SoukStoreV1.Product) -> Bool)] = []
        if wine.category != .unspecified {
            groups.append((ProductTable.byRating, .starting(with: [
                market, .string(ProductTable.Audience.listed.rawValue), .string(ProductTable.Facet.category(wine.category)),
            ]), { _ in true }))
        }
        for (n, pairing) in pairings.enumerated() {
            let earlier = Set(pairings.prefix(n))
            let category = wine.category
            groups.append((ProductTable.byPairingRating, .starting(with: [market, .string(pairing)]), { other in
                (category == .unspecified || other.category != category) && earlier.isDisjoint(with: ProductText.pairings(other.pairings))
            }))
        }
        let filters = "recommended;\(id)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        var (group, storeToken) = (0, page.token)
        if let token = page.token {
            let parts = token.split(separator: "~", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let number = Int(parts[0]), number >= 0, number < max(1, groups.count) else {
                throw RPCError.invalidField("page_token", "is not a token from a previous page of this list")
            }
            (group, storeToken) = (number, parts[1].isEmpty ? nil : String(parts[1]))
        }
        var products: [SoukV1.Product] = []
        var next: String?
        while group < groups.count, products.count < page.size {
            let (index, range, shows) = groups[group]
            let result = try store.list(
                ProductTable.table, index, range, direction: .descending,
                page: PageRequest(size: page.size - products.count, token: storeToken))
            products += result.items.filter { $0.id != id && shows($0.value.subject) }.map(ProductProjection.product)
            if let more = result.nextPageToken {
                next = "\(group)~\(more)"
                break
            }
            (group, storeToken) = (group + 1, nil)
            next = group < groups.count ? "\(group)~" : nil
        }
        return SoukV1.ListProductsResponse(products: products, nextPageToken: RequestFields.nextPageToken(next, filters: filters))
    }
}

/// A checked `ProductFilter`: the facet the index narrows to and what is checked on the records.
struct ProductFilterCheck {
    var facet: String
    var category: SoukV1.ProductCategory
    var minPrice: Int64?
    var maxPrice: Int64?
    var minRating: Int32
    var featuredOnly: Bool
    var availableOnly: Bool
    var queryWords: [String] = []

    init(_ filter: SoukV1.ProductFilter?, currency: String) throws {
        var checks = FieldChecks()
        try self.init(filter, currency: currency, &checks)
        try checks.finish()
    }

    /// Records every bad field of the filter in `checks` (the caller finishes them).
    init(_ filter: SoukV1.ProductFilter?, currency: String, _ checks: inout FieldChecks) throws {
        let filter = filter ?? SoukV1.ProductFilter()
        for (field, money) in [("filter.min_price", filter.minPrice), ("filter.max_price", filter.maxPrice)] {
            guard let money else { continue }
            checks.require(money.amountMinor >= 0, field, "must not be negative")
            checks.require(
                money.currencyCode.isEmpty || money.currencyCode == currency, field, "must be in the marketplace's currency, \(currency)")
        }
        minPrice = filter.minPrice?.amountMinor
        maxPrice = filter.maxPrice?.amountMinor
        if let minPrice, let maxPrice, minPrice > maxPrice { checks.add("filter.max_price", "must not be below filter.min_price") }
        checks.require((0...5).contains(filter.minExpertRating), "filter.min_expert_rating", "must be 1 to 5")
        minRating = filter.minExpertRating
        category = filter.category
        featuredOnly = filter.featuredOnly
        availableOnly = filter.availableOnly
        facet = category != .unspecified ? ProductTable.Facet.category(category)
            : featuredOnly ? ProductTable.Facet.featured : ProductTable.Facet.any
    }

    /// Which entries the caller reads: guests and customers only listed products.
    static func audience(_ call: SoukCall, showArchived: Bool, availableOnly: Bool) -> ProductTable.Audience {
        guard ProductView.isStaff(call), !availableOnly else { return .listed }
        return showArchived ? .all : .active
    }

    /// The filters as text, for page tokens.
    var stamp: String {
        "cat=\(category.rawValue);min=\(minPrice.map(String.init) ?? "");max=\(maxPrice.map(String.init) ?? "");rating=\(minRating);"
            + "featured=\(featuredOnly);available=\(availableOnly)"
    }

    func matches(_ product: SoukStoreV1.Product) -> Bool {
        let price = product.price.minor
        if category != .unspecified, product.category != category { return false }
        if let minPrice, price < minPrice { return false }
        if let maxPrice, price > maxPrice { return false }
        if product.expertRating < minRating { return false }
        if featuredOnly, !product.featured { return false }
        return SearchWords.match(queryWords, in: product.name)
    }
}
