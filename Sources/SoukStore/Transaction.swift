/// One atomic read-modify-write unit, handed to the body of `Store.write`.
///
/// Records read through it are locked until it commits, so what it writes is based on current
/// data. It is valid only inside that body, on that thread; keep the body free of effects
/// outside the transaction, since it may run more than once.
public final class Transaction {
    let store: Store
    /// The engine's transaction: locks on RocksDB, read conditions on a replicated engine.
    let engine: any EngineTransaction
    /// The time of this attempt; records written get it as `updatedAt` (and `createdAt`).
    public let now: StoreTime
    /// Streams appended to, with the last sequence number written (for waking followers).
    var appendedEvents: [String: UInt64] = [:]
    /// The events appended, in order, as they will be stored (handed to followers from memory
    /// after the commit: `EventNotifier`'s tails).
    var appendedPayloads: [StoredEvent] = []
    /// What `afterCommit` asked for, run in order once this attempt committed.
    var committedActions: [@Sendable () -> Void] = []
    /// What `beforeCommit` asked for, run in order once the body returned.
    var commitPreparations: [(Transaction) throws -> Void] = []
    var isFinished = false
    /// The observers of `Store.observeCommits`, read once, at the first write.
    private lazy var observers = store.commitObservers.withLock { $0 }
    /// Records changed in the tables that have observers, by table name.
    private var observedChanges: [String: [RecordID]] = [:]

    /// A number no other transaction of this store running at the same time has, from a few
    /// dense ones (one per writer thread, from an offset of this store's own): for spreading
    /// commutative counters over shards, so that concurrent transactions pick different ones
    /// (on a replicated engine a shared shard is a conflict that runs the whole transaction
    /// again; on RocksDB, a lock to wait for).
    public let slot: Int

    init(store: Store, engine: any EngineTransaction, now: StoreTime, slot: Int = 0) {
        self.store = store
        self.engine = engine
        self.now = now
        self.slot = slot
    }

    /// Runs `action` inside this transaction once its body returned, just before it commits (an
    /// action may still write, and ask for more): for work that must see all the body wrote.
    public func beforeCommit(_ action: @escaping (Transaction) throws -> Void) {
        checkOpen()
        commitPreparations.append(action)
    }

    /// Runs `action` once this transaction committed, and not at all when it rolls back (an
    /// attempt that is retried drops what it asked for): for telling the rest of the process
    /// about a change only when it is durable.
    public func afterCommit(_ action: @escaping @Sendable () -> Void) {
        checkOpen()
        committedActions.append(action)
    }

    /// Tells the observers of `Store.observeCommits` what this attempt changed, once it committed.
    func tellObservers() {
        for (table, ids) in observedChanges {
            for observer in observers[table] ?? [] { observer(.records(ids)) }
        }
    }

    private func checkOpen() {
        precondition(!isFinished, "a Transaction was used after its write block returned")
    }

    // MARK: Records

    /// Reads and locks the record, or returns nil when it does not exist (its absence is locked too).
    public func get<Value>(_ table: Table<Value>, _ id: RecordID) throws -> StoredRecord<Value>? {
        checkOpen()
        return try engine.getForUpdate(table.recordKey(id)) { bytes in try bytes.map { try table.decode(id: id, $0) } }
    }

    /// Reads the record without locking it (the transaction's own writes included): for records a
    /// transaction refers to but does not change or decide on (the product a cart line names, the
    /// restaurant a menu item belongs to), so that concurrent transactions do not queue on them.
    public func read<Value>(_ table: Table<Value>, _ id: RecordID) throws -> StoredRecord<Value>? {
        checkOpen()
        return try engine.get(table.recordKey(id)) { bytes in try bytes.map { try table.decode(id: id, $0) } }
    }

