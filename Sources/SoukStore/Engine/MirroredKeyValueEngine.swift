import Dispatch
import Logging

/// A `KeyValueEngine` that answers reads and scans from this process's copy of another engine's
/// whole key space, kept current by a watch of every key; commits and watches go to the engine
/// underneath (`base`).
///
/// Why: the store's optimistic transactions read one key at a time (each read decides the next),
/// so over etcd a checkout paid a network round trip for each of its ~35 reads. Here a
/// transaction pays one: its first read asks `base` for its latest revision (linearizable: a
/// commit acknowledged anywhere before is in it), waits until the watch has brought the copy to
/// that revision (a few milliseconds at most), and reads the copy there; its later reads and
/// scans stay at that revision, from memory. Requests that start while another is asking the
/// revision share the next answer, so the asks do not grow with the callers.
///
/// Nothing about correctness rests on the copy: a read at revision R sees exactly what `base`
/// holds at R (the copy keeps the versions of the last `historyRevisions` revisions), and the
/// commit's conditions are checked by `base`. When the copy cannot answer (not loaded yet, its
/// watch failed and it is loading again, a revision older than its history, or the watch
/// lagging past `catchUpSeconds`) the read goes to `base` as without the copy.
///
/// Memory: the whole key space, as each etcd member also holds it (bounded by the members'
/// `--quota-backend-bytes`), plus the values the last `historyRevisions` revisions replaced.
public final class MirroredKeyValueEngine: KeyValueEngine {
    /// The engine underneath: the truth, and where commits and watches go.
    public let base: any KeyValueEngine
    public var limits: EngineLimits { base.limits }
    let historyRevisions: EngineRevision
    let catchUpSeconds: Double
    let logger: Logger

    private struct Version {
        var revision: EngineRevision
        /// nil: deleted at `revision`.
        var value: [UInt8]?
    }

    private struct State {
        /// Whether the copy answers (loaded, and its watch running).
        var live = false
        var closed = false
        /// The number of the load this state belongs to.
        var generation = 0
        /// The copy holds every change through this revision.
        var applied: EngineRevision = 0
        /// Reads below this revision go to `base` (the copy may have dropped their versions).
        var floor: EngineRevision = 0
        var versions: [ByteKey: [Version]] = [:]
        var keys = SortedKeyList()
        /// Keys holding more than their latest version, or a delete: what pruning visits.
        var withHistory: Set<ByteKey> = []
        var prunedAt: EngineRevision = 0
        var watch: (any EngineWatch)?
        var asks = Asks()

        func entry(_ key: [UInt8], at revision: EngineRevision) -> EngineEntry? {
            guard let versions = versions[ByteKey(key)] else { return nil }
            // Versions are oldest first; the latest is the usual answer.
            var index = versions.count - 1
            while index >= 0, versions[index].revision > revision { index -= 1 }
            guard index >= 0, let value = versions[index].value else { return nil }
            return EngineEntry(key: key, value: value, modRevision: versions[index].revision)
        }

        mutating func record(_ key: [UInt8], _ value: [UInt8]?, at revision: EngineRevision) {
            let name = ByteKey(key)
            if versions[name] == nil {
                guard value != nil else { return }
                keys.insert(key)
                versions[name] = [Version(revision: revision, value: value)]
                return
            }
            versions[name]!.append(Version(revision: revision, value: value))
            withHistory.insert(name)
        }

        /// Marks `revision` applied, once its changes are recorded; now and then drops old versions.
        mutating func advance(to revision: EngineRevision, keeping history: EngineRevision) {
            applied = revision
            // Pruning walks the keys with history: once per tenth of the history kept.
            if revision - prunedAt >= max(1, history / 10) {
                prunedAt = revision
                prune(below: revision - history)
            }
        }

        /// Drops the versions no read at or above `floor` can see.
        mutating func prune(below floor: EngineRevision) {
            self.floor = max(self.floor, floor)
            for key in withHistory {
                guard var list = versions[key] else {
                    withHistory.remove(key)
                    continue
                }
                // Keep the newest version at or below the floor and everything after it.
                var keepFrom = 0
                while keepFrom + 1 < list.count, list[keepFrom + 1].revision <= self.floor { keepFrom += 1 }
                if keepFrom > 0 { list.removeFirst(keepFrom) }
                if list.count == 1, list[0].value == nil, list[0].revision <= self.floor {
                    versions[key] = nil
                    keys.remove(key.bytes)
                    withHistory.remove(key)
                } else {
                    versions[key] = list
                    if list.count == 1 && list[0].value != nil { withHistory.remove(key) }
                }
            }
        }

        mutating func clear() {
            live = false
            versions = [:]
            keys.removeAll()
            withHistory = []
        }
    }

