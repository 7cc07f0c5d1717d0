import Foundation
import SoukEtcd
import SoukStore
import SoukTesting
import Testing

/// `MirroredKeyValueEngine`: the engine contract holds through the copy, reads are answered from
/// it, and its answers are those of the engine underneath at every revision.
@Suite struct MirroredEngineTests {
    /// A copy of a fresh in-memory engine, loaded (with some keys written before it loads).
    static func mirrored(history: EngineRevision = 20_000) throws -> (MirroredKeyValueEngine, CountingEngine) {
        let base = CountingEngine(MemoryKeyValueEngine())
        _ = try base.commit(if: [], then: [.put(Array("before/a".utf8), [1]), .put(Array("before/b".utf8), [2])])
        let mirror = MirroredKeyValueEngine(base: base, historyRevisions: history)
        try mirror.start()
        return (mirror, base)
    }

    /// Runs `body` on a thread of its own with a loaded copy (`mirrored`), closed after.
    static func withMirror(history: EngineRevision = 20_000,
                           _ body: @escaping @Sendable (MirroredKeyValueEngine, CountingEngine) throws -> Void) async throws {
        try await onThread {
            let (mirror, base) = try mirrored(history: history)
            defer { mirror.close() }
            try body(mirror, base)
        }
    }

    static func check(_ body: @escaping @Sendable (any KeyValueEngine, [UInt8]) throws -> Void) async throws {
        try await withMirror { mirror, _ in try body(mirror, Array("conformance/".utf8)) }
    }

    @Test func readAtRevision() async throws { try await Self.check(KeyValueEngineConformance.readAtRevision) }
    @Test func scanBothDirections() async throws { try await Self.check(KeyValueEngineConformance.scanBothDirections) }
    @Test func conditionalCommit() async throws { try await Self.check(KeyValueEngineConformance.conditionalCommit) }
    @Test func watchInOrder() async throws { try await Self.check(KeyValueEngineConformance.watchInOrder) }
    @Test func concurrentIncrements() async throws { try await Self.check { try KeyValueEngineConformance.concurrentIncrements($0, prefix: $1) } }
    @Test func twoTakersOneWinner() async throws { try await Self.check { try KeyValueEngineConformance.twoTakersOneWinner($0, prefix: $1) } }

    /// A transaction's reads after its revision are answered by the copy: the engine underneath
    /// is asked only for the latest revision.
    @Test func readsAreAnsweredByTheCopy() async throws {
        try await Self.withMirror { mirror, base in
            let key = Array("before/a".utf8)
            base.reset()
            let first = try mirror.read([key], at: nil)
            #expect(first.entries == [EngineEntry(key: key, value: [1], modRevision: first.revision)])
            for _ in 0..<20 { _ = try mirror.read([key, Array("before/b".utf8)], at: first.revision) }
            let page = try mirror.scan(from: Array("before/".utf8), to: Array("before0".utf8), direction: .descending, limit: 10, at: first.revision)
            #expect(page.entries.map(\.value) == [[2], [1]])
            #expect(base.reads == 0)
            #expect(base.scans == 0)
            #expect(base.latestRevisions == 1)
        }
    }

    /// A commit made by another node (straight to the engine underneath) is seen by the very next
    /// read through the copy: its revision is asked from the engine, and the read waits for the watch.
    @Test func anotherNodesCommitIsSeenAtOnce() async throws {
        try await onThread {
            let base = MemoryKeyValueEngine()
            let one = MirroredKeyValueEngine(base: base)
            let two = MirroredKeyValueEngine(base: base)
            try one.start()
            try two.start()
            defer {
                one.close()
                two.close()
            }
            let key = Array("shared".utf8)
            for value in 0..<50 {
                let writer = value % 2 == 0 ? one : two, reader = value % 2 == 0 ? two : one
                let revision = try KeyValueEngineConformance.committed(writer.commit(if: [], then: [.put(key, [UInt8(value)])]))
                let read = try reader.read([key], at: nil)
                #expect(read.revision >= revision)
                #expect(read.entries == [EngineEntry(key: key, value: [UInt8(value)], modRevision: revision)])
            }
        }
    }