    /// Reads and locks the record like `get`, unless another transaction holds its lock: then it
    /// answers `.lockedByAnother` at once instead of waiting. For work queues, where a caller
    /// passes over what someone else is taking to the next item. Over a replicated engine nothing
    /// is locked: this answers `.read`, two takers collide at commit, and the loser runs again.
    public func getUnlessLocked<Value>(_ table: Table<Value>, _ id: RecordID) throws -> NoWaitRead<StoredRecord<Value>?> {
        checkOpen()
        return try engine.getForUpdateUnlessLocked(table.recordKey(id)) { bytes in try bytes.map { try table.decode(id: id, $0) } }
    }

    /// Reads and locks the record; throws `.notFound` when it does not exist.
    public func require<Value>(_ table: Table<Value>, _ id: RecordID) throws -> StoredRecord<Value> {
        guard let record = try get(table, id) else { throw StoreError.notFound(table: table.name, id: id) }
        return record
    }

    /// Creates a record at version 1 with a new version 7 identifier, or with `id` (then throws
    /// `.alreadyExists` when that identifier is taken).
    @discardableResult
    public func insert<Value>(_ table: Table<Value>, _ value: Value, id: RecordID? = nil) throws -> StoredRecord<Value> {
        checkOpen()
        let recordID: RecordID
        if let id {
            // A generated identifier is unique by construction; a given one must be checked.
            guard try engine.getForUpdate(table.recordKey(id), { $0 == nil }) else {
                throw StoreError.alreadyExists(table: table.name, id: id)
            }
            recordID = id
        } else {
            recordID = RecordID.generate()
        }
        let record = StoredRecord(id: recordID, version: 1, createdAt: now, updatedAt: now, value: value)
        try write(table, old: nil, new: record, newID: id == nil)
        return record
    }

    /// Changes a record: reads and locks it, checks `expectedVersion` (when given), applies
    /// `change`, and stores it with the version increased by one. Throws `.notFound` or
    /// `.versionMismatch`.
    @discardableResult
    public func update<Value>(
        _ table: Table<Value>, _ id: RecordID, expectedVersion: UInt64? = nil, _ change: (inout Value) throws -> Void
    ) throws -> StoredRecord<Value> {
        let old = try require(table, id)
        if let expectedVersion, expectedVersion != old.version {
            throw StoreError.versionMismatch(table: table.name, id: id, expected: expectedVersion, actual: old.version)
        }
        var value = old.value
        try change(&value)
        let new = StoredRecord(
            id: id, version: old.version + 1, createdAt: old.createdAt, updatedAt: max(now, old.updatedAt), value: value)
        try write(table, old: old, new: new)
        return new
    }

    /// Changes fields the server maintains (ratings, stock, counters, locations, an active lease):
    /// reads and locks the record, applies `change`, and stores it keeping its version and update
    /// time, so that a client editing the record with the version it read is not refused because
    /// the server changed such a field meanwhile. `change` must touch only such fields; a client's
    /// edit, made with `update` inside its own transaction, starts from the latest value and so
    /// keeps them. Throws `.notFound`.
    @discardableResult
    public func updateMaintainedFields<Value>(
        _ table: Table<Value>, _ id: RecordID, _ change: (inout Value) throws -> Void
    ) throws -> StoredRecord<Value> {
        try updateMaintainedFields(table, read: try require(table, id), change)
    }

    /// `updateMaintainedFields` of a record this transaction has already read (and so locked),
    /// without reading it again.
    @discardableResult
    public func updateMaintainedFields<Value>(
        _ table: Table<Value>, read old: StoredRecord<Value>, _ change: (inout Value) throws -> Void
    ) throws -> StoredRecord<Value> {
        var new = old
        try change(&new.value)
        try write(table, old: old, new: new)
        return new
    }

    /// Stores `record.value` as the next version of a record read earlier (possibly outside this
    /// transaction); throws `.versionMismatch` when the record changed since `record.version`.
    @discardableResult
    public func save<Value>(_ table: Table<Value>, _ record: StoredRecord<Value>) throws -> StoredRecord<Value> {
        try update(table, record.id, expectedVersion: record.version) { $0 = record.value }
    }

