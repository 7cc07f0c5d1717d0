import Logging
import NIOPosix
import Synchronization
import SoukTracing

/// A RocksDB-backed store of tables, indexes, idempotency records and event logs.
///
/// Reads (`get`, `list`, `events`) run on the caller's thread, which must not be an event loop's
/// (`LoopRule`: a read that misses the block cache waits for the disk). Writes run in `write { transaction in … }` on a pool of writer threads, because a
/// transaction may wait for another's lock and a commit waits for fsync; running commits from
/// many threads at once lets RocksDB group them into one log write and one fsync.
///
/// Durability: `write` returns only after RocksDB accepted the commit into its write-ahead log.
/// With `SyncPolicy.syncEveryCommit` (the default) that log write was also fsynced, so the change
/// survives power loss; with `SyncPolicy.none` it survives a crash of the process only.
public final class Store: Sendable {
    public let configuration: StoreConfiguration
    public let schema: Schema
    /// The engine under the layers: RocksDB (embedded) or an `OptimisticEngine` over a `KeyValueEngine`.
    let engine: any StoreEngine
    let logger: Logger
    let notifier = EventNotifier()
    /// Build state of every index in the schema, by name.
    let indexStatus: [String: IndexStatus]
    /// The names of the schema's tables: a transaction writes to no other.
    let tableNames: Set<String>
    /// Serializes backups (they share one checkpoint directory and backup engine).
    let backupLock = Mutex(())
    /// Who `observeCommits` asked to tell about committed changes, by table name.
    let commitObservers = Mutex<[String: [CommitObserver]]>([:])
    private let writers: NIOThreadPool
    /// Slots free for running transactions (see `Transaction.slot`), the lowest taken first.
    private let freeSlots: Mutex<[Int]>
    /// Where this store's slots start: another node on the same replicated engine numbers its own elsewhere.
    private let slotOffset = Int.random(in: 0..<1 << 20)
    private let inFlight = Atomic<Int>(0)
    /// Store calls made so far (reads, transactions, maintenance), for tests that count them.
    let calls = Atomic<Int>(0)
    private let closed = Atomic<Bool>(false)
    /// On a replicated engine: the watch that hands other nodes' events to `notifier`.
    let eventWatch = Mutex<(any EngineWatch)?>(nil)
    /// On a replicated engine: the watches that tell `observeCommits`' observers of other nodes' changes.
    let recordWatches = Mutex<[any EngineWatch]>([])

    /// Opens (or creates) the store at `configuration.path` for the tables of `schema`.
    ///
    /// A database is created only in a missing or empty directory: a directory holding files
    /// but no database (what an interrupted restore left, or another program's files) is refused
    /// with a `MaintenanceError`, so a server never starts empty over them.
    ///
    /// An index that is new in the schema while its table already has records starts in the
    /// "building" state: writes maintain it at once, lists on it fail with `.indexNotReady` until
    /// `buildIndex` (or `buildPendingIndexes`) has filled it from the existing records. The
    /// entries of an index the schema retires are deleted.
    public convenience init(_ configuration: StoreConfiguration, schema: Schema) throws {
        try schema.validate()
        try StoreDirectory.checkOpenable(configuration.path)
        try self.init(opened: RocksDatabase(configuration), configuration: configuration, schema: schema)
    }

    /// Opens the store over an engine already open; closes it when opening fails.
    init(opened engine: any StoreEngine, configuration: StoreConfiguration, schema: Schema) throws {
        do {
            try schema.validate()
        } catch {
            engine.close()
            throw error
        }
        self.configuration = configuration
        self.schema = schema
        self.logger = configuration.logger
        self.engine = engine
        var status = [String: IndexStatus]()
        for table in schema.tables {
            for index in table.indexes {
                status[index.name] = IndexStatus(table: table.name, kind: index.kind)
            }
        }
        indexStatus = status
        tableNames = Set(schema.tables.map(\.name))
        writers = NIOThreadPool(numberOfThreads: max(1, configuration.writerThreads))
        freeSlots = Mutex(Array((0..<max(1, configuration.writerThreads)).reversed()))
        writers.start()
        do {
            try loadIndexStates()
            try dropRetiredIndexes()
        } catch {
            writers.shutdownGracefully { _ in }
            engine.close()
            throw error
        }
    }

