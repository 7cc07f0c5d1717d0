import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

extension CommerceDemo {
    /// Chateau Du Nox's cellar. The report names the Barbera and describes each wine's detail view
    /// (grapes cover, bottle, tasting notes, pairings, connoisseur rating, price in RM); the other
    /// wines fill that view the way the shop's menu does. Prices are MYR minor units (sen).
    func loadChateauDuNox(_ demo: DemoContext) async throws {
        guard let marketplace = demo.marketplaces["chateau-du-nox"], let marketplaceID = RecordID(marketplace.id) else { return }
        let reviewer = demo.accounts["chateau-du-nox"]?[.provider]?.description ?? ""
        let market = marketplaceID.description
        let store = commerce.store
        // One wine per transaction (a wine with its search entries is up to about 120 keys; the
        // cellar at once exceeds etcd's default 128 writes per commit), added only when the cellar
        // has no product of that name, archived ones included: a load cut off halfway is completed
        // by the next one, and a second load adds nothing.
        for wine in Self.chateauDuNoxWines(currency: marketplace.currencyCode, reviewer: reviewer) {
            let sameName = try store.list(
                ProductTable.table, ProductTable.byName,
                .starting(with: [.string(market), .string(ProductTable.Audience.all.rawValue), .string(ProductTable.Facet.any),
                                 .string(ProductText.sortKey(wine.name))]))
            guard !sameName.items.contains(where: { $0.value.subject.name == wine.name }) else { continue }
            try await store.write { transaction in
                _ = try transaction.insert(ProductTable.table, ProductRecord(marketplaceID: market, wine))
            }
        }
    }

    static func chateauDuNoxWines(currency: String, reviewer: String) -> [SoukStoreV1.Product] {
        func wine(
            _ name: String, _ category: SoukV1.ProductCategory, grape: String, region: String, vintage: Int32, price: Int64, stock: Int32,
            notes: String, pairings: String, rating: Int32, review: String, featured: Bool = false
        ) -> SoukStoreV1.Product {
            var product = SoukStoreV1.Product()
            product.name = name
            product.description = "\(grape) from \(region)" + (vintage > 0 ? ", \(vintage)." : ", non-vintage.")
            product.tastingNotes = notes
            product.pairings = pairings
            product.category = category
            product.grape = grape
            product.region = region
            product.vintage = vintage
            product.price = SoukV1.Money(amountMinor: price, currencyCode: currency)
            product.stock = stock
            product.available = true
            product.expertRating = rating
            product.expertReview = review
            product.reviewerAccountID = reviewer
            product.featured = featured
            return product
        }
        return [
            wine("Barbera d'Alba", .red, grape: "Barbera", region: "Piedmont", vintage: 2021, price: 8990, stock: 48,
                 notes: "Sour cherry, plum and a touch of spice; bright acidity, soft tannins.", pairings: "pizza, tomato pasta, salami",
                 rating: 4, review: "The house favourite: lively and food-friendly.", featured: true),
            wine("Château Margaux Pavillon Rouge", .red, grape: "Cabernet Sauvignon", region: "Bordeaux", vintage: 2018, price: 89900, stock: 6,
                 notes: "Blackcurrant, cedar and violets; polished, long finish.", pairings: "lamb, beef, hard cheese",
                 rating: 5, review: "A grand vin's little brother with real class.", featured: true),
            wine("Cloudy Bay Sauvignon Blanc", .white, grape: "Sauvignon Blanc", region: "Marlborough", vintage: 2023, price: 16900, stock: 36,
                 notes: "Passion fruit, lime zest and cut grass.", pairings: "seafood, goat cheese, salad",
                 rating: 4, review: "Crisp and aromatic, made for our climate."),
            wine("Chablis Premier Cru", .white, grape: "Chardonnay", region: "Burgundy", vintage: 2020, price: 21900, stock: 18,
                 notes: "Green apple, lemon and flint; mineral and taut.", pairings: "oysters, fish, chicken",
                 rating: 5, review: "Textbook Chablis: steely and precise.", featured: true),
            wine("Whispering Angel Rosé", .rose, grape: "Grenache", region: "Provence", vintage: 2023, price: 12900, stock: 30,
                 notes: "Strawberry, peach and white flowers; dry and fresh.", pairings: "salad, seafood, satay",
                 rating: 4, review: "Pale, dry and endlessly drinkable."),
            wine("Moët & Chandon Impérial Brut", .sparkling, grape: "Pinot Noir, Chardonnay, Pinot Meunier", region: "Champagne", vintage: 0,
                 price: 27900, stock: 24, notes: "Green apple, brioche and citrus; fine bubbles.", pairings: "canapés, sushi, fried chicken",
                 rating: 4, review: "Reliable celebration Champagne."),
            wine("Penfolds Bin 389", .red, grape: "Cabernet Shiraz", region: "South Australia", vintage: 2020, price: 39900, stock: 12,
                 notes: "Dark berries, mocha and oak; full-bodied.", pairings: "beef rendang, steak, lamb",
                 rating: 5, review: "Baby Grange: powerful yet balanced."),
            wine("Tokaji Aszú 5 Puttonyos", .dessert, grape: "Furmint", region: "Tokaj", vintage: 2016, price: 25900, stock: 8,
                 notes: "Apricot, honey and orange peel; luscious with vivid acidity.", pairings: "blue cheese, fruit tart, foie gras",
                 rating: 5, review: "Liquid gold, never cloying."),
            wine("Graham's 10 Year Old Tawny Port", .fortified, grape: "Touriga Nacional", region: "Douro", vintage: 0, price: 18900, stock: 10,
                 notes: "Fig, caramel and toasted nuts.", pairings: "chocolate, hard cheese, nuts",
                 rating: 4, review: "A warming after-dinner classic."),
            wine("Yellow Tail Merlot", .red, grape: "Merlot", region: "South Eastern Australia", vintage: 2022, price: 6990, stock: 0,
                 notes: "Plum and cherry, soft and easy.", pairings: "burgers, pasta",
                 rating: 3, review: "Simple, friendly, good value."),
        ]
    }
}
