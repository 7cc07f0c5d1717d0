import Dispatch
import NIOPosix
import Synchronization
import Testing
@_spi(Testing) @testable import SoukStore
import SoukStoreFixtures
import SoukTesting

/// `MemoryKeyValueEngine`: the contract `KeyValueEngine` states (etcd's behaviour).
@Suite struct MemoryKeyValueEngineTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func commitsAreConditionalAndReadsSeePastRevisions() throws {
        let engine = MemoryKeyValueEngine()
        let start = engine.revision
        guard case .committed(let first) = try engine.commit(if: [.absent(bytes("a"))], then: [.put(bytes("a"), bytes("1"))]) else {
            Issue.record("the first put was refused")
            return
        }
        #expect(first == start + 1)
        // `a` exists now: a second "absent" fails and writes nothing.
        #expect(try engine.commit(if: [.absent(bytes("a"))], then: [.put(bytes("b"), bytes("x"))]) == .conditionFailed)
        #expect(try engine.commit(if: [.unchangedSince(bytes("a"), first - 1)], then: [.put(bytes("a"), bytes("x"))]) == .conditionFailed)
        guard case .committed(let second) = try engine.commit(if: [.unchangedSince(bytes("a"), first)], then: [.put(bytes("a"), bytes("2")), .delete(bytes("zz"))]) else {
            Issue.record("a put on an unchanged key was refused")
            return
        }
        let now = try engine.read([bytes("a"), bytes("b")], at: nil)
        #expect(now.revision == second)
        #expect(now.entries == [EngineEntry(key: bytes("a"), value: bytes("2"), modRevision: second), nil])
        #expect(try engine.read([bytes("a")], at: first).entries == [EngineEntry(key: bytes("a"), value: bytes("1"), modRevision: first)])
        #expect(try engine.read([bytes("a")], at: start).entries == [nil])

        engine.compact(through: second)
        #expect(throws: StoreError.self) { _ = try engine.read([bytes("a")], at: first) }
        #expect(try engine.read([bytes("a")], at: second).entries.first??.value == bytes("2"))
    }

    @Test func scansPageInBothDirections() throws {
        let engine = MemoryKeyValueEngine()
        _ = try engine.commit(if: [], then: (0..<10).map { .put(bytes("k\($0)"), bytes("\($0)")) })
        let revision = engine.revision
        _ = try engine.commit(if: [], then: [.delete(bytes("k3")), .put(bytes("k10"), bytes("new"))])

        let up = try engine.scan(from: bytes("k2"), to: bytes("k6"), direction: .ascending, limit: 3, at: nil)
        #expect(up.entries.map(\.key) == [bytes("k2"), bytes("k4"), bytes("k5")])
        #expect(!up.more)
        let down = try engine.scan(from: bytes("k"), to: nil, direction: .descending, limit: 2, at: nil)
        #expect(down.entries.map(\.key) == [bytes("k9"), bytes("k8")])
        #expect(down.more)
        let past = try engine.scan(from: bytes("k2"), to: bytes("k6"), direction: .ascending, limit: 10, at: revision)
        #expect(past.entries.map(\.key) == [bytes("k2"), bytes("k3"), bytes("k4"), bytes("k5")])
        #expect(past.revision == revision)
    }

    @Test func aWatchSeesEachCommitAfterItsRevisionInOrder() async throws {
        let engine = MemoryKeyValueEngine()
        _ = try engine.commit(if: [], then: [.put(bytes("w/1"), bytes("a")), .put(bytes("other"), bytes("-"))])
        let from = engine.revision
        _ = try engine.commit(if: [], then: [.put(bytes("w/2"), bytes("b"))])
        let seen = Shared<[[EngineChange]]>([])
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let watch = try engine.watch(prefix: bytes("w/"), after: from, onChanges: { changes in
            seen.mutex.withLock { $0.append(changes) }
            continuation.yield()
        }, onFailure: { _ in })
        defer { watch.cancel() }
        _ = try engine.commit(if: [], then: [.delete(bytes("w/1")), .put(bytes("other"), bytes("+"))])
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
        _ = await iterator.next()
        let commits = seen.mutex.withLock { $0 }
        #expect(commits == [
            [EngineChange(key: bytes("w/2"), value: bytes("b"), modRevision: from + 1)],
            [EngineChange(key: bytes("w/1"), value: nil, modRevision: from + 2)],
        ])
    }
}

