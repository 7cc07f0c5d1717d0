import Dispatch
import SoukStore
import SoukStoreFixtures
import SoukTesting
import Synchronization
import Testing

/// Transactions that really collide in RocksDB (a deadlock, a lock wait that times out) are rolled
/// back and run again by `Store.write`, a bounded number of times, so concurrent writers succeed
/// without their callers seeing the collision.
@Suite struct ConflictRetryTests {
    /// Counts the runs of one transaction body.
    final class Runs: Sendable {
        private let count = Atomic(0)
        /// Counts a run and returns its number, from 1.
        func next() -> Int { count.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue }
        var total: Int { count.load(ordering: .sequentiallyConsistent) }
    }

    /// Two writers lock the same two records in opposite orders. RocksDB's deadlock detection
    /// fails one of them; `write` runs it again after the other committed, and both changes land.
    @Test func deadlockedWritersAreRetriedAndBothCommit() async throws {
        try await withTemporaryStore(schema: SampleSchema.schema) { store, _ in
            let first = try await store.write { try $0.insert(SampleSchema.jobs, job(loads: 0)) }.id
            let second = try await store.write { try $0.insert(SampleSchema.jobs, job(loads: 0)) }.id
            let (firstHeld, secondHeld) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let (firstRuns, secondRuns) = (Runs(), Runs())

            /// Locks `mine`; on the first run waits until the other writer holds its own record; then locks `theirs`.
            @Sendable func crossing(
                _ mine: RecordID, _ theirs: RecordID, _ runs: Runs, held: DispatchSemaphore, otherHeld: DispatchSemaphore
            ) async throws {
                try await store.write { transaction in
                    let run = runs.next()
                    try transaction.update(SampleSchema.jobs, mine) { $0.loads += 1 }
                    if run == 1 {
                        held.signal()
                        _ = otherHeld.wait(timeout: .now() + .seconds(10))
                    }
                    try transaction.update(SampleSchema.jobs, theirs) { $0.loads += 1 }
                }
            }
            async let one: Void = crossing(first, second, firstRuns, held: firstHeld, otherHeld: secondHeld)
            async let two: Void = crossing(second, first, secondRuns, held: secondHeld, otherHeld: firstHeld)
            try await one
            try await two

            #expect(firstRuns.total + secondRuns.total > 2, "one of the deadlocked transactions ran again")
            #expect(try store.get(SampleSchema.jobs, first)?.value.loads == 2)
            #expect(try store.get(SampleSchema.jobs, second)?.value.loads == 2)
        }
    }

    /// A record held by a slow writer past the lock timeout: the other writer's attempt times out,
    /// is rolled back and runs again after a short backoff, and commits once the lock is free.
    @Test func aLockTimeoutIsRetriedUntilTheLockIsFree() async throws {
        try await withTemporaryStore(schema: SampleSchema.schema, configure: { $0.lockTimeout = .milliseconds(20); $0.maxAttempts = 50 }) { store, _ in
            let id = try await store.write { try $0.insert(SampleSchema.jobs, job(loads: 0)) }.id
            let (held, release) = (Flag(), DispatchSemaphore(value: 0))
            async let holder: Void = store.write { transaction in
                try transaction.update(SampleSchema.jobs, id) { $0.loads += 100 }
                held.set()
                _ = release.wait(timeout: .now() + .seconds(120))  // released below; the bound only keeps a broken test from hanging
            }
            while !held.isSet { try await Task.sleep(for: .milliseconds(1)) }

            let runs = Runs()
            async let contender: Void = store.write { transaction in
                _ = runs.next()
                try transaction.update(SampleSchema.jobs, id) { $0.loads += 1 }
            }
            // Keep the lock until the contender's first attempt has timed out and its retry started.
            while runs.total < 2 { try await Task.sleep(for: .milliseconds(1)) }
            release.signal()
            try await holder
            try await contender

            #expect(try store.get(SampleSchema.jobs, id)?.value.loads == 101)
            #expect(try store.get(SampleSchema.jobs, id)?.version == 3)
        }
    }

    /// The retries are bounded: a lock held through every attempt ends in `.conflict` (ABORTED for
    /// clients), after exactly `maxAttempts` runs of the body.
    @Test func retriesStopAfterMaxAttempts() async throws {
        try await withTemporaryStore(schema: SampleSchema.schema, configure: { $0.lockTimeout = .milliseconds(10); $0.maxAttempts = 3 }) { store, _ in
            let id = try await store.write { try $0.insert(SampleSchema.jobs, job(loads: 0)) }.id
            let (held, release) = (Flag(), DispatchSemaphore(value: 0))
            async let holder: Void = store.write { transaction in
                try transaction.update(SampleSchema.jobs, id) { $0.loads += 100 }
                held.set()
                _ = release.wait(timeout: .now() + .seconds(120))  // released below; the bound only keeps a broken test from hanging
            }
            while !held.isSet { try await Task.sleep(for: .milliseconds(1)) }

            let runs = Runs()
            let outcome = await outcome {
                try await store.write { transaction in
                    _ = runs.next()
                    try transaction.update(SampleSchema.jobs, id) { $0.loads += 1 }
                }
            }
            release.signal()
            try await holder

            guard case .failure(let error) = outcome, case .conflict? = error as? StoreError else {
                Issue.record("expected a conflict, got \(outcome)")
                return
            }
            #expect(runs.total == 3)
            #expect(try store.get(SampleSchema.jobs, id)?.value.loads == 100)
        }
    }
}
