import ArgumentParser
import Foundation
import SoukKit
import SoukMessages
import SoukNotifications
import SoukRentals
import SoukStore
import SoukTesting
import Synchronization

/// Rentals search benchmark: guests searching published listings nearby (a page of 20 within
/// 2 km of a random point, nearest first) and by text (a page of 20 of one or two words without
/// diacritics, newest first), at each size of the table. Calls go through the same handlers,
/// interceptors and checks as on the server, without the network. The goal: the p99 at a million
/// listings within 2× the p99 at ten thousand.
@main
struct RentalsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "souk-rentals-bench", abstract: "Rentals search benchmark (use a release build).")

    @Option(help: "Seconds per measurement.") var seconds = 5
    @Option(help: "Concurrent guests querying.") var queriers = 8
    @Option(help: "Table sizes, comma-separated.") var sizes = "10000,1000000"
    @Option(help: "A directory on the disk to measure.") var dataDir: String

    func run() async throws {
        let counts = sizes.split(separator: ",").compactMap { Int($0) }
        print("rentals search benchmark: \(seconds) s per query kind and size, \(queriers) guests querying, data in \(dataDir)")
        var p99s: [String: [Double]] = [:]
        for count in counts {
            let bench = try await Filled(count: count, dataDir: dataDir)
            for kind in ["nearby", "text"] { p99s[kind, default: []].append(try await bench.measure(kind, seconds: seconds, queriers: queriers)) }
        }
        for (kind, values) in p99s.sorted(by: { $0.key < $1.key }) where values.count > 1 {
            print(String(format: "%@ p99 ratio %d / %d listings: %.2f (goal ≤ 2)", kind, counts.last!, counts.first!, values.last! / values.first!))
        }
    }
}

/// A store with `count` published listings spread over the two regions.
struct Filled {
    let harness: DomainHarness
    let market: String
    let count: Int

    /// Words listings are titled and addressed with (with their diacritics), and the queries
    /// typed without them.
    static let vocabulary = [
        "Căn hộ", "Phòng trọ", "Nhà nguyên căn", "Đường", "Nguyễn Huệ", "Lê Lợi", "Điện Biên Phủ", "Võ Văn Ngân", "Bình Thạnh", "Thủ Đức",
        "Dĩ An", "Thuận An", "Quận 1", "Quận 7", "gần", "chợ", "trường", "đại học", "yên tĩnh", "ban công", "mới", "rộng", "view sông",
        "Cách Mạng Tháng Tám", "Hai Bà Trưng", "Pasteur", "Lý Thường Kiệt", "Phạm Văn Đồng", "Xa lộ Hà Nội", "Thảo Điền",
    ]
    static let queries = ["quan 1", "binh thanh", "duong", "can ho", "phong tro gan cho", "dien bien phu", "thao dien", "pasteur", "di an moi", "view song"]

    init(count: Int, dataDir: String) async throws {
        self.count = count
        harness = try DomainHarness(
            directory: TemporaryDirectory(at: dataDir + "/listings-\(count)"), domainTypes: [Notifications.self, Rentals.self],
            configureStore: { configuration in
                configuration.writerThreads = StoreConfiguration(path: "").writerThreads
                // Only reads are measured: the listings load without an fsync per transaction.
                configuration.syncPolicy = .none
                configuration.blockCacheBytes = 256 << 20
                configuration.writeBufferBytes = 64 << 20
                configuration.clock = { StoreTime.now() }
            },
            makeDomains: { identity in [Notifications(store: identity.store), Rentals(store: identity.store, identity: identity)] })
        let marketplace = try await harness.marketplace(slug: "bench-mara", vertical: .rentals, currency: "VND")
        market = marketplace.id
        let admin = try await harness.adminToken(marketplace, email: "admin@bench-mara.example")
        var regions: [SoukV1.Region] = []
        for (key, name, districts) in [("hcmc", "Thành phố Hồ Chí Minh", ["Quận 1", "Bình Thạnh", "Thủ Đức"]), ("binh-duong", "Bình Dương", ["Dĩ An", "Thuận An"])] {
            regions.append(try await harness.call("souk.v1.Rentals", "CreateRegion", SoukV1.CreateRegionRequest(
                marketplaceID: market, requestID: key, region: SoukV1.Region(name: name, districts: districts)), token: admin))
        }
        let owner = UUID().uuidString.lowercased()
        let started = ContinuousClock.now
        var random = SplitMix(state: UInt64(count))
        for start in stride(from: 0, to: count, by: 2000) {
            let batch = (0..<min(2000, count - start)).map { _ in RentalsBenchData.listing(owner: owner, regions: regions, using: &random) }
            try await harness.store.write { [market] transaction in for listing in batch { _ = try Rentals.loadListing(listing, marketplaceID: market, in: transaction) } }
        }
        print(String(format: "  %8d listings loaded in %.0f s", count, RentalsBenchmark.microseconds(ContinuousClock.now - started) / 1e6))
        // Measured as a store serving its listings, not one still compacting a bulk import.
        let compacting = ContinuousClock.now
        try await harness.store.compact()
        print(String(format: "  %8d listings compacted in %.0f s", count, RentalsBenchmark.microseconds(ContinuousClock.now - compacting) / 1e6))
    }