    /// Random puts and deletes: every read and scan through the copy, at every revision it still
    /// keeps and at older ones, in both directions, with bounds and limits, answers what the
    /// engine underneath answers.
    @Test func answersMatchTheEngineAtEveryRevision() async throws {
        try await Self.withMirror(history: 40) { mirror, base in
            var generator = SplitMix(state: 20261127)
            let names = (0..<24).map { Array("m/\(String(format: "%02d", $0))".utf8) }
            var revisions: [EngineRevision] = []
            for _ in 0..<300 {
                var writes: [EngineWrite] = []
                for _ in 0..<(1 + generator.next(3)) {
                    let key = names[generator.next(names.count)]
                    writes.append(generator.next(4) == 0 ? .delete(key) : .put(key, [UInt8(generator.next(256))]))
                }
                if case .committed(let revision) = try mirror.commit(if: [], then: writes) { revisions.append(revision) }
                // Now and then, compare everything at a revision, recent or old.
                guard generator.next(10) == 0 else { continue }
                let at = revisions[max(0, revisions.count - 1 - generator.next(80))]
                let keys = (0..<4).map { _ in names[generator.next(names.count)] }
                #expect(try mirror.read(keys, at: at).entries == base.read(keys, at: at).entries, "read at \(at)")
                let lower = generator.next(3) == 0 ? [] : names[generator.next(names.count)]
                let upper: [UInt8]? = generator.next(3) == 0 ? nil : names[generator.next(names.count)]
                for direction in [ScanDirection.ascending, .descending] {
                    let limit = 1 + generator.next(8)
                    let expected = try base.scan(from: lower, to: upper, direction: direction, limit: limit, at: at)
                    let got = try mirror.scan(from: lower, to: upper, direction: direction, limit: limit, at: at)
                    #expect(got.entries == expected.entries, "scan \(direction) limit \(limit) at \(at)")
                    #expect(got.more == expected.more, "scan \(direction) limit \(limit) at \(at)")
                }
            }
            #expect(try mirror.read(names, at: nil).entries == base.read(names, at: nil).entries)
            // The copy keeps about its history: the oldest revisions went to the engine underneath.
            #expect(mirror.progress?.revision == revisions.last)
        }
    }

    /// When the copy's watch is cut, reads go to the engine underneath (still right) while the
    /// copy loads again, and then it answers again, with what was committed meanwhile.
    @Test func aCutWatchLoadsTheCopyAgain() async throws {
        try await Self.withMirror { mirror, base in
            let key = Array("k".utf8)
            _ = try mirror.commit(if: [], then: [.put(key, [1])])
            #expect(mirror.progress != nil)
            base.memory.cutWatches()
            let during = try KeyValueEngineConformance.committed(base.commit(if: [], then: [.put(key, [2])]))
            #expect(try mirror.read([key], at: nil).entries == [EngineEntry(key: key, value: [2], modRevision: during)])
            let deadline = Date(timeIntervalSinceNow: 60)
            while mirror.progress == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(mirror.progress != nil, "the copy loads again")
            base.reset()
            #expect(try mirror.read([key], at: nil).entries == [EngineEntry(key: key, value: [2], modRevision: during)])
            #expect(base.reads == 0)
        }
    }

    /// A node's own commit is in its copy as soon as the commit returns: its next transaction
    /// reads it from the copy without waiting for the watch.
    @Test func anOwnCommitIsTakenWithoutTheWatch() async throws {
        try await Self.withMirror { mirror, base in
            let key = Array("own".utf8)
            base.hold()
            let revision = try KeyValueEngineConformance.committed(mirror.commit(if: [], then: [.put(key, [1]), .delete(Array("before/a".utf8))]))
            base.reset()
            let read = try mirror.read([key, Array("before/a".utf8)], at: nil)
            #expect(read.entries == [EngineEntry(key: key, value: [1], modRevision: revision), nil])
            #expect(base.reads == 0, "answered by the copy, not after the wait for the watch")
            base.release()
            _ = try KeyValueEngineConformance.committed(mirror.commit(if: [], then: [.put(key, [2])]))
            #expect(try mirror.read([key], at: nil).entries.first??.value == [2])
        }
    }

    /// On etcd a commit of deletes alone that changes nothing makes no revision and answers the
    /// latest one: the copy must not take it as that revision, whose changes are another node's.
    @Test func aCommitThatChangesNothingIsNotTakenForAnotherNodesRevision() async throws {
        try await onThread {
            let memory = MemoryKeyValueEngine()
            let base = CountingEngine(memory, unchangingDeletesMakeNoRevision: true)
            let mirror = MirroredKeyValueEngine(base: base)
            try mirror.start()
            defer { mirror.close() }
            let other = Array("other".utf8), absent = Array("absent".utf8)
            _ = try mirror.read([other], at: nil)
            base.hold()
            let theirs = try KeyValueEngineConformance.committed(memory.commit(if: [], then: [.put(other, [7])]))
            let mine = try KeyValueEngineConformance.committed(mirror.commit(if: [], then: [.delete(absent)]))
            #expect(mine == theirs, "the latest revision, as etcd answers for a commit that changes nothing")
            base.release()
            #expect(try mirror.read([other], at: nil).entries == [EngineEntry(key: other, value: [7], modRevision: theirs)])
        }
    }