    /// Latest-revision asks: whether one is running, the number of the last one started, of the
    /// last one answered, and its answer.
    private struct Asks {
        var running = false
        var started = 0
        var answered = 0
        var revision: EngineRevision = 0
    }

    private let state: ConditionLock<State>

    /// `historyRevisions`: how many past revisions the copy keeps readable (a transaction pinned
    /// to an older one reads `base`). `catchUpSeconds`: how long a read waits for the watch to
    /// reach its revision before it reads `base` instead.
    public init(base: any KeyValueEngine, historyRevisions: EngineRevision = 20_000, catchUpSeconds: Double = 2,
                logger: Logger = Logger(label: "souk.store.mirror")) {
        self.base = base
        self.historyRevisions = historyRevisions
        self.catchUpSeconds = catchUpSeconds
        self.logger = logger
        state = ConditionLock(State())
    }

    /// Loads the copy at one revision and follows `base` from there. Until it returns, reads go to `base`.
    public func start() throws {
        // Each load has its number: changes and failures of an earlier load's watch are ignored.
        guard let generation = state.withLock({ state -> Int? in
            guard !state.closed else { return nil }
            state.generation += 1
            return state.generation
        }) else { return }
        var loaded = State()
        var revision: EngineRevision?
        var from: [UInt8] = []
        while true {
            let page = try base.scan(from: from, to: nil, direction: .ascending, limit: 1024, at: revision)
            revision = page.revision
            for entry in page.entries { loaded.record(entry.key, entry.value, at: entry.modRevision) }
            guard page.more, let last = page.entries.last else { break }
            from = KeySpace.successor(of: last.key)
        }
        let at = try revision ?? base.latestRevision()
        let keys = loaded.keys.count
        // The copy answers from now on (reads wait for the watch to bring it to their revision);
        // the watch starts after, so none of its changes can arrive before the copy takes them.
        let installed = state.withLock { current -> Bool in
            guard !current.closed, current.generation == generation else { return false }
            loaded.generation = generation
            loaded.applied = at
            loaded.floor = at
            loaded.prunedAt = at
            loaded.live = true
            loaded.asks = current.asks
            current = loaded
            return true
        }
        state.broadcast()
        guard installed else { return }
        let watch: any EngineWatch
        do {
            watch = try base.watch(
                prefix: [], after: at,
                onChanges: { [weak self] changes in self?.apply(changes, generation: generation) },
                onFailure: { [weak self] error in self?.watchFailed(error, generation: generation) })
        } catch {
            state.withLock { if $0.generation == generation { $0.clear() } }
            state.broadcast()
            throw error
        }
        let kept = state.withLock { state -> Bool in
            guard !state.closed, state.generation == generation, state.live else { return false }
            state.watch = watch
            return true
        }
        guard kept else { return watch.cancel() }
        logger.info("store copy loaded", metadata: ["revision": "\(at)", "keys": "\(keys)"])
    }

    /// Stops following `base`; reads go to it from now on.
    public func close() {
        let watch = state.withLock { state -> (any EngineWatch)? in
            state.closed = true
            state.clear()
            defer { state.watch = nil }
            return state.watch
        }
        state.broadcast()
        watch?.cancel()
    }

    /// The revision the copy has reached, and how many keys it holds (nil while it does not answer).
    public var progress: (revision: EngineRevision, keys: Int)? {
        state.withLock { $0.live ? ($0.applied, $0.keys.count) : nil }
    }

    private func apply(_ changes: [EngineChange], generation: Int) {
        guard let revision = changes.first?.modRevision else { return }
        state.withLock { state in
            guard state.live, state.generation == generation, revision > state.applied else { return }
            for change in changes { state.record(change.key, change.value, at: change.modRevision) }
            state.advance(to: revision, keeping: historyRevisions)
        }
        state.broadcast()
    }

    /// The watch ended (its revision was compacted away, or no member answered for a while):
    /// reads go to `base` while the copy loads again.
    private func watchFailed(_ error: StoreError, generation: Int) {
        let current = state.withLock { state -> Bool in
            guard state.generation == generation, !state.closed else { return false }
            state.clear()
            state.watch = nil
            return true
        }
        state.broadcast()
        guard current else { return }
        logger.warning("store copy's watch ended; reads go to the engine while it loads again", metadata: ["error": "\(error)"])
        reload(after: 1)
    }

