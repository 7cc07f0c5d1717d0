import Testing
import SoukStore
import SoukStoreFixtures
import SoukTesting

@Suite struct EventLogTests {
    @Test(arguments: StoreEngineKind.allCases) func eventsAreNumberedInOrderPerStream(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
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
    @Test(arguments: StoreEngineKind.allCases) func followerResumesWithoutGapOrDuplicate(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
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

    /// Many followers of one stream, fed from the in-memory tail, while several writers append
    /// at once (so commits may be announced out of order): each follower sees every event once,
    /// in order, with the payload the log holds, including one replaced before its commit.
    @Test(arguments: StoreEngineKind.allCases) func manyFollowersOfOneStreamEachSeeEveryEventOnceWithItsStoredPayload(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            _ = try await store.write { try $0.appendEvent(to: "crowd", [0]) }
            let total: UInt64 = 121
            let followers = (0..<50).map { _ in
                Task { () -> [StoredEvent] in
                    var seen: [StoredEvent] = []
                    for try await event in store.follow("crowd", after: 1) {
                        seen.append(event)
                        if event.sequence == total { break }
                    }
                    return seen
                }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for n in 0..<30 {
                            _ = try await store.write { tx in
                                let sequence = try tx.appendEvent(to: "crowd", [UInt8(writer), UInt8(n)])
                                // The event as finally written is the one followers get.
                                try tx.replaceAppendedEvent(in: "crowd", sequence: sequence, [UInt8(writer), UInt8(n), 1])
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let stored = try store.events(in: "crowd", after: 1, limit: 200)
            #expect(stored.count == Int(total) - 1 && stored.allSatisfy { $0.payload.count == 3 })
            for follower in followers {
                let seen = try await follower.value
                #expect(seen == stored)
            }
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func followerEndsWhenItsTaskIsCancelled(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
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

    @Test(arguments: StoreEngineKind.allCases) func retentionRemovesOldEventsAndResumingBeforeThemFails(engine: StoreEngineKind) async throws {
        let clock = ManualClock()
        try await withStore(engine, schema: SampleSchema.schema, clock: clock) { store, _ in
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
