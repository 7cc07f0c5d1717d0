import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import SoukStore

/// `CommitGroups`: commits that wait together go to the engine as one, with the outcomes each
/// would have had alone.
@Suite struct CommitGroupsTests {
    /// A memory engine whose first commit waits until released, so that others queue behind it;
    /// it counts commits and reads, and can fail every commit after the first.
    final class GatedEngine: KeyValueEngine, Sendable {
        let base: MemoryKeyValueEngine
        var limits: EngineLimits { base.limits }
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        private let counts = Mutex((commits: 0, reads: 0, gated: true, failLater: false))

        init(limits: EngineLimits = MemoryKeyValueEngine.etcdDefaults) {
            base = MemoryKeyValueEngine(limits: limits)
        }

        var commits: Int { counts.withLock { $0.commits } }
        var reads: Int { counts.withLock { $0.reads } }
        func failLaterCommits() { counts.withLock { $0.failLater = true } }

        func read(_ keys: [[UInt8]], at revision: EngineRevision?) throws -> (entries: [EngineEntry?], revision: EngineRevision) {
            counts.withLock { $0.reads += 1 }
            return try base.read(keys, at: revision)
        }

        func scan(from lower: [UInt8], to upper: [UInt8]?, direction: ScanDirection, limit: Int, at revision: EngineRevision?) throws
            -> (entries: [EngineEntry], more: Bool, revision: EngineRevision) {
            try base.scan(from: lower, to: upper, direction: direction, limit: limit, at: revision)
        }

        func commit(if conditions: [EngineCondition], then writes: [EngineWrite]) throws -> EngineCommitResult {
            let (gate, fail) = counts.withLock { counts -> (Bool, Bool) in
                counts.commits += 1
                defer { counts.gated = false }
                return (counts.gated, counts.failLater && !counts.gated)
            }
            if gate {
                entered.signal()
                release.wait()
            }
            if fail { throw StoreError.engine(operation: "commit", message: "the cluster is unreachable") }
            return try base.commit(if: conditions, then: writes)
        }

        func watch(prefix: [UInt8], after revision: EngineRevision, onChanges: @escaping @Sendable ([EngineChange]) -> Void,
                   onFailure: @escaping @Sendable (StoreError) -> Void) throws -> any EngineWatch {
            try base.watch(prefix: prefix, after: revision, onChanges: onChanges, onFailure: onFailure)
        }
    }

    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    private func bytes(_ text: String) -> [UInt8] { Self.bytes(text) }

    /// Starts a commit on its own thread; its outcome is `wait()`ed for.
    private final class Started: Sendable {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<EngineCommitResult, any Error>?>(nil)

        func wait() throws -> EngineCommitResult {
            done.wait()
            return try outcome.withLock { $0! }.get()
        }
    }

    private func start(_ groups: CommitGroups, if conditions: [EngineCondition] = [], then writes: [EngineWrite]) -> Started {
        let started = Started()
        // A thread of its own: the commit blocks it, and a pool's few threads would run out.
        Thread {
            let outcome = Result { try groups.commit(if: conditions, then: writes, bytes: 64) }
            started.outcome.withLock { $0 = outcome }
            started.done.signal()
        }.start()
        return started
    }

    /// Holds the engine's only commit slot with a first commit, queues `commits` behind it, then
    /// lets the first one finish; answers the first commit and the queued ones.
    private func queued(
        _ engine: GatedEngine, _ groups: CommitGroups, first: (conditions: [EngineCondition], writes: [EngineWrite]) = ([], [.put(bytes("first"), bytes("1"))]),
        _ commits: [(conditions: [EngineCondition], writes: [EngineWrite])]
    ) throws -> (first: EngineCommitResult, queued: [Started]) {
        let first = start(groups, if: first.conditions, then: first.writes)
        engine.entered.wait()
        // One at a time, so that they queue in this order.
        let started = commits.enumerated().map { index, commit in
            let started = start(groups, if: commit.conditions, then: commit.writes)
            while groups.waiting <= index { usleep(200) }
            return started
        }
        engine.release.signal()
        return (try first.wait(), started)
    }