/// The store over the optimistic engine: what the locks gave, by conditions and retries.
@Suite struct OptimisticTransactionTests {
    /// Two takers of one queue item at once (both look before either commits): exactly one takes
    /// it. On RocksDB the second is passed over (`getUnlessLocked`); on the optimistic engine both
    /// read it, one commit fails its condition, and its rerun finds the item taken.
    @Test(arguments: StoreEngineKind.allCases) func twoTakersOfOneItemMakeOneWinner(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let item = try await store.write { try $0.insert(SampleSchema.jobs, job()) }.id
            let arrived = Shared(0)
            let bothLooked = DispatchSemaphore(value: 0)
            let runs = Counter()
            let winners = try await withThrowingTaskGroup(of: String?.self) { group in
                for courier in ["c1", "c2"] {
                    group.addTask {
                        try await store.write { tx -> String? in
                            runs.increment()
                            let looked = try tx.getUnlessLocked(SampleSchema.jobs, item)
                            // The first runs of both wait for each other, so they overlap.
                            let count = arrived.mutex.withLock { $0 += 1; return $0 }
                            if count == 2 { bothLooked.signal(); bothLooked.signal() }
                            if count <= 2 { _ = bothLooked.wait(timeout: .now() + .seconds(10)) }
                            guard case .read(let record?) = looked, record.value.status == .pending else { return nil }
                            try tx.update(SampleSchema.jobs, item) { $0.status = .accepted; $0.courier = courier }
                            return courier
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { if let won = $1 { $0.append(won) } }
            }
            #expect(winners.count == 1)
            let taken = try #require(try store.get(SampleSchema.jobs, item))
            #expect(taken.value.courier == winners.first)
            #expect(taken.version == 2)
            if engine == .memory { #expect(runs.value == 3) }  // the loser ran again
        }
    }

    /// An unlocked read (`Transaction.read`) decides nothing: a change to what it read meanwhile
    /// does not make the transaction run again.
    @Test(arguments: StoreEngineKind.allCases) func anUnlockedReadAddsNoCondition(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let product = try await store.write { try $0.insert(SampleSchema.jobs, job(owner: "product")) }.id
            let cart = try await store.write { try $0.insert(SampleSchema.jobs, job(owner: "cart")) }.id
            // The block waits on its writer thread; this task awaits (it never blocks a thread of the pool).
            let (read, readSignal) = AsyncStream.makeStream(of: Void.self)
            let changed = DispatchSemaphore(value: 0)
            let runs = Counter()
            async let buyer: Void = store.write { tx in
                runs.increment()
                _ = try tx.read(SampleSchema.jobs, product)
                if runs.value == 1 {
                    readSignal.yield()
                    _ = changed.wait(timeout: .now() + .seconds(10))
                }
                try tx.update(SampleSchema.jobs, cart) { $0.loads += 1 }
            }
            var reads = read.makeAsyncIterator()
            _ = await reads.next()
            _ = try await store.write { try $0.update(SampleSchema.jobs, product) { $0.loads = 7 } }
            changed.signal()
            try await buyer
            #expect(runs.value == 1)
            #expect(try store.get(SampleSchema.jobs, cart)?.value.loads == 2)
        }
    }

    /// A transaction larger than one commit of the engine is refused whole, naming the limit.
    @Test func aCommitOverTheEnginesLimitFailsAndWritesNothing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try StoreEngineKind.memory.opener().open(StoreConfiguration.forTests(directory.path), schema: SampleSchema.schema)
        let error = await #expect(throws: StoreError.self) {
            _ = try await store.write { tx in
                for n in 0..<40 { try tx.insert(SampleSchema.jobs, job(owner: "o\(n)")) }
            }
        }
        guard case .engine(let operation, let message)? = error else {
            Issue.record("not an engine error: \(String(describing: error))")
            return
        }
        #expect(operation == "commit")
        #expect(message.contains("at most 128 writes per commit"))
        #expect(message.contains("maxWrites"))
        #expect(try store.list(SampleSchema.jobs, SampleSchema.jobsByStatus, IndexRange(prefix: ["m1"])).items.isEmpty)
        // What fits is written.
        _ = try await store.write { tx in for n in 0..<10 { try tx.insert(SampleSchema.jobs, job(owner: "o\(n)")) } }
        #expect(try store.list(SampleSchema.jobs, SampleSchema.jobsByStatus, IndexRange(prefix: ["m1"])).items.count == 10)
        await store.close()
    }

    /// Maintenance runs over the engine in commits it accepts: event retention, idempotency
    /// expiry and `verify`.
    @Test func maintenanceFitsItsBatchesToTheEnginesLimits() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let clock = ManualClock()
        let store = try StoreEngineKind.memory.opener().open(StoreConfiguration.forTests(directory.path, clock: clock), schema: SampleSchema.schema)
        for batch in 0..<10 {
            _ = try await store.write { tx in for n in 0..<30 { try tx.appendEvent(to: "s\(batch)", [UInt8(n)]) } }
        }
        for n in 0..<150 {
            _ = try await store.write(
                idempotencyKey: IdempotencyKey(marketplace: "m", account: "a", key: "k\(n)"), fingerprint: RequestFingerprint([UInt8(n % 256)]),
                responseCodec: BytesCodec()) { _ in [UInt8(n % 256)] }
        }
        clock.advance(.seconds(8 * 24 * 3600))
        #expect(try await store.purgeExpiredEvents() == 300)
        #expect(try await store.purgeExpiredIdempotencyRecords() == 150)
        #expect(try store.lastSequence(of: "s3") == 30)
        #expect(try await store.verify().isConsistent)
        await store.close()
    }

    /// Backups, compaction and RocksDB's statistics are RocksDB's: a store over another engine says so.
    @Test func rocksDBMaintenanceIsRefusedClearly() async throws {
        try await withStore(.memory, schema: SampleSchema.schema) { store, directory in
            for call in [
                { _ = try await store.backup(to: directory.sub("backup")) },
                { try await store.compact() },
                { try await store.flush() },
                { _ = try store.statistics() },
            ] as [@Sendable () async throws -> Void] {
                let error = await #expect(throws: StoreError.self) { try await call() }
                guard case .engine(_, let message)? = error else { Issue.record("unexpected \(String(describing: error))"); continue }
                #expect(message.contains("only the embedded RocksDB store"))
            }
        }
    }
}

