/// Sends the optimistic commits that wait at one moment as one conditional commit of the engine.
///
/// Why: a replicated engine pays mostly per commit (a request, a Raft entry, a watch event), not
/// per key. On etcd a Txn of 344 puts costs the members about as much as 2.5 Txns of 43, so
/// checkouts that arrive together cost far less as one Txn than as one each.
///
/// How: every commit queues. One engine commit runs at a time, and more (up to `maxInFlight`) only
/// while commits wait that did not fit in the running group's engine limits: commits that arrive
/// during a commit join the next group instead of making one Txn each. (Two at a time from the
/// start sent 55–70 % more Txns on etcd and served about 10 % fewer checkouts a second.) A caller
/// that finds a turn sends the queue's first commit with every later one that fits in its group
/// (its own among them, unless it touches their keys); otherwise it waits until another caller's
/// group has taken its commit, or a turn comes. The calling threads do the work (the store's
/// writer threads), so there is no thread of its own. A group holds only commits that touch
/// disjoint keys: no commit's writes meet another's conditions or writes, so the group's outcome
/// is that of the same commits one after the other, in any order. The group fits the engine's
/// limits.
///
/// Outcomes: a group whose conditions all hold commits every member at one revision. When one
/// fails, nothing was written: the members whose conditions no longer hold (read at the latest
/// revision) lose, as they would have alone, and the others commit together once more, then
/// alone. A queued commit that decides on a key a finished commit wrote after it read that key
/// loses at once: its condition cannot hold any more. An engine error reaches every member (the
/// group may have been applied; each store retry reads again, see `KeyValueEngine.commit`).
final class CommitGroups: Sendable {
    private let engine: any KeyValueEngine
    private let maxInFlight: Int
    private let turnTimeout: Double

    /// One waiting commit; its fields after `init` change only under `state`'s lock.
    private final class Member: @unchecked Sendable {
        let conditions: [EngineCondition]
        let writes: [EngineWrite]
        /// The keys it decides on, and the keys it writes.
        let read: Set<ByteKey>
        let written: Set<ByteKey>
        let bytes: Int
        var outcome: Result<EngineCommitResult, any Error>?

        init(conditions: [EngineCondition], writes: [EngineWrite], bytes: Int) {
            self.conditions = conditions
            self.writes = writes
            self.bytes = bytes
            read = Set(conditions.map { ByteKey($0.key) })
            written = Set(writes.map { ByteKey($0.key) })
        }
    }

    private struct State {
        var queue: [Member] = []
        var inFlight = 0
        /// Whether the last group taken left queued commits that exceeded the engine's limits:
        /// they may go at once, beside it.
        var overflowed = false

        /// Whether a waiting caller may send a group now.
        func mayStart(_ maxInFlight: Int) -> Bool {
            !queue.isEmpty && (inFlight == 0 || (inFlight < maxInFlight && overflowed))
        }
    }

    private let state = ConditionLock(State())

    /// `maxInFlight`: engine commits at once when groups overflow the engine's limits (each may
    /// hold a group). `turnTimeout`: seconds a queued commit waits for a turn before it gives up
    /// (an hour: the engine's own call timeouts end far sooner).
    init(engine: any KeyValueEngine, maxInFlight: Int = 2, turnTimeout: Double = 3600) {
        self.engine = engine
        self.maxInFlight = max(1, maxInFlight)
        self.turnTimeout = turnTimeout
    }

    /// Commits queued for a free engine commit now.
    var waiting: Int { state.withLock { $0.queue.count } }

    /// Commits `writes` if every condition holds, alone or in a group (see the type's comment).
    /// `bytes`: the request size it adds to a group (keys, values and conditions).
    func commit(if conditions: [EngineCondition], then writes: [EngineWrite], bytes: Int) throws -> EngineCommitResult {
        let member = Member(conditions: conditions, writes: writes, bytes: bytes)
        state.withLock { $0.queue.append(member) }
        while true {
            // nil: keep waiting; .done: this member's outcome is in; .run: a group to commit.
            enum Turn { case done, run([Member]) }
            let turn = state.wait(seconds: turnTimeout) { state -> Turn? in
                if member.outcome != nil { return .done }
                guard state.mayStart(maxInFlight) else { return nil }
                state.inFlight += 1
                let (group, overflowed) = takeGroup(from: &state.queue)
                state.overflowed = overflowed
                return .run(group)
            }
            switch turn {
            case .done?:
                return try state.withLock { _ in member.outcome! }.get()
            case .run(let group)?:
                let outcomes = run(group)
                state.withLock { state in
                    state.inFlight -= 1
                    for (member, outcome) in zip(group, outcomes) { member.outcome = outcome }
                    // Alone (the usual case with few callers) there is nobody queued to fail.
                    if !state.queue.isEmpty { failDoomed(in: &state.queue, after: zip(group, outcomes)) }
                }
                state.broadcast()
            case nil:
                // No turn in time: give up, unless a group has taken this commit meanwhile; then
                // its outcome is awaited.
                let withdrawn = state.withLock { state -> Bool in
                    guard let index = state.queue.firstIndex(where: { $0 === member }) else { return false }
                    state.queue.remove(at: index)
                    return true
                }
                if withdrawn { throw StoreError.engine(operation: "commit", message: "no commit slot came free within \(turnTimeout) s") }
            }
        }
    }