    /// Deletes a record and its index entries; returns what was deleted. Throws `.notFound` or `.versionMismatch`.
    @discardableResult
    public func delete<Value>(_ table: Table<Value>, _ id: RecordID, expectedVersion: UInt64? = nil) throws -> StoredRecord<Value> {
        let old = try require(table, id)
        if let expectedVersion, expectedVersion != old.version {
            throw StoreError.versionMismatch(table: table.name, id: id, expected: expectedVersion, actual: old.version)
        }
        try write(table, old: old, new: nil)
        return old
    }

    /// Writes a record and its index entries. `newID`: the record is new under an id generated
    /// here, which no other transaction can name, so its key needs no lock.
    private func write<Value>(_ table: Table<Value>, old: StoredRecord<Value>?, new: StoredRecord<Value>?, newID: Bool = false) throws {
        // A table the schema does not declare has no owner that mounted it: its indexes would
        // not be built nor its records backed up and verified.
        guard store.tableNames.contains(table.name) else {
            throw StoreError.unknownSchemaObject("table \(table.name) is not in the store's schema")
        }
        if observers[table.name] != nil, let id = new?.id ?? old?.id {
            observedChanges[table.name, default: []].append(id)
        }
        try IndexMaintainer.apply(table, old: old, new: new, in: engine)
        if let new {
            try engine.put(table.recordKey(new.id), table.encode(new), locking: !newID)
        } else if let old {
            try engine.delete(table.recordKey(old.id))
        }
    }

    // MARK: Index reads (locking)

    /// Up to `limit` records whose entries in `index` fall in `range`, each read and locked.
    ///
    /// Sees this transaction's own writes. A record that changed between reading its index entry
    /// and locking it, so that it no longer has that entry, is skipped: every record returned
    /// matches the range while this transaction holds it. This makes a queue pop safe:
    /// `first(…)` then an update that moves the record out of the range.
    public func list<Value>(
        _ table: Table<Value>, _ index: Index<Value>, _ range: IndexRange = IndexRange(),
        direction: ScanDirection = .ascending, limit: Int = PageRequest.defaultSize
    ) throws -> [StoredRecord<Value>] {
        checkOpen()
        try store.checkReadable(table, index)
        guard let scan = try PageScan(index: index, range: range, direction: direction, page: PageRequest(size: limit)) else {
            return []
        }
        let iterator = engine.iterator(lower: scan.lower, upper: scan.upper)
        var records = [StoredRecord<Value>]()
        try scan.walk(iterator) { key, value in
            guard let id = scan.recordID(key: key, value: value) else { return true }
            let entryKey = Array(key)
            if let record = try get(table, id), index.entries(for: record).contains(where: { $0.key == entryKey }) {
                records.append(record)
            }
            return records.count < max(1, min(limit, PageRequest.maximumSize))
        }
        return records
    }

    /// The first record (in `direction`) whose entry in `index` falls in `range`, read and locked.
    public func first<Value>(
        _ table: Table<Value>, _ index: Index<Value>, _ range: IndexRange = IndexRange(), direction: ScanDirection = .ascending
    ) throws -> StoredRecord<Value>? {
        try list(table, index, range, direction: direction, limit: 1).first
    }

    /// The record a unique index maps `key` to, read and locked; nil when none (the value is then locked as free).
    public func get<Value>(_ table: Table<Value>, unique index: Index<Value>, _ key: [KeyPart]) throws -> StoredRecord<Value>? {
        checkOpen()
        try store.checkReadable(table, index)
        guard index.kind == .unique else { throw StoreError.unknownSchemaObject("\(index.name) is not a unique index") }
        guard let id = try engine.getForUpdate(index.queryPrefix(key), { $0.flatMap(RecordID.init(bytes:)) }) else {
            return nil
        }
        return try get(table, id)
    }
}

/// A locked read that does not wait: what was read, or that another transaction holds the lock.
public enum NoWaitRead<Value> {
    case read(Value)
    case lockedByAnother
}

extension NoWaitRead: Sendable where Value: Sendable {}
