import Testing
import SoukStore
import SoukStoreFixtures
import SoukTesting

@Suite struct EventLogTests {
    @Test func eventsAreNumberedInOrderPerStream() async throws {
        try await withTemporaryStore(schema: SampleSchema.schema) { store, _ in
            for n in 1...5 {
                let sequence = try await store.write { tx in
                    try tx.insert(SampleSchema.jobs, job())
                    return try tx.appendEvent(to: "a", [UInt8(n)])
                }
                #expect(sequence == UInt64(n))
            }
            let both = try await store.write { tx in [try tx.appendEvent(to: "a", [6]), try tx.appendEvent(to: "b", [1]), try tx.appendEvent(to: "a", [7])] }
            #expect(both == [6, 1, 7])
            #expect(try store.events(in: "a", after: 0).map(\.payload) == (1...7).map { [UInt8($0)] })
            #expect(try store.events(in: "a", after: 4, limit: 2).map(\.sequence) == [5, 6])
            #expect(try store.events(in: "a", after: 7).isEmpty)
            #expect(try store.events(in: "nothing", after: 0).isEmpty)
            #expect(try store.lastSequence(of: "b") == 1)
        }
    }

    /// A follower resuming after N gets N+1… and then live events, each once, while writers keep appending.
    @Test func followerResumesWithoutGapOrDuplicate() async throws {
        try await withTemporaryStore(schema: SampleSchema.schema) { store, _ in
            for n in 1...10 { _ = try await store.write { try $0.appendEvent(to: "order/1", [UInt8(n)]) } }
            let writer = Task {
                for n in 11...200 {
                    _ = try await store.write { try $0.appendEvent(to: "order/1", [UInt8(n % 256)]) }
                    if n % 50 == 0 { _ = try await store.write { try $0.appendEvent(to: "other", [0]) } }
                }
            }
            var seen = [UInt64]()
            for try await event in store.follow("order/1", after: 4) {
                seen.append(event.sequence)
                if event.sequence == 200 { break }
            }
            try await writer.value
            #expect(seen == Array(5...200))
        }
    }

    @Test func followerEndsWhenItsTaskIsCancelled() async throws {
        try await withTemporaryStore(schema: SampleSchema.schema) { store, _ in
            let follower = Task { () -> Int in
                var count = 0
                for try await _ in store.follow("quiet", after: 0) { count += 1 }
                return count
            }
            _ = try await store.write { try $0.appendEvent(to: "quiet", [1]) }
            while try store.lastSequence(of: "quiet") < 1 { await Task.yield() }
            follower.cancel()
            let count = try await follower.value
            #expect(count <= 1)
        }
    }

    @Test func retentionRemovesOldEventsAndResumingBeforeThemFails() async throws {
        let clock = ManualClock()
        try await withTemporaryStore(schema: SampleSchema.schema, clock: clock) { store, _ in
            for n in 1...3 { _ = try await store.write { try $0.appendEvent(to: "s", [UInt8(n)]) } }
            clock.advance(.seconds(6 * 24 * 3600))
            for n in 4...5 { _ = try await store.write { try $0.appendEvent(to: "s", [UInt8(n)]) } }
            clock.advance(.seconds(2 * 24 * 3600))
            #expect(try await store.purgeExpiredEvents(batchSize: 2) == 3)
            #expect(try store.events(in: "s", after: 3).map(\.sequence) == [4, 5])
            #expect(throws: StoreError.eventsExpired(stream: "s", oldestAvailable: 4)) { _ = try store.events(in: "s", after: 1) }
            // Numbering continues after retention.
            #expect(try await store.write { try $0.appendEvent(to: "s", [6]) } == 6)
        }
    }
}
