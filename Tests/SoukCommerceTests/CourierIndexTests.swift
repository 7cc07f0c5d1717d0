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

/// The index of available drivers against a brute-force haversine sort: 10,000 drivers, many
/// points, radii and freshness limits, every page read.
@Suite struct CourierIndexTests {
    @Test func rankedDriversEqualABruteForceHaversineSort() async throws {
        let harness = try DomainHarness(domainTypes: [Payments.self, Notifications.self, Commerce.self, Shops.self, Food.self], makeDomains: { let payables = PayableTargets(); return [Payments(store: $0.store, payables: payables), Notifications(store: $0.store)] + CommerceDomains.mounting(Commerce(store: $0.store, payables: payables)) })
        let store = harness.store
        var random = SplitMix(state: 20_240_611)  // seeded, so a failure replays
        let market = "market-a"
        let center = GeoPosition(latitude: 3.14, longitude: 101.69)
        var all: [StoredRecord<CourierRecord>] = []
        for _ in 0..<20 {
            var batch: [CourierRecord] = []
            for index in 0..<500 {
                var status = SoukStoreV1.CourierStatus()
                status.online = index % 10 != 0
                status.activeDeliveryID = index % 17 == 0 ? "busy" : ""
                status.location = SoukV1.GeoPoint(
                    latitude: center.latitude + Double.random(in: -0.3...0.3, using: &random),
                    longitude: center.longitude + Double.random(in: -0.3...0.3, using: &random))
                status.locationTime = Timestamp(StoreTime(microsecondsSinceEpoch: Int64.random(in: 0...1_000_000, using: &random)))
                // A few drivers of another marketplace at the same places.
                batch.append(CourierRecord(marketplaceID: index % 50 == 1 ? "market-b" : market, status))
            }
            let batchRecords = batch
            all += try await store.write { transaction in try batchRecords.map { try transaction.insert(CourierTable.table, $0) } }
        }
        #expect(all.count == 10_000)
        for _ in 0..<40 {
            let point = GeoPosition(
                latitude: center.latitude + Double.random(in: -0.35...0.35, using: &random),
                longitude: center.longitude + Double.random(in: -0.35...0.35, using: &random))
            let radius = Double.random(in: 200...25_000, using: &random)
            let minimumStamp: Int64? = Bool.random(using: &random) ? Int64.random(in: 0...900_000, using: &random) : nil
            let expected = all.filter { record in
                let status = record.value.status
                guard record.value.marketplaceID == market, status.online, status.activeDeliveryID.isEmpty, let location = status.location else {
                    return false
                }
                if let minimumStamp, StoreTime(status.locationTime!).microsecondsSinceEpoch < minimumStamp { return false }
                return GeoDistance.meters(point, GeoPosition(location)) <= radius
            }
            .map { ($0.id.description, GeoDistance.meters(point, GeoPosition($0.value.status.location!))) }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            var ranked: [(String, Double)] = []
            var token: String?
            let limit = Int.random(in: 1...100, using: &random)
            repeat {
                let page = try store.nearest(
                    CourierTable.table, CourierTable.available,
                    GeoQuery(scope: CourierTable.scope(market), center: point, radiusMeters: radius, minimumStamp: minimumStamp, limit: limit,
                             pageToken: token))
                #expect(page.hits.count <= limit)
                ranked += page.hits.map { ($0.record.id.description, $0.distanceMeters) }
                token = page.nextPageToken
                await Task.yield()  // long synchronous work: let the run's other tests have this thread
            } while token != nil
            #expect(ranked.map(\.0) == expected.map(\.0), "point \(point), radius \(radius), stamp \(String(describing: minimumStamp))")
            #expect(zip(ranked, expected).allSatisfy { abs($0.1 - $1.1) < 0.001 })
        }
    }
}
