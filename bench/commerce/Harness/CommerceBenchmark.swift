import ArgumentParser
import Foundation
import SoukNotifications
import SoukPayments
import Synchronization
import SoukCommerceTesting
import SoukFood
import SoukOrders
import SoukShops
import SoukKit
import SoukMessages
import SoukStore
import SoukStoreFixtures
import SoukTesting

/// Commerce benchmark: checkouts per second with durable writes at 1, 16 and 64 concurrent
/// customers beside the store's durable creates at the same concurrency (the same record as
/// `bench/store`), and the p99 of a catalog page at 10 thousand and 1 million products.
/// Checkouts are counted in rounds of a fixed number per customer task (carts filled before each
/// round, unmeasured); `--seconds` sets the page measurements.
/// Calls go through the same handlers, interceptors and checks as on the server, without the
/// network (the transport is measured by `bench/compare`).
@main
struct CommerceBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "souk-commerce-bench", abstract: "Commerce benchmark (use a release build).")

    @Option(help: "Seconds per measurement.") var seconds = 5
    @Option(help: "Products of the large catalog.") var large = 1_000_000
    @Option(help: "Products of the small catalog.") var small = 10_000
    @Option(help: "A directory on the disk to measure (fsync figures depend on it).") var dataDir: String
    @Flag(help: "Measure only the checkouts (no catalog pages).") var checkoutsOnly = false
    @Option(name: .customLong("customers"), help: "The checkout rounds to run, by customers at once (for profiling one).")
    var roundSizes: [Int] = [1, 16, 64]

    func run() async throws {
        print("commerce benchmark: \(seconds) s per measurement, catalogs of \(small) and \(large) products, data in \(dataDir)")
        try await checkouts()
        if !checkoutsOnly { try await catalogPages() }
    }

    /// A harness over a store whose every commit is fsynced.
    func harness(_ name: String) throws -> DomainHarness {
        try DomainHarness(
            directory: TemporaryDirectory(at: dataDir + "/" + name), domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self],
            configureStore: { configuration in
                // As souk-server runs it (the test harness's defaults are for small tests).
                configuration.writerThreads = StoreConfiguration(path: "").writerThreads
                configuration.syncPolicy = .syncEveryCommit
                configuration.blockCacheBytes = 256 << 20
                configuration.writeBufferBytes = 64 << 20
                configuration.clock = { StoreTime.now() }
            },
            makeDomains: { identity in let payables = PayableTargets(); return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)] + CommerceDomains.mounting(Commerce(store: identity.store, payables: payables)) })
    }

    /// Chateau Du Nox's money rules. Thousands of customers sign in from one process, so the
    /// per-address sign-in limit is raised to its maximum, as an operator does for a load test.
    static let settings = SoukV1.MarketplaceSettings(
        accounts: .init(rateLimits: .init(signInPerAddress: .init(count: 100_000, window: .seconds(60)))),
        commerce: .init(
            taxRateBps: 2600, shippingFee: .init(amountMinor: 5990, currencyCode: "MYR"), maxQuantityPerCartLine: 12,
            acceptedPaymentMethods: [.card]))

    // MARK: Checkouts

    /// Checkouts per worker in each round: enough for a few seconds at the rates measured.
    static let rounds: [(workers: Int, each: Int)] = [(1, 600), (16, 100), (64, 40)]

    func checkouts() async throws {
        print("\ncheckouts (each of a customer whose cart holds one line, with a test card token; every commit fsynced):")
        let harness = try harness("checkouts")
        let shop = try await harness.marketplace(slug: "bench-shop", vertical: .retail, currency: "MYR", settings: Self.settings)
        let products = try await loadProducts(harness.store, marketplaceID: shop.id, count: 1000, stock: 1_000_000)
        let rounds = Self.rounds.filter { roundSizes.contains($0.workers) }
        let customers = try await signIn(harness, shop, count: rounds.map { $0.workers * $0.each }.max() ?? 0)

        let creates = try Store(createsConfiguration(), schema: Schema(SampleSchema.benchJobs))
        for (round, (workers, each)) in rounds.enumerated() {
            // Fill the carts first (not measured): checkout empties the cart it turns into an order.
            try await forEach(0..<(workers * each), concurrency: 64) { n in
                let cart: SoukV1.Cart = try await harness.call("souk.v1.Carts", "GetCart", SoukV1.GetCartRequest(marketplaceID: shop.id), token: customers[n])
                let _: SoukV1.Cart = try await harness.call("souk.v1.Carts", "AddCartLine", SoukV1.AddCartLineRequest(
                    marketplaceID: shop.id, requestID: "add-\(round)-\(n)", itemID: products[(n * 7919 + round) % products.count].description,
                    quantity: 2, expectedVersion: cart.version), token: customers[n])
            }
            let checkoutRate = try await rate(workers: workers, each: each) { worker, n in
                let customer = worker * each + n
                let cart: SoukV1.Cart = try await harness.call(
                    "souk.v1.Carts", "GetCart", SoukV1.GetCartRequest(marketplaceID: shop.id), token: customers[customer])
                let _: SoukV1.Order = try await harness.call("souk.v1.Orders", "Checkout", SoukV1.CheckoutRequest(
                    marketplaceID: shop.id, requestID: "checkout-\(round)-\(customer)", expectedCartVersion: cart.version,
                    address: .init(choice: .address(.init(line1: "1 Jalan Bench", city: "Kuala Lumpur", countryCode: "MY"))),
                    addressConfirmed: true, payment: .init(method: .cardToken("tok_visa"))), token: customers[customer])
            }
            let createRate = try await rate(workers: workers, each: each * 4) { worker, n in
                let job = SampleJob(marketplace: "w", dorm: "d\(n % 20)", owner: "o\(worker)", loads: Int64(n), note: "durable create")
                _ = try await creates.write { tx in try tx.insert(SampleSchema.benchJobs, job) }
            }
            // A ceiling for any transaction that writes as many keys as a checkout (38): ten of
            // those creates in one transaction (40 keys), with no reads and no handler.
            let wideRate = try await rate(workers: workers, each: max(1, each / 2)) { worker, n in
                _ = try await creates.write { tx in
                    for k in 0..<10 {
                        try tx.insert(SampleSchema.benchJobs, SampleJob(
                            marketplace: "w", dorm: "d\(k)", owner: "o\(worker)", loads: Int64(n), note: "ten creates at once"))
                    }
                }
            }
            print("  \(workers) customer(s) at once: \(Int(checkoutRate)) checkouts/s (the cart read before each included); "
                + "store durable creates \(Int(createRate))/s; ratio \(String(format: "%.2f", checkoutRate / createRate)) (goal ≥ 0.5); "
                + "transactions of ten creates (40 keys) \(Int(wideRate))/s, \(String(format: "%.2f", wideRate / createRate)) of the creates")
        }
        await creates.close()
    }

    /// `count` signed-in customers of `shop`.
    func signIn(_ harness: DomainHarness, _ shop: SoukV1.Marketplace, count: Int) async throws -> [String] {
        let operatorToken = try await harness.operatorToken()
        let tokens = Mutex([String](repeating: "", count: count))
        try await forEach(0..<count, concurrency: 16) { n in
            let email = "customer\(n)@bench.example"
            let _: SoukV1.Account = try await harness.accounts("CreateAccount", SoukV1.CreateAccountRequest(
                marketplaceID: shop.id, requestID: "account-\(n)", email: email, initialPassword: "Bench-pass-1", givenName: "Bench"),
                token: operatorToken)
            let session: SoukV1.Session = try await harness.accounts(
                "Login", SoukV1.LoginRequest(marketplaceID: shop.id, email: email, password: "Bench-pass-1"))
            tokens.withLock { $0[n] = session.accessToken }
        }
        return tokens.withLock { $0 }
    }

    /// Runs `body` for each of `items`, at most `concurrency` at a time.
    func forEach(_ items: Range<Int>, concurrency: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<concurrency {
                group.addTask {
                    for n in stride(from: items.lowerBound + lane, to: items.upperBound, by: concurrency) { try await body(n) }
                }
            }
            try await group.waitForAll()
        }
    }

    func createsConfiguration() -> StoreConfiguration {
        var configuration = StoreConfiguration(path: dataDir + "/creates")
        configuration.syncPolicy = .syncEveryCommit
        return configuration
    }

    /// Calls per second of `operation` run `each` times by each of `workers` concurrent tasks.
    func rate(workers: Int, each: Int, _ operation: @escaping @Sendable (Int, Int) async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                group.addTask { for n in 0..<each { try await operation(worker, n) } }
            }
            try await group.waitForAll()
        }
        return Double(workers * each) / (ContinuousClock.now - start).seconds
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
            let loaded = ContinuousClock.now - loadStart
            // Measured as a shop serving its catalog, not one still compacting a bulk import.
            let compacting = ContinuousClock.now
            try await harness.store.compact()
            let compacted = ContinuousClock.now - compacting
            // Warm the cache as a running shop's would be.
            _ = try await pageLatencies(harness, shop, seconds: 2)
            let latencies = try await pageLatencies(harness, shop, seconds: seconds).sorted()
            let p50 = latencies[latencies.count / 2]
            let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
            p99s.append(p99)
            print("  \(count) products (loaded in \(Int(loaded.seconds)) s, compacted in \(Int(compacted.seconds)) s): "
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

    /// Stores `count` wines through the shops (`Shops.loadProduct`, 1,000 per transaction), with prices spread over RM 10–1,000.
    func loadProducts(_ store: Store, marketplaceID: String, count: Int, stock: Int32) async throws -> [RecordID] {
        let categories: [SoukV1.ProductCategory] = [.red, .white, .rose, .sparkling, .dessert, .fortified]
        var ids: [RecordID] = []
        for batch in stride(from: 0, to: count, by: 1000).map({ $0..<min(count, $0 + 1000) }) {
            ids += try await store.write { transaction in
                try batch.map { n in
                    var product = SoukStoreV1.Product()
                    product.name = "Bench Wine \(n)"
                    product.category = categories[n % categories.count]
                    product.price = .init(amountMinor: Int64(1000 + (n * 7919) % 99_000), currencyCode: "MYR")
                    product.stock = stock
                    product.available = true
                    product.expertRating = Int32(1 + n % 5)
                    return try Shops.loadProduct(product, marketplaceID: marketplaceID, in: transaction)
                }
            }
        }
        return ids
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
