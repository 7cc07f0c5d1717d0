import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukIdentity

/// Writes of orders, jobs, leases and payments read their marketplace (time zone, settings)
/// through `IdentityRecords.marketplace`. Inside a transaction that read takes no lock, so they
/// neither queue on the marketplace's record nor deadlock with a transaction that locked a product
/// first (a checkout against a cancellation did, thousands of times a minute under load).
@Suite struct MarketplaceReadLockTests {
    @Test func aMarketplaceReadInsideATransactionLeavesItFree() async throws {
        try await withTemporaryStore(schema: Schema.mounting([Identity.self])) { store, _ in
            let registry = MarketplaceRegistry(store: store, logger: DomainHarness.quietLogger)
            let created = try await MarketplaceCacheTests.newMarketplace(registry, slug: "unlocked-read")
            let id = try #require(RecordID(created.id))
            // While the reader's transaction is open, another takes the marketplace's lock at once.
            let (zone, other) = try await whileWriteIsOpen(store) { transaction in
                try IdentityRecords.marketplace(id, transaction)?.timeZone
            } meanwhile: {
                try await store.write { try $0.getUnlessLocked(MarketplaceTable.table, id) }
            }
            #expect(zone != nil)
            guard case .read(let record?) = other else {
                Issue.record("the marketplace read inside a transaction was locked: \(other)")
                return
            }
            #expect(record.id == id)
        }
    }
}
