#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The store's engine over any `KeyValueEngine` (etcd; `MemoryKeyValueEngine` in tests):
/// optimistic transactions in place of RocksDB's locks.
///
/// A transaction reads at one revision (the first read pins it) plus its own buffered writes.
/// Every key it reads for update (`getForUpdate`) is remembered with the revision that last wrote
/// it, or its absence, and becomes a condition of the commit; unlocked reads add none. The commit
/// applies the buffered writes only if every condition still holds, atomically; otherwise it
/// throws `.conflict` and `Store.write` runs the block again, as after a RocksDB deadlock. So two
/// takers of one thing (the last bottle, one queue item, one idempotency key, one unique value)
/// both read it, both commit on the condition that it is unchanged, and exactly one succeeds: the
/// outcome RocksDB's locks give, with the loser running again instead of waiting.
final class OptimisticEngine: StoreEngine {
    let keyValues: any KeyValueEngine
    /// Entries one scan request asks for.
    static let pageSize = 128
    /// Revisions of this store's own commits that appended events, not yet seen by its event
    /// watch (which skips them: their followers were told at the commit).
    private let ownEventCommits = Mutex<Set<EngineRevision>>([])
    private let watchingEvents = Atomic<Bool>(false)
    /// Revisions of this store's latest commits, oldest first, for its record watches (which
    /// skip them: its observers were told at the commit). Several watches may see one commit, so
    /// a revision is kept until newer ones push it out, not taken.
    private let recentOwnCommits = Mutex<(revisions: Set<EngineRevision>, order: [EngineRevision])>(([], []))
    private let watchingRecords = Atomic<Bool>(false)
    /// This store's commits sent to the engine and not yet remembered: a watch may see one
    /// before `committed` remembers it.
    private let unrememberedCommits = Atomic<Int>(0)
    static let rememberedCommits = 4096
    /// Commits waiting together go to the engine as one (see `CommitGroups`).
    let groups: CommitGroups

    init(_ keyValues: any KeyValueEngine) {
        self.keyValues = keyValues
        groups = CommitGroups(engine: keyValues)
    }

    var rocksDatabase: RocksDatabase? { nil }
    var maxWritesPerCommit: Int? { keyValues.limits.maxWrites }
    /// A copy of the key space stops following its engine with the store.
    func close() { (keyValues as? MirroredKeyValueEngine)?.close() }

    // MARK: Reads outside transactions

    func read<R>(_ key: [UInt8], in snapshot: (any StoreSnapshot)?, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        let pin = snapshot.map { unsafeDowncast($0, to: RevisionSnapshot.self) }
        let (entries, revision) = try keyValues.read([key], at: pin?.revision)
        pin?.pin(revision)
        guard let entry = entries.first ?? nil else { return try body(nil) }
        return try entry.value.withUnsafeBytes { try body($0) }
    }

    func readMany(flat: [UInt8], sizes: [Int], in snapshot: (any StoreSnapshot)?,
                  _ body: (Int, UnsafeRawBufferPointer?) throws -> Void) throws {
        var keys = [[UInt8]]()
        keys.reserveCapacity(sizes.count)
        var offset = 0
        for size in sizes {
            keys.append(Array(flat[offset..<(offset + size)]))
            offset += size
        }
        // One revision for all of them, in requests the engine accepts.
        let pin = snapshot.map { unsafeDowncast($0, to: RevisionSnapshot.self) } ?? RevisionSnapshot()
        let chunk = max(1, keyValues.limits.maxConditions)
        var start = 0
        while start < keys.count {
            let end = min(keys.count, start + chunk)
            let (entries, revision) = try keyValues.read(Array(keys[start..<end]), at: pin.revision)
            pin.pin(revision)
            for (i, entry) in entries.enumerated() {
                if let entry {
                    try entry.value.withUnsafeBytes { try body(start + i, $0) }
                } else {
                    try body(start + i, nil)
                }
            }
            start = end
        }
    }

    func snapshot() -> any StoreSnapshot { RevisionSnapshot() }

    func iterator(lower: [UInt8]?, upper: [UInt8]?, in snapshot: (any StoreSnapshot)?) -> any StoreIterator {
        ScanIterator(keyValues, lower: lower ?? [], upper: upper,
                     pin: snapshot.map { unsafeDowncast($0, to: RevisionSnapshot.self) } ?? RevisionSnapshot())
    }

    func beginTransaction() -> any EngineTransaction { OptimisticTransaction(self) }

    // MARK: Own commits, for the event watch

    /// From now on, commits that append events are remembered until the watch sees them.
    func startRememberingEventCommits() { watchingEvents.store(true, ordering: .releasing) }

    func startRememberingCommits() { watchingRecords.store(true, ordering: .releasing) }

