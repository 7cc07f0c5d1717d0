import Testing
import SoukStore
import SoukStoreFixtures
import SoukTesting

@Suite struct IdempotencyTests {
    let key = IdempotencyKey(marketplace: "m1", account: "acct-1", key: "create-42")

    private func create(_ store: Store, key: IdempotencyKey?, request: [UInt8], runs: Counter) async throws -> IdempotentResult<[UInt8]> {
        try await store.write(idempotencyKey: key, fingerprint: RequestFingerprint(request), responseCodec: BytesCodec()) { tx in
            runs.increment()
            let record = try tx.insert(SampleSchema.jobs, job(owner: "idem"))
            return record.id.bytes
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func sameKeyAndRequestReplaysTheFirstResult(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let runs = Counter()
            let first = try await create(store, key: key, request: [1, 2, 3], runs: runs)
            let second = try await create(store, key: key, request: [1, 2, 3], runs: runs)
            #expect(!first.replayed && second.replayed)
            #expect(first.value == second.value)
            #expect(runs.value == 1)
            #expect(try store.list(SampleSchema.jobs, SampleSchema.jobsByOwner, IndexRange(prefix: ["m1", "idem"])).items.count == 1)

            // The key is scoped to the account: another account's identical key is independent.
            let other = IdempotencyKey(marketplace: "m1", account: "acct-2", key: key.key)
            let third = try await create(store, key: other, request: [1, 2, 3], runs: runs)
            #expect(!third.replayed && third.value != first.value)
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func sameKeyWithAnotherRequestIsRefused(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let runs = Counter()
            _ = try await create(store, key: key, request: [1, 2, 3], runs: runs)
            await #expect(throws: StoreError.idempotencyKeyReused(key: "create-42")) {
                _ = try await create(store, key: key, request: [1, 2, 4], runs: runs)
            }
            #expect(runs.value == 1)
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func failedFirstAttemptStoresNothing(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            struct Invalid: Error {}
            await #expect(throws: Invalid.self) {
                _ = try await store.write(idempotencyKey: key, fingerprint: RequestFingerprint([1]), responseCodec: BytesCodec()) { _ in
                    throw Invalid()
                }
            }
            let runs = Counter()
            let retried = try await create(store, key: key, request: [1], runs: runs)
            #expect(!retried.replayed)
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func concurrentDuplicatesRunTheBodyOnce(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let runs = Counter()
            let results = try await withThrowingTaskGroup(of: IdempotentResult<[UInt8]>.self) { group in
                for _ in 0..<16 { group.addTask { try await create(store, key: key, request: [5], runs: runs) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // RocksDB's lock on the key queues the duplicates, so the body runs once; optimistic
            // transactions may each run it, and all but one commit fails and replays the first.
            if engine == .rocksDB { #expect(runs.value == 1) } else { #expect(runs.value >= 1) }
            #expect(Set(results.map(\.value)).count == 1)
            #expect(results.filter { !$0.replayed }.count == 1)
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func recordsExpireAndAreCleanedUp(engine: StoreEngineKind) async throws {
        let clock = ManualClock()
        try await withStore(engine, schema: SampleSchema.schema, clock: clock) { store, _ in
            let runs = Counter()
            let first = try await create(store, key: key, request: [1], runs: runs)
            _ = try await create(store, key: IdempotencyKey(marketplace: "m1", account: "a", key: "k2"), request: [1], runs: runs)
            clock.advance(.seconds(23 * 3600))
            #expect(try await store.purgeExpiredIdempotencyRecords() == 0)
            #expect(try await create(store, key: key, request: [1], runs: runs).replayed)

            clock.advance(.seconds(2 * 3600))
            // Expired: the key may be used again, for any request, even before cleanup ran.
            let again = try await create(store, key: key, request: [9], runs: runs)
            #expect(!again.replayed && again.value != first.value)
            // Cleanup removes the two expired entries but keeps the fresh record under the reused key.
            #expect(try await store.purgeExpiredIdempotencyRecords() == 2)
            #expect(try await create(store, key: key, request: [9], runs: runs).replayed)
        }
    }
}
