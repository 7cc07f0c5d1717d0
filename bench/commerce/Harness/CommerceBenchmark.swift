import ArgumentParser
import Foundation
import SoukCommerce
import SoukKit
import SoukMessages
import SoukStore
import SoukStoreFixtures
import SoukTesting

/// Commerce benchmark: checkouts per second with durable writes at 1, 16 and 64 concurrent
/// customers beside the store's durable creates at the same concurrency (the same record as
/// `bench/store`), and the p99 of a catalog page at 10 thousand and 1 million products.
/// Calls go through the same handlers, interceptors and checks as on the server, without the
/// network (the transport is measured by `bench/compare`).
@main
struct CommerceBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "souk-commerce-bench", abstract: "Commerce benchmark (use a release build).")

    @Option(help: "Seconds per measurement.") var seconds = 5
    @Option(help: "Products of the large catalog.") var large = 1_000_000
    @Option(help: "Products of the small catalog.") var small = 10_000
    @Option(help: "A directory on the disk to measure (fsync figures depend on it).") var dataDir: String

    func run() async throws {
        print("commerce benchmark: \(seconds) s per measurement, catalogs of \(small) and \(large) products, data in \(dataDir)")
        try await checkouts()
        try await catalogPages()
    }

    /// A harness over a store whose every commit is fsynced.
    func harness(_ name: String) throws -> DomainHarness {
        try DomainHarness(
            directory: TemporaryDirectory(at: dataDir + "/" + name), domainTypes: [Commerce.self],
            configureStore: { configuration in
                configuration.syncPolicy = .syncEveryCommit
                configuration.blockCacheBytes = 256 << 20
                configuration.writeBufferBytes = 64 << 20
                configuration.clock = { StoreTime.now() }
            },
            makeDomains: { identity in [Commerce(store: identity.store)] })
    }

    static let settings = SoukV1.MarketplaceSettings(commerce: .init(
        taxRateBps: 2600, shippingFee: .init(amountMinor: 5990, currencyCode: "MYR"), maxQuantityPerCartLine: 12,
        acceptedPaymentMethods: [.card]))

    // MARK: Checkouts

    func checkouts() async throws {
        print("\ncheckouts (add a cart line, then check out with a test card token; every commit fsynced):")
        let harness = try harness("checkouts")
        let shop = try await harness.marketplace(slug: "bench-shop", vertical: .retail, currency: "MYR", settings: Self.settings)
        let products = try await loadProducts(harness.store, marketplaceID: shop.id, count: 1000, stock: 1_000_000)
        var signedIn: [String] = []
        for n in 0..<64 { signedIn.append(try await harness.token(.customer, in: shop, email: "customer\(n)@bench.example")) }
        let tokens = signedIn

        let creates = try Store(createsConfiguration(), schema: Schema(SampleSchema.benchJobs))
        for workers in [1, 16, 64] {
            let checkoutRate = try await rate(workers: workers) { worker, n in
                let token = tokens[worker]
                let product = products[(worker * 7919 + n * 104_729) % products.count]
                let cart: SoukV1.Cart = try await harness.call("souk.v1.Carts", "GetCart", SoukV1.GetCartRequest(marketplaceID: shop.id), token: token)
                let added: SoukV1.Cart = try await harness.call("souk.v1.Carts", "AddCartLine", SoukV1.AddCartLineRequest(
                    marketplaceID: shop.id, requestID: "add-\(worker)-\(n)-\(workers)", itemID: product.description, quantity: 2,
                    expectedVersion: cart.version), token: token)
                let _: SoukV1.Order = try await harness.call("souk.v1.Orders", "Checkout", SoukV1.CheckoutRequest(
                    marketplaceID: shop.id, requestID: "checkout-\(worker)-\(n)-\(workers)", expectedCartVersion: added.version,
                    address: .init(choice: .address(.init(line1: "1 Jalan Bench", city: "Kuala Lumpur", countryCode: "MY"))),
                    addressConfirmed: true, payment: .init(method: .cardToken("tok_visa"))), token: token)
            }
            let createRate = try await rate(workers: workers) { worker, n in
                let job = SampleJob(marketplace: "w", dorm: "d\(n % 20)", owner: "o\(worker)", loads: Int64(n), note: "durable create")
                _ = try await creates.write { tx in try tx.insert(SampleSchema.benchJobs, job) }
            }
            print("  \(workers) customer(s): \(Int(checkoutRate)) checkouts/s; store durable creates \(Int(createRate))/s; "
                + "ratio \(String(format: "%.2f", checkoutRate / createRate)) (goal ≥ 0.5)")
        }
        await creates.close()
    }

    func createsConfiguration() -> StoreConfiguration {
        var configuration = StoreConfiguration(path: dataDir + "/creates")
        configuration.syncPolicy = .syncEveryCommit
        return configuration
    }

    /// Calls per second of `operation` run by `workers` concurrent tasks for `seconds`.
    func rate(workers: Int, _ operation: @escaping @Sendable (Int, Int) async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        let deadline = start + .seconds(seconds)
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var n = 0
                    while ContinuousClock.now < deadline {
                        try await operation(worker, n)
                        n += 1
                    }
                    return n
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(total) / (ContinuousClock.now - start).seconds
    }

    // MARK: Catalog pages

    func catalogPages() async throws {
        print("\ncatalog pages (ListProducts as a guest, 20 wines ordered by price from a random minimum price):")
        let harness = try harness("catalog")
        var p99s: [Double] = []
        for (slug, count) in [("bench-small", small), ("bench-large", large)] {
            let shop = try await harness.marketplace(slug: slug, vertical: .retail, currency: "MYR", settings: Self.settings)
            let loadStart = ContinuousClock.now
            _ = try await loadProducts(harness.store, marketplaceID: shop.id, count: count, stock: 10)
            try await harness.store.flush()
            // Warm the cache as a running shop's would be.
            _ = try await pageLatencies(harness, shop, seconds: 2)
            let latencies = try await pageLatencies(harness, shop, seconds: seconds).sorted()
            let p50 = latencies[latencies.count / 2]
            let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
            p99s.append(p99)
            print("  \(count) products (loaded in \(Int((ContinuousClock.now - loadStart).seconds)) s): "
                + "\(Int(Double(latencies.count) / Double(seconds))) pages/s, p50 \(Int(p50 * 1e6)) µs, p99 \(Int(p99 * 1e6)) µs")
        }
        print("  p99 at \(large) / p99 at \(small): \(String(format: "%.2f", p99s[1] / p99s[0])) (goal ≤ 1.5)")
    }

    func pageLatencies(_ harness: DomainHarness, _ shop: SoukV1.Marketplace, seconds: Int) async throws -> [Double] {
        var latencies: [Double] = []
        let deadline = ContinuousClock.now + .seconds(seconds)
        var random = SystemRandomNumberGenerator()
        while ContinuousClock.now < deadline {
            let minimum = Int64.random(in: 1000...99_000, using: &random)
            let start = ContinuousClock.now
            let page: SoukV1.ListProductsResponse = try await harness.call("souk.v1.Catalog", "ListProducts", SoukV1.ListProductsRequest(
                marketplaceID: shop.id, filter: .init(minPrice: .init(amountMinor: minimum, currencyCode: "MYR")), orderBy: "price"))
            latencies.append((ContinuousClock.now - start).seconds)
            precondition(!page.products.isEmpty || minimum > 95_000, "an empty page from \(minimum)")
        }
        return latencies
    }

    /// Stores `count` wines directly (1,000 per transaction), with prices spread over RM 10–1,000.
    func loadProducts(_ store: Store, marketplaceID: String, count: Int, stock: Int32) async throws -> [RecordID] {
        let categories: [SoukV1.ProductCategory] = [.red, .white, .rose, .sparkling, .dessert, .fortified]
        var ids: [RecordID] = []
        for batch in stride(from: 0, to: count, by: 1000).map({ $0..<min(count, $0 + 1000) }) {
            ids += try await store.write { transaction in
                try batch.map { n in
                    var product = SoukV1.Product()
                    product.name = "Bench Wine \(n)"
                    product.category = categories[n % categories.count]
                    product.price = .init(amountMinor: Int64(1000 + (n * 7919) % 99_000), currencyCode: "MYR")
                    product.stock = stock
                    product.available = true
                    product.expertRating = Int32(1 + n % 5)
                    return try transaction.insert(ProductTable.table, ProductRecord(marketplaceID: marketplaceID, product)).id
                }
            }
        }
        return ids
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