    func committed(_ revision: EngineRevision, appendedEvents: Bool) {
        if watchingRecords.load(ordering: .acquiring) {
            recentOwnCommits.withLock { recent in
                recent.revisions.insert(revision)
                recent.order.append(revision)
                if recent.order.count > Self.rememberedCommits * 2 {
                    for old in recent.order.prefix(Self.rememberedCommits) { recent.revisions.remove(old) }
                    recent.order.removeFirst(Self.rememberedCommits)
                }
            }
        }
        guard appendedEvents, watchingEvents.load(ordering: .acquiring) else { return }
        _ = ownEventCommits.withLock { $0.insert(revision) }
    }

    /// The engine's current revision.
    func latestRevision() throws -> EngineRevision {
        try keyValues.latestRevision()
    }

    /// Whether the commit at `revision` was one of this store's latest. Called from watches (never
    /// an event loop): while one of this store's commits is on its way back, waits for it (a few
    /// milliseconds at most), so that a commit is not taken for another node's.
    func isOwnCommit(_ revision: EngineRevision) -> Bool {
        for _ in 0..<2_000 {
            if recentOwnCommits.withLock({ $0.revisions.contains(revision) }) { return true }
            if unrememberedCommits.load(ordering: .acquiring) == 0 { return false }
            usleep(50)
        }
        return false
    }

    /// Counts a commit on its way to the engine (see `isOwnCommit`).
    func commitStarting() { unrememberedCommits.wrappingAdd(1, ordering: .acquiringAndReleasing) }
    func commitEnded() { unrememberedCommits.wrappingSubtract(1, ordering: .acquiringAndReleasing) }

    /// Whether the commit at `revision` was this store's (forgetting it: the watch sees each once).
    func takeOwnCommit(_ revision: EngineRevision) -> Bool {
        ownEventCommits.withLock { $0.remove(revision) != nil }
    }
}

/// A revision to read at: the first read pins the revision it was answered at, later reads use it.
final class RevisionSnapshot: StoreSnapshot {
    private(set) var revision: EngineRevision?

    init(_ revision: EngineRevision? = nil) { self.revision = revision }

    func pin(_ answered: EngineRevision) {
        if revision == nil { revision = answered }
    }
}

/// One optimistic transaction (see `OptimisticEngine`).
final class OptimisticTransaction: EngineTransaction {
    private enum Pending {
        case put([UInt8])
        case delete
    }

    private let engine: OptimisticEngine
    private var keyValues: any KeyValueEngine { engine.keyValues }
    private let pin = RevisionSnapshot()
    /// What this transaction read of the committed data (nil: absent), at `pin`'s revision.
    private var readCache: [ByteKey: EngineEntry?] = [:]
    /// Keys read for update, with the revision that last wrote them (nil: absent): the commit's conditions.
    private var conditions: [ByteKey: EngineRevision?] = [:]
    private var writes: [ByteKey: Pending] = [:]

    init(_ engine: OptimisticEngine) {
        self.engine = engine
    }

    private func committed(_ name: ByteKey) throws -> EngineEntry? {
        if let cached = readCache[name] { return cached }
        let (entries, revision) = try keyValues.read([name.bytes], at: pin.revision)
        pin.pin(revision)
        let entry = entries.first ?? nil
        readCache[name] = entry
        return entry
    }

    private func visit<R>(_ value: [UInt8]?, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        guard let value else { return try body(nil) }
        return try value.withUnsafeBytes { try body($0) }
    }

    /// The value this transaction wrote to the key itself, if it did.
    private func visit<R>(_ pending: Pending, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        switch pending {
        case .put(let value): try visit(value, body)
        case .delete: try body(nil)
        }
    }

    func getForUpdate<R>(_ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        let name = ByteKey(key)
        // Its own write: what the commit stores does not depend on anyone else's.
        if let pending = writes[name] { return try visit(pending, body) }
        let entry = try committed(name)
        if conditions[name] == nil { conditions[name] = .some(entry?.modRevision) }
        return try visit(entry?.value, body)
    }