    /// The revision every outcome committed at, when they all committed at one (else an issue).
    private func oneRevision(_ outcomes: [EngineCommitResult], sourceLocation: SourceLocation = #_sourceLocation) -> EngineRevision? {
        guard case .committed(let revision) = outcomes.first, outcomes.allSatisfy({ $0 == .committed(revision) }) else {
            Issue.record("not one commit at one revision: \(outcomes)", sourceLocation: sourceLocation)
            return nil
        }
        return revision
    }

    @Test func commitsQueuedTogetherGoAsOneAtOneRevision() throws {
        let engine = GatedEngine()
        let groups = CommitGroups(engine: engine, maxInFlight: 1)
        let (_, started) = try queued(engine, groups, ["b", "c", "d"].map { ([.absent(Self.bytes($0))], [.put(Self.bytes($0), Self.bytes("v"))]) })
        guard let revision = oneRevision(try started.map { try $0.wait() }) else { return }
        #expect(engine.commits == 2)
        #expect(try engine.base.read(["b", "c", "d"].map(Self.bytes), at: nil).entries.map { $0?.modRevision } == [revision, revision, revision])
    }

    /// With room for two engine commits, commits that arrive while one runs still wait for it and
    /// go as one group after it: a second commit starts only when a group overflows the limits.
    @Test func commitsArrivingDuringACommitWaitForItEvenWithASecondSlot() throws {
        let engine = GatedEngine()
        let groups = CommitGroups(engine: engine, maxInFlight: 2)
        let first = start(groups, then: [.put(bytes("first"), bytes("1"))])
        engine.entered.wait()
        let later = ["b", "c", "d"].map { start(groups, if: [.absent(bytes($0))], then: [.put(bytes($0), bytes("v"))]) }
        while groups.waiting < 3 { usleep(200) }
        usleep(50_000)
        #expect(engine.commits == 1)
        #expect(groups.waiting == 3)
        engine.release.signal()
        _ = try first.wait()
        _ = oneRevision(try later.map { try $0.wait() })
        #expect(engine.commits == 2)
    }

    @Test func aMemberWhoseConditionNoLongerHoldsLosesAndTheOthersCommit() throws {
        let engine = GatedEngine()
        guard case .committed(let written) = try engine.base.commit(if: [], then: [.put(Self.bytes("x"), Self.bytes("0"))]) else {
            Issue.record("the setup commit was refused")
            return
        }
        let groups = CommitGroups(engine: engine, maxInFlight: 1)
        let (_, started) = try queued(engine, groups, [
            ([.unchangedSince(Self.bytes("x"), written)], [.put(Self.bytes("x"), Self.bytes("1"))]),
            ([.unchangedSince(Self.bytes("y"), written)], [.put(Self.bytes("y"), Self.bytes("stale"))]),
            ([.absent(Self.bytes("z"))], [.put(Self.bytes("z"), Self.bytes("1"))]),
        ])
        let outcomes = try started.map { try $0.wait() }
        #expect(outcomes[1] == .conditionFailed)
        guard case .committed(let revision) = outcomes[0] else {
            Issue.record("a member whose condition held was refused: \(outcomes)")
            return
        }
        #expect(outcomes[2] == .committed(revision))
        // The first commit, the group that failed, and the two that held together once more.
        #expect(engine.commits == 3)
        #expect(engine.reads == 1)
        #expect(try engine.base.read([Self.bytes("y")], at: nil).entries == [nil])
    }

    @Test func commitsOnOneKeyAreNeverGroupedAndKeepTheirOrder() throws {
        let engine = GatedEngine()
        let groups = CommitGroups(engine: engine, maxInFlight: 1)
        let (_, started) = try queued(engine, groups, [
            ([], [.put(Self.bytes("k"), Self.bytes("1"))]),
            ([.absent(Self.bytes("other"))], [.put(Self.bytes("other"), Self.bytes("1"))]),
            ([.absent(Self.bytes("k"))], [.put(Self.bytes("k2"), Self.bytes("1"))]),
            ([], [.put(Self.bytes("k"), Self.bytes("2"))]),
        ])
        let outcomes = try started.map { try $0.wait() }
        // The first and second go together; the third decides on `k`, which the first writes, and
        // loses alone; the fourth writes `k` again, after the first.
        guard case .committed(let together) = outcomes[0], case .committed(let last) = outcomes[3] else {
            Issue.record("a blind write was refused: \(outcomes)")
            return
        }
        #expect(outcomes[1] == .committed(together))
        #expect(outcomes[2] == .conditionFailed)
        #expect(last > together)
        #expect(try engine.base.read([Self.bytes("k")], at: nil).entries.first??.value == Self.bytes("2"))
    }