    func measure(_ kind: String, seconds: Int, queriers: Int) async throws -> Double {
        let tally = Tally()
        let deadline = ContinuousClock.now + .seconds(seconds)
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<queriers {
                group.addTask {
                    var random = SplitMix(state: UInt64(worker + 1))
                    var mine: [Double] = []
                    var found = 0
                    while ContinuousClock.now < deadline {
                        let begin = ContinuousClock.now
                        let response: SoukV1.SearchListingsResponse
                        if kind == "nearby" {
                            let point = RentalsBenchData.point(using: &random)
                            response = try await harness.call(
                                "souk.v1.Rentals", "SearchNearbyListings",
                                SoukV1.SearchNearbyListingsRequest(marketplaceID: market, pageSize: 20, near: point, radiusMeters: 2_000))
                        } else {
                            response = try await harness.call(
                                "souk.v1.Rentals", "SearchListings",
                                SoukV1.SearchListingsRequest(marketplaceID: market, pageSize: 20, query: Filled.queries.randomElement(using: &random)!))
                        }
                        mine.append(RentalsBenchmark.microseconds(ContinuousClock.now - begin))
                        found += response.listings.count
                        await Task.yield()
                    }
                    let done = mine
                    tally.latencies.withLock { $0 += done }
                    tally.results.add(found, ordering: .relaxed)
                }
            }
            try await group.waitForAll()
        }
        let elapsed = RentalsBenchmark.microseconds(ContinuousClock.now - started) / 1e6
        let sorted = tally.latencies.withLock { $0 }.sorted()
        let p50 = sorted[sorted.count / 2], p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        print(String(format: "  %8d listings, %@: %6.0f queries/s, p50 %.0f µs, p99 %.0f µs (%d queries, %.1f results each)",
                     count, kind, Double(sorted.count) / elapsed, p50, p99, sorted.count, Double(tally.results.load(ordering: .relaxed)) / Double(max(1, sorted.count))))
        return p99
    }
}

/// One measurement's latencies (µs) and the count of results returned.
final class Tally: Sendable {
    let latencies = Mutex<[Double]>([])
    let results = Atomic(0)
}

extension RentalsBenchmark {
    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
}

/// Random published listings over Ho Chi Minh City and Binh Duong, written directly (creating
/// them is not what is measured).
enum RentalsBenchData {
    static func point(using random: inout SplitMix) -> SoukV1.GeoPoint {
        SoukV1.GeoPoint(latitude: Double.random(in: 10.70...11.05, using: &random), longitude: Double.random(in: 106.60...106.82, using: &random))
    }

    static func listing(owner: String, regions: [SoukV1.Region], using random: inout SplitMix) -> SoukStoreV1.Listing {
        let point = point(using: &random)
        let region = point.latitude < 10.88 ? regions[0] : regions[1]
        let words = Filled.vocabulary
        let rent = Int64.random(in: 2...40, using: &random) * 1_000_000
        return SoukStoreV1.Listing(
            ownerAccountID: owner, title: (0..<3).map { _ in words.randomElement(using: &random)! }.joined(separator: " "),
            type: [.house, .apartment, .room].randomElement(using: &random)!,
            address: SoukV1.Address(line1: "\(Int.random(in: 1...300, using: &random)) Đường \(words.randomElement(using: &random)!)", city: region.name, location: point),
            monthlyRent: SoukV1.Money(amountMinor: rent, currencyCode: "VND"), depositMonths: 1, deposit: SoukV1.Money(amountMinor: rent, currencyCode: "VND"),
            bedrooms: 2, bathrooms: 1, regionID: region.id, district: region.districts.randomElement(using: &random)!, status: .published)
    }
}
