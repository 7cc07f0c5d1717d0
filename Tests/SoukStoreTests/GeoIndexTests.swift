import Foundation
import Testing
@testable import SoukStore
import SoukTesting

/// A place on the map: the record of the geospatial tests.
struct Place: Sendable, Equatable {
    var marketplace: String
    var position: GeoPosition
    var stamp: Int64
}

/// Packs a `Place` as a marketplace name then three 8-byte numbers.
struct PlaceCodec: RecordCodec {
    func encode(_ place: Place, into bytes: inout [UInt8]) throws {
        KeySpace.appendUInt64(place.position.latitude.bitPattern, to: &bytes)
        KeySpace.appendUInt64(place.position.longitude.bitPattern, to: &bytes)
        KeySpace.appendUInt64(UInt64(bitPattern: place.stamp), to: &bytes)
        bytes.append(contentsOf: place.marketplace.utf8)
    }

    func decode(_ bytes: UnsafeRawBufferPointer) throws -> Place {
        Place(
            marketplace: String(decoding: bytes[24...], as: UTF8.self),
            position: GeoPosition(
                latitude: Double(bitPattern: KeySpace.readUInt64(bytes, at: 0)),
                longitude: Double(bitPattern: KeySpace.readUInt64(bytes, at: 8))),
            stamp: Int64(bitPattern: KeySpace.readUInt64(bytes, at: 16)))
    }
}

enum PlaceSchema {
    static let near = GeoIndex<Place>("places.near") { record in
        [GeoEntry(scope: [.string(record.value.marketplace)], position: record.value.position, stamp: record.value.stamp)]
    }
    /// The same entries on the finer grid.
    static let nearFine = GeoIndex<Place>("places.near_fine", cellSize: .meters153) { record in
        [GeoEntry(scope: [.string(record.value.marketplace)], position: record.value.position, stamp: record.value.stamp)]
    }
    static let table = Table("places", codec: PlaceCodec(), indexes: [near.index, nearFine.index])
    static let schema = Schema(table)
}

@Suite struct GeoIndexTests {
    /// Every page of a query, in order.
    private func all(_ store: Store, _ query: GeoQuery, _ geo: GeoIndex<Place> = PlaceSchema.near) throws -> [GeoHit<Place>] {
        var hits = [GeoHit<Place>]()
        var query = query
        repeat {
            let page = try store.nearest(PlaceSchema.table, geo, query)
            #expect(page.hits.count <= query.limit)
            hits += page.hits
            query.pageToken = page.nextPageToken
        } while query.pageToken != nil
        return hits
    }

    /// What a query must answer, by brute force over every place.
    private func bruteForce(_ places: [StoredRecord<Place>], _ query: GeoQuery) -> [(RecordID, Double)] {
        places.compactMap { record -> (RecordID, Double)? in
            guard record.value.marketplace == "m1", record.value.stamp >= (query.minimumStamp ?? .min) else { return nil }
            let distance = GeoDistance.meters(query.center, record.value.position)
            return distance <= query.radiusMeters ? (record.id, distance) : nil
        }.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
    }

    private func insert(_ store: Store, _ places: [Place]) async throws -> [StoredRecord<Place>] {
        var stored = [StoredRecord<Place>]()
        for chunk in stride(from: 0, to: places.count, by: 1000) {
            let part = Array(places[chunk..<min(places.count, chunk + 1000)])
            stored += try await store.write { tx in try part.map { try tx.insert(PlaceSchema.table, $0) } }
        }
        return stored
    }