    @Test func aQueuedCommitOnAKeyJustWrittenLosesWithoutARoundTrip() throws {
        let engine = GatedEngine()
        guard case .committed(let written) = try engine.base.commit(if: [], then: [.put(bytes("x"), bytes("0"))]) else {
            Issue.record("the setup commit was refused")
            return
        }
        let groups = CommitGroups(engine: engine, maxInFlight: 1)
        // Two takers of `x` read it at the same revision; the first holds the slot.
        let take = (conditions: [EngineCondition.unchangedSince(bytes("x"), written)], writes: [EngineWrite.put(bytes("x"), bytes("taken"))])
        let (first, started) = try queued(engine, groups, first: take, [take, ([], [.put(bytes("y"), bytes("1"))])])
        guard case .committed = first else {
            Issue.record("the first taker was refused")
            return
        }
        #expect(try started[0].wait() == .conditionFailed)
        guard case .committed = try started[1].wait() else {
            Issue.record("an unrelated commit was refused")
            return
        }
        // The first taker and the unrelated write: the loser never reached the engine.
        #expect(engine.commits == 2)
        #expect(try engine.base.read([bytes("x")], at: nil).entries.first??.value == bytes("taken"))
    }

    @Test func aCommitThatGetsNoTurnInTimeGivesUpAndIsNeverApplied() throws {
        let engine = GatedEngine()
        let groups = CommitGroups(engine: engine, maxInFlight: 1, turnTimeout: 0.05)
        let first = start(groups, then: [.put(bytes("first"), bytes("1"))])
        engine.entered.wait()
        let late = start(groups, then: [.put(bytes("late"), bytes("1"))])
        #expect(throws: StoreError.self) { try late.wait() }
        #expect(groups.waiting == 0)
        engine.release.signal()
        guard case .committed = try first.wait() else {
            Issue.record("the first commit was refused")
            return
        }
        #expect(engine.commits == 1)
        #expect(try engine.base.read([bytes("late")], at: nil).entries == [nil])
    }

    @Test func aGroupKeepsWithinTheEnginesLimits() throws {
        // Three writes per commit at most, and 1,000 request bytes (a group keeps half of them).
        let engine = GatedEngine(limits: EngineLimits(maxConditions: 8, maxWrites: 3, maxRequestBytes: 1_000))
        let groups = CommitGroups(engine: engine, maxInFlight: 1)
        let (_, started) = try queued(engine, groups, [
            ([], [.put(bytes("a"), bytes("1")), .put(bytes("b"), bytes("1"))]),
            ([], [.put(bytes("c"), bytes("1"))]),
            ([], [.put(bytes("d"), bytes("1"))]),
        ])
        let outcomes = try started.map { try $0.wait() }
        guard case .committed(let first) = outcomes[0], case .committed(let last) = outcomes[2] else {
            Issue.record("a commit was refused: \(outcomes)")
            return
        }
        // a, b and c make three writes; d goes in the next commit.
        #expect(outcomes[1] == .committed(first))
        #expect(last > first)
        #expect(engine.commits == 3)
    }

    @Test func anEngineErrorReachesEveryMemberOfTheGroup() throws {
        let engine = GatedEngine()
        engine.failLaterCommits()
        let groups = CommitGroups(engine: engine, maxInFlight: 1)
        let (first, started) = try queued(engine, groups, ["b", "c"].map { ([.absent(Self.bytes($0))], [.put(Self.bytes($0), Self.bytes("v"))]) })
        guard case .committed = first else {
            Issue.record("the first commit was refused")
            return
        }
        for commit in started {
            #expect(throws: StoreError.self) { try commit.wait() }
        }
        #expect(engine.commits == 2)
    }
}