    private func reload(after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self else { return }
            do {
                try self.start()
            } catch {
                self.logger.warning("store copy cannot load; trying again", metadata: ["error": "\(error)"])
                self.reload(after: min(seconds * 2, 30))
            }
        }
    }

    // MARK: Revisions

    /// A revision at least as new as every commit acknowledged before this call: `base`'s latest,
    /// asked once for all the callers that arrive while one ask is running.
    private func latestRevisionShared() throws -> EngineRevision {
        // An ask that started before this call may miss a commit acknowledged just before it:
        // this call needs one that starts after it.
        let needed = state.withLock { $0.asks.started + 1 }
        while true {
            let turn = state.wait(seconds: 60) { state -> (mine: Int?, answer: EngineRevision?)? in
                if state.asks.answered >= needed { return (nil, state.asks.revision) }
                guard !state.asks.running else { return nil }
                state.asks.running = true
                state.asks.started += 1
                return (state.asks.started, nil)
            }
            guard let turn else { return try base.latestRevision() }
            if let answer = turn.answer { return answer }
            guard let mine = turn.mine else { continue }
            do {
                let revision = try base.latestRevision()
                state.withLock { state in
                    state.asks.running = false
                    state.asks.answered = mine
                    state.asks.revision = max(state.asks.revision, revision)
                }
                state.broadcast()
                return revision
            } catch {
                state.withLock { $0.asks.running = false }
                state.broadcast()
                throw error
            }
        }
    }

    /// Runs `body` on the copy at `revision` (the latest when nil) once the copy has reached it;
    /// nil when the copy cannot answer at it.
    private func fromCopy<R>(at revision: EngineRevision?, _ body: (State, EngineRevision) -> R) throws -> R? {
        guard state.withLock({ $0.live }) else { return nil }
        let at = try revision ?? latestRevisionShared()
        let answer = state.wait(seconds: catchUpSeconds) { state -> R?? in
            guard state.live, at >= state.floor else { return .some(nil) }
            guard state.applied >= at else { return nil }
            return .some(body(state, at))
        }
        return answer ?? nil
    }

    // MARK: KeyValueEngine

    public func read(_ keys: [[UInt8]], at revision: EngineRevision?) throws -> (entries: [EngineEntry?], revision: EngineRevision) {
        if let answer = try fromCopy(at: revision, { state, at in (keys.map { state.entry($0, at: at) }, at) }) {
            return answer
        }
        return try base.read(keys, at: revision)
    }

    public func scan(
        from lower: [UInt8], to upper: [UInt8]?, direction: ScanDirection, limit: Int, at revision: EngineRevision?
    ) throws -> (entries: [EngineEntry], more: Bool, revision: EngineRevision) {
        let answer = try fromCopy(at: revision) { state, at -> (entries: [EngineEntry], more: Bool, revision: EngineRevision) in
            let keys = state.keys
            let start = keys.position(atLeast: lower)
            let end = upper.map { keys.position(atLeast: $0) } ?? keys.end
            guard start.precedes(end) else { return ([], false, at) }
            var entries = [EngineEntry]()
            var position: SortedKeyList.Position? = direction == .ascending ? start : keys.before(end)
            while let current = position, current.precedes(end), !current.precedes(start) {
                if let entry = state.entry(keys.key(at: current), at: at) {
                    // limit <= 0 asks only whether the range holds anything.
                    if entries.count >= max(0, limit) { return (entries, true, at) }
                    entries.append(entry)
                }
                position = direction == .ascending ? keys.after(current) : keys.before(current)
            }
            return (entries, false, at)
        }
        if let answer { return answer }
        return try base.scan(from: lower, to: upper, direction: direction, limit: limit, at: revision)
    }

    /// Commits through `base`. When the copy holds every revision before this commit's, it takes
    /// the commit's writes at once (a commit with a put is one new revision, and these writes are
    /// all of it), so this node's next transaction need not wait for the watch to bring them back.
    public func commit(if conditions: [EngineCondition], then writes: [EngineWrite]) throws -> EngineCommitResult {
        let result = try base.commit(if: conditions, then: writes)
        // Only with a put: a commit of deletes alone may change nothing, make no revision of its
        // own, and answer the latest revision, whose changes would then be another commit's.
        guard case .committed(let revision) = result, writes.contains(where: { if case .put = $0 { true } else { false } }) else {
            return result
        }
        let taken = state.withLock { state -> Bool in
            guard state.live, state.applied == revision - 1 else { return false }
            for write in writes {
                switch write {
                case .put(let key, let value): state.record(key, value, at: revision)
                case .delete(let key): state.record(key, nil, at: revision)
                }
            }
            state.advance(to: revision, keeping: historyRevisions)
            return true
        }
        if taken { state.broadcast() }
        return result
    }

    public func watch(
        prefix: [UInt8], after revision: EngineRevision,
        onChanges: @escaping @Sendable ([EngineChange]) -> Void,
        onFailure: @escaping @Sendable (StoreError) -> Void
    ) throws -> any EngineWatch {
        try base.watch(prefix: prefix, after: revision, onChanges: onChanges, onFailure: onFailure)
    }

    public func latestRevision() throws -> EngineRevision {
        try latestRevisionShared()
    }
}
