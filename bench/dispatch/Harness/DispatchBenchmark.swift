import ArgumentParser
import Foundation
import SoukCommerceTesting
import SoukFood
import SoukOrders
import SoukShops
import SoukKit
import SoukMessages
import SoukNotifications
import SoukPayments
import SoukStore
import SoukTesting
import Synchronization

/// Dispatch benchmark: restaurants ranking the available drivers near them
/// (`Deliveries.ListAvailableCouriers` from an order's restaurant, a page of 20 within 5 km; the
/// orders are spread over the city like the drivers) at 1,000 and 100,000 online
/// drivers spread over a city, while drivers' positions are written meanwhile as their reports
/// arrive. Calls go through the same handlers, interceptors and checks as on the server, without
/// the network. The goal: the p99 at 100,000 drivers within 2× the p99 at 1,000.
@main
struct DispatchBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "souk-dispatch-bench", abstract: "Dispatch benchmark (use a release build).")

    @Option(help: "Seconds per measurement.") var seconds = 5
    @Option(help: "Concurrent restaurants querying.") var queriers = 8
    @Option(help: "Location reports written per second meanwhile.") var reportsPerSecond = 500
    @Option(help: "A directory on the disk to measure.") var dataDir: String

    func run() async throws {
        print("dispatch benchmark: \(seconds) s per size, \(queriers) restaurants querying, \(reportsPerSecond) location reports/s, data in \(dataDir)")
        var p99s: [Double] = []
        for drivers in [1_000, 100_000] { p99s.append(try await measure(drivers: drivers)) }
        print(String(format: "p99 ratio 100,000 / 1,000 drivers: %.2f (goal ≤ 2)", p99s[1] / p99s[0]))
    }

    /// Metropolitan area of about 40 km × 40 km (Beirut and its suburbs).
    static let center = (latitude: 33.8938, longitude: 35.5018)
    static let span = 0.36

    func measure(drivers: Int) async throws -> Double {
        let harness = try DomainHarness(
            directory: TemporaryDirectory(at: dataDir + "/drivers-\(drivers)"), domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self],
            configureStore: { configuration in
                configuration.writerThreads = StoreConfiguration(path: "").writerThreads
                configuration.syncPolicy = .syncEveryCommit
                configuration.blockCacheBytes = 256 << 20
                configuration.writeBufferBytes = 64 << 20
                configuration.clock = { StoreTime.now() }
            },
            makeDomains: { identity in let payables = PayableTargets(); return [Payments(store: identity.store, payables: payables), Notifications(store: identity.store)] + CommerceDomains.mounting(Commerce(store: identity.store, payables: payables)) })
        let market = try await harness.marketplace(slug: "bench-food", vertical: .foodDelivery, currency: "USD")
        let admin = try await harness.adminToken(market, email: "admin@bench-food.example")
        // Drivers' status records, written directly (sign-ups are not what is measured).
        var ids: [RecordID] = []
        var random = SystemRandomNumberGenerator()
        for start in stride(from: 0, to: drivers, by: 1000) {
            let count = min(1000, drivers - start)
            let now = StoreTime.now()
            let batch = (0..<count).map { _ in Self.status(at: now, using: &random) }
            ids += try await harness.store.write { transaction in
                try batch.map { try Commerce.loadCourier($0, marketplaceID: market.id, in: transaction) }
            }
        }
        let allIDs = ids
        // Orders of restaurants all over the area: a ranking starts from an order's pickup point.
        let orders = (0..<256).map { index -> SoukStoreV1.Order in
            var order = SoukStoreV1.Order()
            order.orderNumber = "B-\(index)"
            order.pickupAddress = SoukV1.Address(location: Self.status(at: StoreTime.now(), using: &random).location)
            return order
        }
        let orderIDs = try await harness.store.write { transaction in
            try orders.map { try Commerce.loadOrder($0, marketplaceID: market.id, in: transaction).description }
        }
        let store = harness.store
        let reports = Reports()
        // Location reports: one durable write each, from several drivers' streams at once (a
        // write waits for its fsync), paced together to the rate asked.
        let streams = 16
        let reporters = (0..<streams).map { _ in
            Task {
                var random = SystemRandomNumberGenerator()
                let interval = Duration.seconds(1) * streams / reportsPerSecond
                var next = ContinuousClock.now
                while !reports.stop.load(ordering: .relaxed) {
                    let id = allIDs.randomElement(using: &random)!
                    let status = Self.status(at: StoreTime.now(), using: &random)
                    _ = try await store.write { transaction in
                        try Commerce.moveCourier(id, to: status.location, at: status.locationTime, in: transaction)
                    }
                    reports.written.add(1, ordering: .relaxed)
                    next += interval
                    try await Task.sleep(until: next)
                }
            }
        }
        let started = ContinuousClock.now
        let deadline = started + .seconds(seconds)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<queriers {
                group.addTask {
                    var random = SystemRandomNumberGenerator()
                    var mine: [Double] = []
                    while ContinuousClock.now < deadline {
                        let orderID = orderIDs.randomElement(using: &random)!
                        let begin = ContinuousClock.now
                        let response: SoukV1.ListAvailableCouriersResponse = try await harness.call(
                            "souk.v1.Deliveries", "ListAvailableCouriers",
                            SoukV1.ListAvailableCouriersRequest(marketplaceID: market.id, pageSize: 20, orderID: orderID, radiusMeters: 5_000), token: admin)
                        mine.append(Self.microseconds(ContinuousClock.now - begin))
                        precondition(response.couriers.count <= 20)
                        // Queries never suspend: let the reports have their turn on the pool.
                        await Task.yield()
                    }
                    let done = mine
                    reports.latencies.withLock { $0 += done }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - started
        reports.stop.store(true, ordering: .relaxed)
        for reporter in reporters { try await reporter.value }
        let sorted = reports.latencies.withLock { $0 }.sorted()
        let seconds = Self.microseconds(elapsed) / 1e6
        let p50 = sorted[sorted.count / 2], p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        print(String(format: "  %7d drivers: %6.0f ranked queries/s, p50 %.0f µs, p99 %.0f µs (%d queries; %d location reports written meanwhile)",
                     drivers, Double(sorted.count) / seconds, p50, p99, sorted.count, reports.written.load(ordering: .relaxed)))
        return p99
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    /// An online driver somewhere in the area, last seen at `time`.
    static func status(at time: StoreTime, using random: inout some RandomNumberGenerator) -> SoukStoreV1.CourierStatus {
        var status = SoukStoreV1.CourierStatus()
        status.online = true
        status.location = SoukV1.GeoPoint(
            latitude: center.latitude + Double.random(in: -span / 2...span / 2, using: &random),
            longitude: center.longitude + Double.random(in: -span / 2...span / 2, using: &random))
        status.locationTime = Timestamp(time)
        return status
    }
}

/// One measurement's shared state: the location reports written while queries run, the signal
/// to stop them, and the queries' latencies (µs).
final class Reports: Sendable {
    let stop = Atomic(false)
    let written = Atomic(0)
    let latencies = Mutex<[Double]>([])
}
