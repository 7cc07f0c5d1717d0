import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukIdentity

/// The marketplaces' cache (`MarketplaceRegistry`) follows the store's commits: its own node's
/// at once, another node's on a replicated engine as its watch delivers them. Two stores on one
/// `MemoryKeyValueEngine` stand for two server nodes on one etcd cluster.
@Suite struct MarketplaceCacheTests {
    static let actor = AuditActor.system("MarketplaceCacheTests")

    static func newMarketplace(_ registry: MarketplaceRegistry, slug: String) async throws -> SoukV1.Marketplace {
        let input = SoukV1.Marketplace(slug: slug, displayName: "Test \(slug)", vertical: .retail, currencyCode: "MYR")
        return try await registry.create(input, idempotencyKey: nil, fingerprint: RequestFingerprint([UInt8](slug.utf8)), actor: actor)
    }

    /// Asks `read` until it answers true: another node's commit arrives a moment after it.
    static func eventually(_ read: () throws -> Bool) async throws -> Bool {
        for _ in 0..<2_000 {
            if try read() { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    @Test func aMarketplaceChangedOnOneNodeIsReadAgainOnTheOther() async throws {
        let engine = MemoryKeyValueEngine()
        let schema = Schema.mounting([Identity.self])
        let stores = try (0..<2).map { _ in
            var configuration = StoreConfiguration.forTests(TemporaryDirectory().path)
            configuration.logger = DomainHarness.quietLogger
            return try Store(engine: engine, configuration: configuration, schema: schema)
        }
        let registries = stores.map { MarketplaceRegistry(store: $0, logger: DomainHarness.quietLogger) }
        let created = try await Self.newMarketplace(registries[0], slug: "two-nodes")
        let id = try #require(RecordID(created.id))
        // Both nodes read it, and keep it.
        for registry in registries { #expect(try registry.marketplace(id)?.displayName == "Test two-nodes") }

        let renamed = try await registries[0].update(id, expectedVersion: UInt64(created.version), actor: Self.actor, event: "renamed") {
            $0.displayName = "Renamed"
        }
        // The node that wrote reads its change at once; the other as soon as the watch tells it.
        #expect(try registries[0].marketplace(id) == renamed)
        #expect(try await Self.eventually { try registries[1].marketplace(id)?.version == renamed.version })
        #expect(try registries[1].marketplace(id) == renamed)

        let archived = try await registries[1].update(id, expectedVersion: nil, actor: Self.actor, event: "archived") { $0.archived = true }
        #expect(try registries[1].marketplace(id)?.archived == true)
        #expect(try await Self.eventually { try registries[0].marketplace(id)?.archived == true })
        #expect(try registries[0].marketplace(id) == archived)
        for store in stores { await store.close() }
    }
}