    /// Fails at once the queued commits that decide on a key one of the `finished` commits wrote
    /// after the revision they read it at: the engine would refuse them, after their wait and a
    /// round trip, and a group holding one would fail whole.
    private func failDoomed(
        in queue: inout [Member], after finished: Zip2Sequence<[Member], [Result<EngineCommitResult, any Error>]>
    ) {
        var writtenAt: [ByteKey: EngineRevision] = [:]
        for (member, outcome) in finished {
            guard case .success(.committed(let revision)) = outcome else { continue }
            for key in member.written { writtenAt[key] = revision }
        }
        guard !writtenAt.isEmpty else { return }
        queue.removeAll { member in
            let doomed = member.conditions.contains { condition in
                guard case .unchangedSince(let key, let read) = condition, let written = writtenAt[ByteKey(key)] else { return false }
                return read < written
            }
            if doomed { member.outcome = .success(.conditionFailed) }
            return doomed
        }
    }

    /// The queue's first commit, and every later one that touches none of the group's keys and
    /// keeps it within the engine's limits; the rest stay queued, in order. `overflowed`: some of
    /// them stayed for the limits alone.
    private func takeGroup(from queue: inout [Member]) -> (group: [Member], overflowed: Bool) {
        let limits = engine.limits
        // `bytes` counts keys, values and conditions, not the request's framing: a group keeps
        // half the engine's request size, so that framing never makes it too large for the engine.
        let maxGroupBytes = limits.maxRequestBytes / 2
        let first = queue.removeFirst()
        var group = [first]
        var read = first.read, written = first.written
        var conditions = first.conditions.count, writes = first.writes.count, bytes = first.bytes
        var kept: [Member] = []
        var overflowed = false
        for member in queue {
            let fits = conditions + member.conditions.count <= limits.maxConditions
                && writes + member.writes.count <= limits.maxWrites
                && bytes + member.bytes <= maxGroupBytes
            let disjoint = member.written.isDisjoint(with: read) && member.written.isDisjoint(with: written)
                && member.read.isDisjoint(with: written)
            if !fits && disjoint { overflowed = true }
            if fits && disjoint {
                group.append(member)
                read.formUnion(member.read)
                written.formUnion(member.written)
                conditions += member.conditions.count
                writes += member.writes.count
                bytes += member.bytes
            } else {
                kept.append(member)
            }
        }
        queue = kept
        return (group, overflowed)
    }

    /// Commits a group; one outcome per member, in order.
    private func run(_ group: [Member], again: Bool = false) -> [Result<EngineCommitResult, any Error>] {
        func alone(_ member: Member) -> Result<EngineCommitResult, any Error> {
            Result { try engine.commit(if: member.conditions, then: member.writes) }
        }
        guard group.count > 1 else { return group.map(alone) }
        let together = Result { try engine.commit(if: group.flatMap(\.conditions), then: group.flatMap(\.writes)) }
        guard case .success(.conditionFailed) = together else { return group.map { _ in together } }
        // Nothing was written. The conditions read now tell the members that lost (a key's
        // revision never comes back) from those that can commit: these go together once more,
        // then alone.
        guard !again, let holding = try? holdingNow(group) else { return group.map(alone) }
        let retried = holding.contains(true) ? run(group.indices.filter { holding[$0] }.map { group[$0] }, again: true) : []
        var next = retried.makeIterator()
        return group.indices.map { holding[$0] ? next.next()! : .success(.conditionFailed) }
    }

    /// Whether each member's conditions hold at the engine's latest revision.
    private func holdingNow(_ group: [Member]) throws -> [Bool] {
        let keys = Set(group.flatMap { $0.read }).map(\.bytes)
        let (entries, _) = try engine.read(keys, at: nil)
        var revisions: [ByteKey: EngineRevision] = [:]
        for case let entry? in entries { revisions[ByteKey(entry.key)] = entry.modRevision }
        return group.map { member in
            member.conditions.allSatisfy { condition in
                switch condition {
                case .absent(let key): revisions[ByteKey(key)] == nil
                case .unchangedSince(let key, let revision): revisions[ByteKey(key)] == revision
                }
            }
        }
    }
}

extension EngineCondition {
    /// The key the condition is about.
    var key: [UInt8] {
        switch self {
        case .absent(let key), .unchangedSince(let key, _): key
        }
    }
}

extension EngineWrite {
    /// The key written or deleted.
    var key: [UInt8] {
        switch self {
        case .put(let key, _), .delete(let key): key
        }
    }
}
