import Dispatch
import Synchronization

/// A `KeyValueEngine` in this process's memory: NOT durable and not shared between processes.
/// For tests and for trying the store without a cluster (several `Store`s over one instance
/// behave like several server nodes over one etcd cluster).
///
/// Like etcd: one global revision that every commit increases (the first commit makes 2), each
/// key's last-write revision, conditional commits under one lock, reads at past revisions (every
/// version is kept until `compact(through:)`), and watches from a revision, delivered in order.
public final class MemoryKeyValueEngine: KeyValueEngine {
    public let limits: EngineLimits

    private struct Version {
        var revision: EngineRevision
        /// nil: deleted at `revision`.
        var value: [UInt8]?
    }

    private final class Watcher: Sendable {
        let prefix: [UInt8]
        let queue = DispatchQueue(label: "souk.memory-engine.watch")
        let onChanges: @Sendable ([EngineChange]) -> Void
        let onFailure: @Sendable (StoreError) -> Void
        let cancelled = Atomic<Bool>(false)

        init(prefix: [UInt8], onChanges: @escaping @Sendable ([EngineChange]) -> Void, onFailure: @escaping @Sendable (StoreError) -> Void) {
            self.prefix = prefix
            self.onChanges = onChanges
            self.onFailure = onFailure
        }

        /// Ends the watch with `error`, after what was handed over before.
        func fail(_ error: StoreError) {
            queue.async {
                if !self.cancelled.exchange(true, ordering: .acquiringAndReleasing) { self.onFailure(error) }
            }
        }

        /// Hands `changes` over on the watch's own queue (in the order called).
        func deliver(_ changes: [EngineChange]) {
            guard !changes.isEmpty else { return }
            queue.async {
                if !self.cancelled.load(ordering: .acquiring) { self.onChanges(changes) }
            }
        }
    }

    private struct State {
        var revision: EngineRevision = 1
        var compacted: EngineRevision = 0
        /// Every key ever written, sorted.
        var keys: [[UInt8]] = []
        var history: [[UInt8]: [Version]] = [:]
        var watchers: [UInt64: Watcher] = [:]
        var nextWatcher: UInt64 = 0

        func firstIndex(atLeast key: [UInt8]) -> Int {
            var low = 0
            var high = keys.count
            while low < high {
                let middle = (low + high) / 2
                if keys[middle].lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
            }
            return low
        }

        func entry(_ key: [UInt8], at revision: EngineRevision) -> EngineEntry? {
            guard let versions = history[key],
                  let version = versions.last(where: { $0.revision <= revision }),
                  let value = version.value
            else { return nil }
            return EngineEntry(key: key, value: value, modRevision: version.revision)
        }

        func check(_ revision: EngineRevision?) throws -> EngineRevision {
            guard let revision else { return self.revision }
            guard revision >= compacted else {
                throw StoreError.engine(operation: "read", message: "revision \(revision) has been compacted (compacted through \(compacted))")
            }
            guard revision <= self.revision else {
                throw StoreError.engine(operation: "read", message: "revision \(revision) is a future revision (current \(self.revision))")
            }
            return revision
        }
    }

    private let state = Mutex(State())

    /// etcd's default limits: 128 operations per transaction (`--max-txn-ops`), 1.5 MiB per request.
    public static let etcdDefaults = EngineLimits(maxConditions: 128, maxWrites: 128, maxRequestBytes: 1_572_864)

    /// `limits`: etcd's defaults unless told otherwise.
    public init(limits: EngineLimits = MemoryKeyValueEngine.etcdDefaults) {
        self.limits = limits
    }

    /// The revision of the last commit.
    public var revision: EngineRevision { state.withLock { $0.revision } }

    public func latestRevision() throws -> EngineRevision { revision }

    public func read(_ keys: [[UInt8]], at revision: EngineRevision?) throws -> (entries: [EngineEntry?], revision: EngineRevision) {
        try state.withLock { state in
            let at = try state.check(revision)
            return (keys.map { state.entry($0, at: at) }, at)
        }
    }

    public func scan(
        from lower: [UInt8], to upper: [UInt8]?, direction: ScanDirection, limit: Int, at revision: EngineRevision?
    ) throws -> (entries: [EngineEntry], more: Bool, revision: EngineRevision) {
        try state.withLock { state in
            let at = try state.check(revision)
            let start = state.firstIndex(atLeast: lower)
            let end = upper.map { state.firstIndex(atLeast: $0) } ?? state.keys.count
            var entries = [EngineEntry]()
            var more = false
            guard start < end else { return (entries, more, at) }
            let positions: any Sequence<Int> = direction == .ascending ? AnySequence(start..<end) : AnySequence((start..<end).reversed())
            for position in positions {
                guard let entry = state.entry(state.keys[position], at: at) else { continue }
                if entries.count == max(1, limit) {
                    more = true
                    break
                }
                entries.append(entry)
            }
            return (entries, more, at)
        }
    }