    /// Nobody holds a lock here: two takers both read, and the commit's conditions pick one.
    func getForUpdateUnlessLocked<R>(_ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> NoWaitRead<R> {
        .read(try getForUpdate(key, body))
    }

    func get<R>(_ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        let name = ByteKey(key)
        if let pending = writes[name] { return try visit(pending, body) }
        return try visit(try committed(name)?.value, body)
    }

    /// `locking` needs nothing here: a key that must not change under this transaction was read
    /// for update and carries its condition; a blind write serializes as the last writer.
    func put(_ key: [UInt8], _ value: [UInt8], locking: Bool) throws {
        writes[ByteKey(key)] = .put(value)
    }

    func delete(_ key: [UInt8], locking: Bool) throws {
        writes[ByteKey(key)] = .delete
    }

    func iterator(lower: [UInt8]?, upper: [UInt8]?) -> any StoreIterator {
        let lower = lower ?? []
        var overlay = [(key: [UInt8], value: [UInt8]?)]()
        for (key, pending) in writes {
            let key = key.bytes
            guard !ByteOrder.precedes(key, lower) else { continue }
            if let upper, !ByteOrder.precedes(key, upper) { continue }
            switch pending {
            case .put(let value): overlay.append((key, value))
            case .delete: overlay.append((key, nil))
            }
        }
        overlay.sort { ByteOrder.precedes($0.key, $1.key) }
        let base = ScanIterator(keyValues, lower: lower, upper: upper, pin: pin)
        return overlay.isEmpty ? base : MergingIterator(base: base, overlay: overlay, lower: lower, upper: upper)
    }

    func commit() throws {
        // Reads alone change nothing: they were consistent at one revision.
        guard !writes.isEmpty else { return }
        let limits = keyValues.limits
        let conditionList = conditions.map { key, revision -> EngineCondition in
            if let revision { .unchangedSince(key.bytes, revision) } else { .absent(key.bytes) }
        }
        var appendsEvents = false
        var bytes = 0
        let writeList = writes.map { key, pending -> EngineWrite in
            let key = key.bytes
            if key.first == KeySpace.event { appendsEvents = true }
            bytes += key.count
            switch pending {
            case .put(let value):
                bytes += value.count
                return .put(key, value)
            case .delete:
                return .delete(key)
            }
        }
        bytes += conditions.keys.reduce(0) { $0 + $1.bytes.count + 8 }
        // Never split: a transaction is atomic or it is refused.
        if conditionList.count > limits.maxConditions {
            throw StoreError.engine(operation: "commit", message: "the transaction decides on \(conditionList.count) keys; the engine checks at most \(limits.maxConditions) conditions per commit (EngineLimits.maxConditions; etcd: --max-txn-ops)")
        }
        if writeList.count > limits.maxWrites {
            throw StoreError.engine(operation: "commit", message: "the transaction writes \(writeList.count) keys; the engine applies at most \(limits.maxWrites) writes per commit (EngineLimits.maxWrites; etcd: --max-txn-ops)")
        }
        if bytes > limits.maxRequestBytes {
            throw StoreError.engine(operation: "commit", message: "the transaction carries about \(bytes) bytes; the engine accepts at most \(limits.maxRequestBytes) bytes per commit (EngineLimits.maxRequestBytes; etcd: --max-request-bytes)")
        }
        engine.commitStarting()
        defer { engine.commitEnded() }
        switch try engine.groups.commit(if: conditionList, then: writeList, bytes: bytes) {
        case .committed(let revision):
            engine.committed(revision, appendedEvents: appendsEvents)
        case .conditionFailed:
            throw StoreError.conflict("a key this transaction read for update changed before it committed")
        }
    }

    func rollback() {
        writes = [:]
        conditions = [:]
    }
}

/// A bounded iterator over `[lower, upper)` of a `KeyValueEngine` at one revision, reading a
/// page of entries per request, in either direction.
final class ScanIterator: StoreIterator {
    private let keyValues: any KeyValueEngine
    let lower: [UInt8]
    let upper: [UInt8]?
    private let pin: RevisionSnapshot
    private var entries: [EngineEntry] = []
    private var index = 0
    private var forward = true
    private var more = false
    private var failure: (any Error)?

    init(_ keyValues: any KeyValueEngine, lower: [UInt8], upper: [UInt8]?, pin: RevisionSnapshot) {
        self.keyValues = keyValues
        self.lower = lower
        self.upper = upper
        self.pin = pin
    }

    var isValid: Bool { failure == nil && index < entries.count }

    /// The current key (only while valid).
    var currentKey: [UInt8] { entries[index].key }
    var currentValue: [UInt8] { entries[index].value }

    private func fetch(from: [UInt8], to: [UInt8]?, forward: Bool) {
        self.forward = forward
        index = 0
        entries = []
        more = false
        let from = from.lexicographicallyPrecedes(lower) ? lower : from
        var to = to
        if let upper, to.map({ upper.lexicographicallyPrecedes($0) }) ?? true { to = upper }
        if let to, !from.lexicographicallyPrecedes(to) { return }
        do {
            let page = try keyValues.scan(from: from, to: to, direction: forward ? .ascending : .descending,
                                          limit: OptimisticEngine.pageSize, at: pin.revision)
            pin.pin(page.revision)
            entries = page.entries
            more = page.more
        } catch {
            failure = error
        }
    }