    /// Through the copy on the etcd cluster: the contract's checks.
    @Test(.enabled(if: EtcdTestCluster.url != nil, "SOUK_ETCD_ENDPOINTS is not set"))
    func conformanceOnEtcd() async throws {
        try await onThread {
            let etcd = try EtcdTestCluster.engine()
            let mirror = MirroredKeyValueEngine(base: etcd)
            try mirror.start()
            defer {
                mirror.close()
                etcd.close()
            }
            try KeyValueEngineConformance.readAtRevision(mirror, prefix: EtcdTestCluster.prefix("mirror-read"))
            try KeyValueEngineConformance.scanBothDirections(mirror, prefix: EtcdTestCluster.prefix("mirror-scan"))
            try KeyValueEngineConformance.conditionalCommit(mirror, prefix: EtcdTestCluster.prefix("mirror-commit"))
            try KeyValueEngineConformance.concurrentIncrements(mirror, prefix: EtcdTestCluster.prefix("mirror-increments"))
            try KeyValueEngineConformance.twoTakersOneWinner(mirror, prefix: EtcdTestCluster.prefix("mirror-takers"))
        }
    }
}

/// An engine that counts the reads, scans and revision asks that reach it, and can hold back
/// what its watches deliver (a watch running late).
final class CountingEngine: KeyValueEngine, @unchecked Sendable {
    let engine: any KeyValueEngine
    private let counts = Locked((reads: 0, scans: 0, latest: 0))
    /// While held, deliveries wait here, in order.
    private let held = Locked<[@Sendable () -> Void]?>(nil)

    /// As etcd: a commit of deletes of absent keys alone changes nothing and answers the latest revision.
    let unchangingDeletesMakeNoRevision: Bool

    init(_ engine: any KeyValueEngine, unchangingDeletesMakeNoRevision: Bool = false) {
        self.engine = engine
        self.unchangingDeletesMakeNoRevision = unchangingDeletesMakeNoRevision
    }

    var memory: MemoryKeyValueEngine { engine as! MemoryKeyValueEngine }
    var limits: EngineLimits { engine.limits }
    var reads: Int { counts.value.reads }
    var scans: Int { counts.value.scans }
    var latestRevisions: Int { counts.value.latest }
    func reset() { counts.update { $0 = (0, 0, 0) } }

    /// Watches deliver nothing until `release`.
    func hold() { held.update { $0 = $0 ?? [] } }

    /// Delivers what was held, then lets deliveries through again.
    func release() {
        var pending: [@Sendable () -> Void] = []
        held.update {
            pending = $0 ?? []
            $0 = nil
        }
        for delivery in pending { delivery() }
    }

    func read(_ keys: [[UInt8]], at revision: EngineRevision?) throws -> (entries: [EngineEntry?], revision: EngineRevision) {
        counts.update { $0.reads += 1 }
        return try engine.read(keys, at: revision)
    }

    func scan(from lower: [UInt8], to upper: [UInt8]?, direction: ScanDirection, limit: Int, at revision: EngineRevision?) throws
        -> (entries: [EngineEntry], more: Bool, revision: EngineRevision) {
        counts.update { $0.scans += 1 }
        return try engine.scan(from: lower, to: upper, direction: direction, limit: limit, at: revision)
    }

    func commit(if conditions: [EngineCondition], then writes: [EngineWrite]) throws -> EngineCommitResult {
        if unchangingDeletesMakeNoRevision, conditions.isEmpty {
            let deleted = writes.compactMap { write -> [UInt8]? in if case .delete(let key) = write { key } else { nil } }
            if deleted.count == writes.count, try engine.read(deleted, at: nil).entries.allSatisfy({ $0 == nil }) {
                return .committed(try engine.latestRevision())
            }
        }
        return try engine.commit(if: conditions, then: writes)
    }

    func watch(prefix: [UInt8], after revision: EngineRevision, onChanges: @escaping @Sendable ([EngineChange]) -> Void,
               onFailure: @escaping @Sendable (StoreError) -> Void) throws -> any EngineWatch {
        try engine.watch(
            prefix: prefix, after: revision,
            onChanges: { [self] changes in
                var now = true
                held.update { pending in
                    guard pending != nil else { return }
                    pending!.append { onChanges(changes) }
                    now = false
                }
                if now { onChanges(changes) }
            },
            onFailure: onFailure)
    }

    func latestRevision() throws -> EngineRevision {
        counts.update { $0.latest += 1 }
        return try engine.latestRevision()
    }
}

extension SplitMix {
    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