    deinit {
        eventWatch.withLock { $0?.cancel() }
        recordWatches.withLock { $0.forEach { $0.cancel() } }
        if !closed.load(ordering: .sequentiallyConsistent) {
            writers.shutdownGracefully { _ in }
            engine.close()
        }
    }

    /// Waits for running operations, then closes the database. Later calls fail with `.closed`.
    public func close() async {
        guard closed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else { return }
        while inFlight.load(ordering: .sequentiallyConsistent) > 0 {
            try? await Task.sleep(for: .milliseconds(1))
        }
        try? await writers.shutdownGracefully()
        eventWatch.withLock { $0?.cancel() }
        recordWatches.withLock { $0.forEach { $0.cancel() } }
        notifier.finishAll()
        engine.close()
    }

    /// Whether `close` was called.
    var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }

    /// Runs `body` while the database is open; `close` waits for it.
    @inline(__always)
    func guarded<R>(_ body: () throws -> R, function: StaticString = #function) throws -> R {
        LoopRule.assertMayBlock(function)
        calls.wrappingAdd(1, ordering: .relaxed)
        inFlight.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { inFlight.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        guard !closed.load(ordering: .sequentiallyConsistent) else { throw StoreError.closed }
        return try body()
    }

    var now: StoreTime { configuration.clock() }

    /// The embedded database, for what only RocksDB does (backups, checkpoints, compaction, flush,
    /// its properties); throws on a store opened over a replicated engine, which has its own tools.
    func rocksOnly(_ operation: String) throws -> RocksDatabase {
        guard let database = engine.rocksDatabase else {
            throw StoreError.engine(
                operation: operation,
                message: "only the embedded RocksDB store does this; a replicated engine is maintained with its own tools (for etcd: etcdctl snapshot save, defrag)")
        }
        return database
    }

    // MARK: Reads

    /// The record with this identifier, or nil. Throws `.corruptRecord` when its value is damaged.
    public func get<Value>(_ table: Table<Value>, _ id: RecordID) throws -> StoredRecord<Value>? {
        try guarded {
            try engine.read(table.recordKey(id), in: nil) { bytes in try bytes.map { try table.decode(id: id, $0) } }
        }
    }

    /// The records with these identifiers, in the same order (nil where absent), read in one batch
    /// from one consistent snapshot.
    public func get<Value>(_ table: Table<Value>, ids: [RecordID]) throws -> [StoredRecord<Value>?] {
        try guarded {
            var records = [StoredRecord<Value>?](repeating: nil, count: ids.count)
            let keys = table.recordKeys(ids)
            try engine.readMany(flat: keys.flat, sizes: keys.sizes, in: nil) { i, bytes in
                records[i] = try bytes.map { try table.decode(id: ids[i], $0) }
            }
            return records
        }
    }

    /// The record a unique index maps `key` to, or nil.
    public func get<Value>(_ table: Table<Value>, unique index: Index<Value>, _ key: [KeyPart]) throws -> StoredRecord<Value>? {
        try guarded {
            try checkReadable(table, index)
            guard index.kind == .unique else { throw StoreError.unknownSchemaObject("\(index.name) is not a unique index") }
            let snapshot = engine.snapshot()
            let id = try engine.read(index.queryPrefix(key), in: snapshot) { $0.flatMap(RecordID.init(bytes:)) }
            guard let id else { return nil }
            return try engine.read(table.recordKey(id), in: snapshot) { bytes in
                try bytes.map { try table.decode(id: id, $0) }
            }
        }
    }

    /// One page of the records whose entries in `index` fall in `range`, in index order.
    ///
    /// Reads one consistent snapshot; costs one bounded seek plus the page (page size + 1 index
    /// entries and a batched read of the records), however large the table is.
    public func list<Value>(
        _ table: Table<Value>, _ index: Index<Value>, _ range: IndexRange = IndexRange(),
        direction: ScanDirection = .ascending, page: PageRequest = PageRequest()
    ) throws -> Page<Value> {
        try guarded {
            try checkReadable(table, index)
            guard let scan = try PageScan(index: index, range: range, direction: direction, page: page) else {
                return Page(items: [], nextPageToken: nil)
            }
            let snapshot = engine.snapshot()
            let iterator = engine.iterator(lower: scan.lower, upper: scan.upper, in: snapshot)
            let (ids, lastKey, hasMore) = try scan.collect(iterator, limit: page.size)
            var items = [StoredRecord<Value>]()
            items.reserveCapacity(ids.count)
            let keys = table.recordKeys(ids)
            try engine.readMany(flat: keys.flat, sizes: keys.sizes, in: snapshot) { i, bytes in
                if let bytes {
                    items.append(try table.decode(id: ids[i], bytes))
                } else {
                    // Cannot happen in a consistent store: `verify` reports it.
                    logger.warning("index entry without record", metadata: ["index": "\(index.name)", "id": "\(ids[i])"])
                }
            }
            let token = hasMore ? lastKey.map { scan.token(after: $0) } : nil
            return Page(items: items, nextPageToken: token)
        }
    }

    /// Throws unless the index belongs to the table, is in the schema, and is fully built.
    func checkReadable<Value>(_ table: Table<Value>, _ index: Index<Value>) throws {
        guard let status = indexStatus[index.name], status.table == table.name, table.index(named: index.name) != nil else {
            throw StoreError.unknownSchemaObject("index \(index.name) of table \(table.name)")
        }
        guard status.isReady else { throw StoreError.indexNotReady(index.name) }
    }

    // MARK: Writes

    /// Runs `body` as one atomic transaction and commits it; returns what `body` returned.
    ///
    /// Everything `body` writes (records, their index entries, events, idempotency records)
    /// commits together or not at all. Records read through the transaction are locked until it
    /// ends, so a read-modify-write cannot lose a concurrent update. When the transaction collides
    /// with others (lock timeout, deadlock) it is rolled back and `body` runs again, up to
    /// `configuration.maxAttempts` times, then `.conflict` is thrown: `body` must have no effects
    /// outside the transaction. Errors thrown by `body` roll back and are rethrown at once.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Transaction) throws -> T) async throws -> T {
        var attempt = 1
        let span = Tracing.current
        while true {
            do {
                let thisAttempt = attempt
                let (result, appended, committed) = try await runOnWriter { try self.runTransaction(body, span: span, attempt: thisAttempt) }
                if !appended.isEmpty { notifier.notify(appended) }
                for action in committed { action() }
                return result
            } catch let error as StoreError where error.isRetryable && attempt < configuration.maxAttempts {
                logger.debug("transaction collided; running it again", metadata: ["attempt": "\(attempt)", "error": "\(error)"])
                attempt += 1
                // Random backoff so colliding transactions do not collide again in lockstep.
                let ceiling = min(50_000, 500 << min(attempt, 7))
                try await Task.sleep(for: .microseconds(Int.random(in: 0...ceiling)))
            }
        }
    }

    /// Runs blocking work on a writer thread.
    func runOnWriter<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard !closed.load(ordering: .sequentiallyConsistent) else { throw StoreError.closed }
        do {
            return try await writers.runIfActive(body)
        } catch is NIOThreadPoolError.ThreadPoolInactive {
            throw StoreError.closed
        } catch is CancellationError where closed.load(ordering: .sequentiallyConsistent) {
            // A pool that was shut down cancels the work handed to it.
            throw StoreError.closed
        }
    }

    /// With `span` (the traced call the write serves), records the transaction's span (the body
    /// and the index and event work before the commit) and the commit's, as its children.
    private func runTransaction<T>(
        _ body: (Transaction) throws -> T, span: ActiveSpan? = nil, attempt: Int = 1
    ) throws -> (T, [StoredEvent], [@Sendable () -> Void]) {
        let started = span == nil ? 0 : Tracing.now()
        var committing: UInt64 = 0
        defer {
            if let span {
                let ended = Tracing.now()
                span.recordChild("souk.store.transaction", start: started, end: committing == 0 ? ended : committing,
                                 attributes: [("souk.store.attempt", .int(Int64(attempt)))])
                if committing != 0 { span.recordChild("souk.store.commit", start: committing, end: ended) }
            }
        }
        let taken = freeSlots.withLock { $0.popLast() }
        defer { if let taken { freeSlots.withLock { $0.append(taken) } } }
        let slot = slotOffset + (taken ?? Int.random(in: 0..<max(1, configuration.writerThreads)))
        return try guarded {
            let transaction = Transaction(store: self, engine: engine.beginTransaction(), now: now, slot: slot)
            defer { transaction.isFinished = true }
            do {
                let result = try body(transaction)
                var prepared = 0
                while prepared < transaction.commitPreparations.count {
                    try transaction.commitPreparations[prepared](transaction)
                    prepared += 1
                }
                if span != nil { committing = Tracing.now() }
                try transaction.engine.commit()
                // Here, on the writer thread, so no cache outlives the commit by more than this.
                transaction.tellObservers()
                return (result, transaction.appendedPayloads, transaction.committedActions)
            } catch {
                transaction.engine.rollback()
                throw error
            }
        }
    }

    // MARK: Commit observers

    /// Calls `observer` with the identifiers of the records of `table` that each transaction
    /// changed (inserted, updated or deleted), on the writer thread just after the commit (so
    /// before its `write` returns). Keep `observer` short: the writer waits for it. For caches of records kept in this process: a cache
    /// cleared here never answers from a record older than the last write that returned.
    /// On a replicated engine, changes other nodes commit are told too, as a watch of the engine
    /// delivers them (a moment after their commit); `.unknown` when the watch was cut off and
    /// changes may have been missed.
    public func observeCommits<Value>(to table: Table<Value>, _ observer: @escaping CommitObserver) {
        let first = commitObservers.withLock { observers in
            defer { observers[table.name, default: []].append(observer) }
            return observers[table.name] == nil
        }
        if first, let engine = engine as? OptimisticEngine {
            watchRecords(of: table.name, prefix: table.recordPrefix, on: engine)
        }
    }

    // MARK: Statistics

    /// Approximate bytes of live data files and memory used by memtables and the block cache.
    public func statistics() throws -> StoreStatistics {
        try guarded {
            let database = try rocksOnly("statistics")
            func number(_ name: String) -> Int { Int(database.property(name) ?? "") ?? 0 }
            return StoreStatistics(
                liveDataFileBytes: number("rocksdb.live-sst-files-size"),
                memtableBytes: number("rocksdb.cur-size-all-mem-tables"),
                blockCacheBytes: number("rocksdb.block-cache-usage"),
                estimatedKeys: number("rocksdb.estimate-num-keys"),
                levelZeroFiles: number("rocksdb.num-files-at-level0"),
                compacting: number("rocksdb.compaction-pending") != 0 || number("rocksdb.num-running-compactions") != 0)
        }
    }

    /// Writes the memtables to data files (for example before measuring disk usage).
    public func flush() async throws {
        try await runOnWriter { try self.guarded { try self.rocksOnly("flush").flush() } }
    }
}