    // The geo index's cells and their walk are the same on every engine (the engines' scans are
    // checked by the smaller tests here): 10,000 places run on the embedded store only.
    @Test(arguments: [StoreEngineKind.rocksDB]) func nearestFirstEqualsABruteForceHaversineSort(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: PlaceSchema.schema) { store, _ in
            var random = SplitMix(state: 20_261_124)
            // 10,000 places around Beirut (about 40 × 40 km), some in another marketplace.
            let places = (0..<10_000).map { i in
                Place(
                    marketplace: i % 10 == 0 ? "m2" : "m1",
                    position: GeoPosition(latitude: Double.random(in: 33.7...34.06, using: &random),
                                          longitude: Double.random(in: 35.3...35.75, using: &random)),
                    stamp: Int64.random(in: 0..<100, using: &random))
            }
            let stored = try await insert(store, places)
            for round in 0..<48 {
                let center = GeoPosition(latitude: Double.random(in: 33.6...34.1, using: &random),
                                         longitude: Double.random(in: 35.2...35.8, using: &random))
                let radius = [300.0, 1_500, 5_000, 20_000, 60_000][round % 5] * Double.random(in: 0.5...1.5, using: &random)
                let query = GeoQuery(
                    scope: ["m1"], center: center, radiusMeters: radius, minimumStamp: round % 3 == 0 ? 50 : nil,
                    limit: [1, 7, 50, 100][round % 4])
                let expected = bruteForce(stored, query)
                for geo in [PlaceSchema.near, PlaceSchema.nearFine] {
                    // A deep page rereads what lies nearer than its cursor: walk only a few dozen pages.
                    if expected.count / query.limit <= 40 {
                        let hits = try all(store, query, geo)
                        #expect(hits.map(\.record.id) == expected.map(\.0), "round \(round), \(geo.index.name)")
                        #expect(hits.map(\.distanceMeters) == expected.map(\.1), "round \(round), \(geo.index.name)")
                    }
                    // The first page alone: the nearest, whatever lies farther.
                    let first = try store.nearest(PlaceSchema.table, geo, query)
                    #expect(first.hits.map(\.record.id) == Array(expected.prefix(query.limit).map(\.0)), "round \(round), \(geo.index.name)")
                    #expect((first.nextPageToken != nil) == (expected.count > query.limit), "round \(round), \(geo.index.name)")
                }
                await Task.yield()  // long synchronous work: let the run's other tests have this thread
            }
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func aQueryWorksAcrossTheAntimeridianAndNearAPole(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: PlaceSchema.schema) { store, _ in
            var random = SplitMix(state: 7)
            var places = (0..<400).map { _ in
                Place(marketplace: "m1", position: GeoPosition(latitude: Double.random(in: -17.5 ... -16.5, using: &random),
                                                               longitude: Double.random(in: -180...180, using: &random) > 0
                                                                   ? Double.random(in: 179.5...180, using: &random)
                                                                   : Double.random(in: -180 ... -179.5, using: &random)),
                      stamp: 0)
            }
            places += (0..<400).map { _ in
                Place(marketplace: "m1", position: GeoPosition(latitude: Double.random(in: 89.5...90, using: &random),
                                                               longitude: Double.random(in: -180...180, using: &random)), stamp: 0)
            }
            let stored = try await insert(store, places)
            for center in [GeoPosition(latitude: -17, longitude: 179.99), GeoPosition(latitude: -17, longitude: -179.9),
                           GeoPosition(latitude: 89.9, longitude: 10), GeoPosition(latitude: 90, longitude: 0)] {
                let query = GeoQuery(scope: ["m1"], center: center, radiusMeters: 40_000, limit: 100)
                for geo in [PlaceSchema.near, PlaceSchema.nearFine] {
                    #expect(try all(store, query, geo).map(\.record.id) == bruteForce(stored, query).map(\.0), "\(center), \(geo.index.name)")
                }
            }
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func theIndexFollowsMovesAndDeletes(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: PlaceSchema.schema) { store, _ in
            let home = GeoPosition(latitude: 33.89, longitude: 35.5)
            let far = GeoPosition(latitude: 34.4, longitude: 35.9)
            let stored = try await insert(store, [Place(marketplace: "m1", position: home, stamp: 1)])
            let query = GeoQuery(scope: ["m1"], center: home, radiusMeters: 1_000, limit: 10)
            #expect(try store.nearest(PlaceSchema.table, PlaceSchema.near, query).hits.count == 1)
            _ = try await store.write { tx in
                try tx.update(PlaceSchema.table, stored[0].id) { $0.position = far }
            }
            #expect(try store.nearest(PlaceSchema.table, PlaceSchema.near, query).hits.isEmpty)
            let moved = GeoQuery(scope: ["m1"], center: far, radiusMeters: 10, limit: 10)
            #expect(try store.nearest(PlaceSchema.table, PlaceSchema.near, moved).hits.map(\.record.id) == [stored[0].id])
            _ = try await store.write { tx in try tx.delete(PlaceSchema.table, stored[0].id) }
            #expect(try store.nearest(PlaceSchema.table, PlaceSchema.near, moved).hits.isEmpty)
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func aTokenOfAnotherQueryIsRefused(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: PlaceSchema.schema) { store, _ in
            let home = GeoPosition(latitude: 33.89, longitude: 35.5)
            _ = try await insert(store, (0..<3).map { i in
                Place(marketplace: "m1", position: GeoPosition(latitude: 33.89 + Double(i) * 0.001, longitude: 35.5), stamp: 0)
            })
            let query = GeoQuery(scope: ["m1"], center: home, radiusMeters: 1_000, limit: 1)
            let token = try #require(try store.nearest(PlaceSchema.table, PlaceSchema.near, query).nextPageToken)
            for other in [GeoQuery(scope: ["m2"], center: home, radiusMeters: 1_000, limit: 1, pageToken: token),
                          GeoQuery(scope: ["m1"], center: home, radiusMeters: 2_000, limit: 1, pageToken: token),
                          GeoQuery(scope: ["m1"], center: home, radiusMeters: 1_000, limit: 1, pageToken: "bm9wZQ")] {
                #expect(throws: StoreError.invalidPageToken) { try store.nearest(PlaceSchema.table, PlaceSchema.near, other) }
            }
        }
    }
}
