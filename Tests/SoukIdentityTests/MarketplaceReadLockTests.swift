import Dispatch
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
            // The reader's body holds its writer thread; the test awaits it without blocking a
            // thread of the shared pool (other tests need those to start their writes).
            let (read, reading) = AsyncStream<Void>.makeStream()
            let release = DispatchSemaphore(value: 0)
            async let reader: String? = store.write { transaction in
                let zone = try IdentityRecords.marketplace(id, transaction)?.timeZone
                reading.yield()
                _ = release.wait(timeout: .now() + .seconds(10))
                return zone
            }
            var signals = read.makeAsyncIterator()
            await signals.next()
            // While the reader's transaction is open, another takes the marketplace's lock at once.
            let other = try await store.write { try $0.getUnlessLocked(MarketplaceTable.table, id) }
            release.signal()
            #expect(try await reader != nil)
            guard case .read(let record?) = other else {
                Issue.record("the marketplace read inside a transaction was locked: \(other)")
                return
            }
            #expect(record.id == id)
        }
    }
}