    func seekToFirst() { fetch(from: lower, to: upper, forward: true) }
    func seekToLast() { fetch(from: lower, to: upper, forward: false) }
    func seek(_ key: [UInt8]) { fetch(from: key, to: upper, forward: true) }
    func seekForPrevious(_ key: [UInt8]) { fetch(from: lower, to: KeySpace.successor(of: key), forward: false) }

    func next() {
        guard isValid else { return }
        let key = currentKey
        if forward {
            index += 1
            if index == entries.count && more { fetch(from: KeySpace.successor(of: key), to: upper, forward: true) }
        } else {
            fetch(from: KeySpace.successor(of: key), to: upper, forward: true)
        }
    }

    func previous() {
        guard isValid else { return }
        let key = currentKey
        if !forward {
            index += 1
            if index == entries.count && more { fetch(from: lower, to: key, forward: false) }
        } else {
            fetch(from: lower, to: key, forward: false)
        }
    }

    var keyBuffer: UnsafeRawBufferPointer { entries[index].key.withUnsafeBytes { $0 } }
    var valueBuffer: UnsafeRawBufferPointer { entries[index].value.withUnsafeBytes { $0 } }

    func checkError() throws {
        if let failure { throw failure }
    }
}

/// A transaction's iterator: its own writes (`overlay`, sorted; nil values are deletes) merged
/// over the committed data at its revision.
final class MergingIterator: StoreIterator {
    private let base: ScanIterator
    private let overlay: [(key: [UInt8], value: [UInt8]?)]
    private let lower: [UInt8]
    private let upper: [UInt8]?
    /// The overlay entry that is the next candidate in the current direction.
    private var position = 0
    private var forward = true
    private var current: (key: [UInt8], value: [UInt8])?

    init(base: ScanIterator, overlay: [(key: [UInt8], value: [UInt8]?)], lower: [UInt8], upper: [UInt8]?) {
        self.base = base
        self.overlay = overlay
        self.lower = lower
        self.upper = upper
    }

    var isValid: Bool { current != nil }

    /// The first overlay index whose key is not below `key`.
    private func firstOverlay(atLeast key: [UInt8]) -> Int {
        var low = 0
        var high = overlay.count
        while low < high {
            let middle = (low + high) / 2
            if overlay[middle].key.lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func settle() {
        while true {
            let candidate: (key: [UInt8], value: [UInt8]?)? = overlay.indices.contains(position) ? overlay[position] : nil
            let baseKey: [UInt8]? = base.isValid ? base.currentKey : nil
            guard candidate != nil || baseKey != nil else {
                current = nil
                return
            }
            var takeOverlay = false
            var sameKey = false
            if let candidate, let baseKey {
                if candidate.key == baseKey {
                    takeOverlay = true
                    sameKey = true
                } else {
                    takeOverlay = forward ? candidate.key.lexicographicallyPrecedes(baseKey) : baseKey.lexicographicallyPrecedes(candidate.key)
                }
            } else {
                takeOverlay = candidate != nil
            }
            guard takeOverlay, let candidate else {
                current = (base.currentKey, base.currentValue)
                return
            }
            if let value = candidate.value {
                current = (candidate.key, value)
                return
            }
            // Deleted by this transaction: skip it, in the data too.
            if sameKey { forward ? base.next() : base.previous() }
            position += forward ? 1 : -1
        }
    }

    func seekToFirst() { seek(lower) }

    func seekToLast() {
        forward = false
        base.seekToLast()
        position = overlay.count - 1
        settle()
    }

    func seek(_ key: [UInt8]) {
        forward = true
        base.seek(key)
        position = firstOverlay(atLeast: key)
        settle()
    }

    func seekForPrevious(_ key: [UInt8]) {
        forward = false
        base.seekForPrevious(key)
        position = firstOverlay(atLeast: KeySpace.successor(of: key)) - 1
        settle()
    }

    func next() {
        guard let current else { return }
        guard forward else { return seek(KeySpace.successor(of: current.key)) }
        advance(past: current.key)
    }

    func previous() {
        guard let current else { return }
        guard !forward else {
            // The last entry below the current one.
            forward = false
            base.seekForPrevious(current.key)
            if base.isValid && base.currentKey == current.key { base.previous() }
            position = firstOverlay(atLeast: current.key) - 1
            return settle()
        }
        advance(past: current.key)
    }

    private func advance(past key: [UInt8]) {
        if base.isValid && base.currentKey == key { forward ? base.next() : base.previous() }
        if overlay.indices.contains(position) && overlay[position].key == key { position += forward ? 1 : -1 }
        settle()
    }

    var keyBuffer: UnsafeRawBufferPointer { current!.key.withUnsafeBytes { $0 } }
    var valueBuffer: UnsafeRawBufferPointer { current!.value.withUnsafeBytes { $0 } }

    func checkError() throws { try base.checkError() }
}