/// Sizes reported by RocksDB.
public struct StoreStatistics: Sendable, Equatable {
    public var liveDataFileBytes: Int
    public var memtableBytes: Int
    public var blockCacheBytes: Int
    public var estimatedKeys: Int
    /// Data files in level 0 (flushed memtables not yet merged into the levels below); every
    /// lookup probes each of them, so a backlog here slows reads.
    public var levelZeroFiles: Int
    /// Whether RocksDB has compaction work pending or running (a store just bulk-loaded is not
    /// yet at its steady state).
    public var compacting: Bool
}

/// Whether an index may be read yet.
final class IndexStatus: Sendable {
    let table: String
    let kind: IndexKind
    private let ready = Atomic<Bool>(false)

    init(table: String, kind: IndexKind) {
        self.table = table
        self.kind = kind
    }

    var isReady: Bool { ready.load(ordering: .acquiring) }
    func markReady() { ready.store(true, ordering: .releasing) }
}

/// Told what committed transactions changed in one table (`Store.observeCommits`).
public typealias CommitObserver = @Sendable (CommittedChanges) -> Void

/// What a commit observer is told.
public enum CommittedChanges: Sendable, Equatable {
    /// These records of the table were inserted, updated or deleted.
    case records([RecordID])
    /// Changes of other nodes may have been missed (a replicated engine's watch of the table was
    /// cut off, its revision compacted): whatever was kept from the table must be read again.
    case unknown

    /// The records changed; nil when unknown (whatever was kept from the table must go).
    public var recordIDs: [RecordID]? {
        if case .records(let ids) = self { ids } else { nil }
    }
}