/// Two stores over one engine, as two server nodes over one etcd cluster.
@Suite struct CrossNodeEventTests {
    /// A follower on node A is woken by an append committed through node B, and gets it once.
    @Test func aFollowerOnOneNodeSeesAnAppendThroughAnother() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let opener = StoreEngineKind.memory.opener()
        let a = try opener.open(StoreConfiguration.forTests(directory.sub("a")), schema: SampleSchema.schema)
        let b = try opener.open(StoreConfiguration.forTests(directory.sub("b")), schema: SampleSchema.schema)
        _ = try await a.write { try $0.appendEvent(to: "order/1", [1]) }

        var feed = a.follow("order/1", after: 0).makeAsyncIterator()
        #expect(try await feed.next()?.payload == [1])
        _ = try await b.write { try $0.appendEvent(to: "order/1", [2]) }
        let second = try #require(try await feed.next())
        #expect(second.sequence == 2)
        #expect(second.payload == [2])
        _ = try await a.write { try $0.appendEvent(to: "order/1", [3]) }
        #expect(try await feed.next()?.sequence == 3)
        await a.close()
        await b.close()
    }

    /// A push follower on node A gets every event once: A's own commits (told at once, and seen
    /// again by A's watch) and B's (through the watch).
    @Test func aPushFollowerGetsEachEventOnceWhoeverCommittedIt() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let opener = StoreEngineKind.memory.opener()
        let a = try opener.open(StoreConfiguration.forTests(directory.sub("a")), schema: SampleSchema.schema)
        let b = try opener.open(StoreConfiguration.forTests(directory.sub("b")), schema: SampleSchema.schema)
        let delivered = Shared<[UInt64]>([])
        let (stream, continuation) = AsyncStream.makeStream(of: UInt64.self)
        let push = try #require(a.push("dasher/9", to: EventPush.Target(
            eventLoop: group.next(),
            deliver: { events in
                delivered.mutex.withLock { $0 += events.map(\.sequence) }
                for event in events { continuation.yield(event.sequence) }
            },
            closed: { continuation.finish() })))
        for n in 1...3 { _ = try await a.write { try $0.appendEvent(to: "dasher/9", [UInt8(n)]) } }
        _ = try await b.write { try $0.appendEvent(to: "dasher/9", [4]) }
        // B's event comes through A's watch after the echoes of A's own three commits.
        for await sequence in stream where sequence == 4 { break }
        _ = try await a.write { try $0.appendEvent(to: "dasher/9", [5]) }
        _ = try await b.write { try $0.appendEvent(to: "dasher/9", [6]) }
        for await sequence in stream where sequence == 6 { break }
        #expect(delivered.mutex.withLock { $0 } == [1, 2, 3, 4, 5, 6])
        push.cancel()
        await a.close()
        await b.close()
        try await group.shutdownGracefully()
    }
}

/// Commit observers on a node whose watch of the table is cut off (etcd ends a watch that fell
/// behind a compaction): told that changes may have been missed, then told of later changes again.
@Suite struct CutWatchTests {
    @Test(.timeLimit(.minutes(1))) func observersAreToldOfTheGapAndHearLaterChanges() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let opener = StoreEngineKind.memory.opener()
        let a = try opener.open(StoreConfiguration.forTests(directory.sub("a")), schema: SampleSchema.schema)
        let b = try opener.open(StoreConfiguration.forTests(directory.sub("b")), schema: SampleSchema.schema)
        let (heard, told) = AsyncStream.makeStream(of: CommittedChanges.self)
        a.observeCommits(to: SampleSchema.jobs) { told.yield($0) }
        var notices = heard.makeAsyncIterator()
        let first = try await b.write { try $0.insert(SampleSchema.jobs, job(loads: 1)).id }
        #expect(await notices.next() == .records([first]))

        opener.memory.cutWatches()
        #expect(await notices.next() == .unknown)
        let second = try await b.write { try $0.insert(SampleSchema.jobs, job(loads: 2)).id }
        #expect(await notices.next() == .records([second]))
        await a.close()
        await b.close()
    }
}

/// A value behind a lock that escaping closures share.
final class Shared<Value: Sendable>: Sendable {
    let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
}