    public func commit(if conditions: [EngineCondition], then writes: [EngineWrite]) throws -> EngineCommitResult {
        guard conditions.count <= limits.maxConditions, writes.count <= limits.maxWrites else {
            throw StoreError.engine(operation: "commit", message: "too many operations in one commit (\(conditions.count) conditions, \(writes.count) writes; at most \(limits.maxConditions) and \(limits.maxWrites))")
        }
        return state.withLock { state -> EngineCommitResult in
            for condition in conditions {
                switch condition {
                case .absent(let key):
                    if state.entry(key, at: state.revision) != nil { return .conditionFailed }
                case .unchangedSince(let key, let revision):
                    if state.entry(key, at: state.revision)?.modRevision != revision { return .conditionFailed }
                }
            }
            guard !writes.isEmpty else { return .committed(state.revision) }
            state.revision += 1
            let revision = state.revision
            var changes = [EngineChange]()
            changes.reserveCapacity(writes.count)
            for write in writes {
                let (key, value): ([UInt8], [UInt8]?) = switch write {
                case .put(let key, let value): (key, value)
                case .delete(let key): (key, nil)
                }
                if state.history[key] == nil {
                    // A delete of a key never written leaves no trace (as in etcd).
                    guard value != nil else { continue }
                    state.keys.insert(key, at: state.firstIndex(atLeast: key))
                    state.history[key] = []
                } else if value == nil, state.entry(key, at: revision - 1) == nil {
                    continue
                }
                if state.history[key]!.last?.revision == revision {
                    state.history[key]![state.history[key]!.count - 1].value = value
                } else {
                    state.history[key]!.append(Version(revision: revision, value: value))
                }
                changes.append(EngineChange(key: key, value: value, modRevision: revision))
            }
            // Handed to the watches' queues under the lock, so they see commits in revision order.
            for watcher in state.watchers.values {
                watcher.deliver(changes.filter { $0.key.starts(with: watcher.prefix) })
            }
            return .committed(revision)
        }
    }

    public func watch(
        prefix: [UInt8], after revision: EngineRevision,
        onChanges: @escaping @Sendable ([EngineChange]) -> Void,
        onFailure: @escaping @Sendable (StoreError) -> Void
    ) throws -> any EngineWatch {
        let watcher = Watcher(prefix: prefix, onChanges: onChanges, onFailure: onFailure)
        let id: UInt64? = state.withLock { state in
            guard revision >= state.compacted else { return nil }
            // What committed after `revision` already, one delivery per commit.
            var past: [EngineRevision: [EngineChange]] = [:]
            for (key, versions) in state.history where key.starts(with: prefix) {
                for version in versions where version.revision > revision {
                    past[version.revision, default: []].append(EngineChange(key: key, value: version.value, modRevision: version.revision))
                }
            }
            for commit in past.keys.sorted() {
                watcher.deliver(past[commit]!.sorted { $0.key.lexicographicallyPrecedes($1.key) })
            }
            let id = state.nextWatcher
            state.nextWatcher += 1
            state.watchers[id] = watcher
            return id
        }
        guard let id else {
            let compacted = state.withLock { $0.compacted }
            let failure = StoreError.engine(operation: "watch", message: "revision \(revision) has been compacted (compacted through \(compacted))")
            watcher.fail(failure)
            return MemoryWatch(engine: nil, id: 0, watcher: watcher)
        }
        return MemoryWatch(engine: self, id: id, watcher: watcher)
    }

    /// Drops the versions no read at a revision after `revision` needs (as `etcdctl compact`).
    public func compact(through revision: EngineRevision) {
        state.withLock { state in
            let revision = min(revision, state.revision)
            guard revision > state.compacted else { return }
            state.compacted = revision
            for key in state.history.keys {
                var versions = state.history[key]!
                // Keep the newest version at or before `revision` (reads there need it), and later ones.
                if let keep = versions.lastIndex(where: { $0.revision <= revision }) {
                    versions.removeFirst(keep)
                    if versions.first?.value == nil { versions.removeFirst() }
                }
                state.history[key] = versions
            }
            let emptied = Set(state.history.filter { $0.value.isEmpty }.map(\.key))
            if !emptied.isEmpty {
                state.keys.removeAll { emptied.contains($0) }
                for key in emptied { state.history[key] = nil }
            }
        }
    }

    /// Ends every watch open now with a failure, as etcd ends a watch that fell behind a
    /// compaction (for tests of what a watch's end costs its users).
    public func cutWatches() {
        let cut = state.withLock { state in
            defer { state.watchers.removeAll() }
            return Array(state.watchers.values)
        }
        for watcher in cut {
            watcher.fail(StoreError.engine(operation: "watch", message: "the watch was cut off"))
        }
    }

    fileprivate func cancel(_ id: UInt64) {
        _ = state.withLock { $0.watchers.removeValue(forKey: id) }
    }

    private struct MemoryWatch: EngineWatch {
        let engine: MemoryKeyValueEngine?
        let id: UInt64
        let watcher: Watcher

        func cancel() {
            watcher.cancelled.store(true, ordering: .releasing)
            engine?.cancel(id)
        }
    }
}
