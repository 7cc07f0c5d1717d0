/// The seam between the store's layers (records, indexes, idempotency, event logs, maintenance)
/// and the engine under them. Two implementations: `RocksDatabase` (embedded, pessimistic
/// transactions that lock what they read) and `OptimisticEngine` (any `KeyValueEngine`:
/// transactions read at one revision and commit under conditions on what they read).
///
/// Reads hand the value to a closure without copying it (RocksDB pins it), so the embedded path
/// costs what it cost before the seam: one protocol call, no allocation.
protocol StoreEngine: AnyObject, Sendable {
    /// Looks `key` up (through `snapshot` when given) and hands the value, or nil, to `body`.
    func read<R>(_ key: [UInt8], in snapshot: (any StoreSnapshot)?, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R

    /// Looks up many keys at once (laid end to end in `flat`, `sizes` long each), through
    /// `snapshot` when given; calls `body` once per key, in order.
    func readMany(flat: [UInt8], sizes: [Int], in snapshot: (any StoreSnapshot)?,
                  _ body: (Int, UnsafeRawBufferPointer?) throws -> Void) throws

    /// A consistent view for several reads.
    func snapshot() -> any StoreSnapshot

    /// A bounded iterator over `[lower, upper)` of the committed data, through `snapshot` when given.
    func iterator(lower: [UInt8]?, upper: [UInt8]?, in snapshot: (any StoreSnapshot)?) -> any StoreIterator

    /// A new transaction.
    func beginTransaction() -> any EngineTransaction

    /// The embedded database, for what only RocksDB does (backups, compaction, properties); nil
    /// on a replicated engine.
    var rocksDatabase: RocksDatabase? { get }

    /// The most writes one commit may hold (nil: no limit). Maintenance sizes its batches by it.
    var maxWritesPerCommit: Int? { get }

    /// Frees the engine's resources; called once, when nothing uses it any more.
    func close()
}

/// A point-in-time view of the data (a RocksDB snapshot, or an engine revision).
protocol StoreSnapshot: AnyObject {}

/// One transaction of a `StoreEngine`.
///
/// On RocksDB, `getForUpdate` locks the key until commit; on a replicated engine, it records the
/// key's revision as a condition of the commit. Either way a read-modify-write commits only if
/// what it read for update is still current, and one of two colliding transactions runs again.
protocol EngineTransaction: AnyObject {
    /// Reads `key` for update (its latest value, or this transaction's own write).
    func getForUpdate<R>(_ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R
    /// Like `getForUpdate`, but answers `.lockedByAnother` at once where another transaction holds the key.
    func getForUpdateUnlessLocked<R>(_ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> NoWaitRead<R>
    /// Reads without deciding on the key (this transaction's own writes included).
    func get<R>(_ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R
    /// Puts `key`; `locking: false` only for keys another lock (or condition) of this transaction
    /// already serializes, or that no other transaction can name.
    func put(_ key: [UInt8], _ value: [UInt8], locking: Bool) throws
    /// Deletes `key` (same rule for `locking` as `put`).
    func delete(_ key: [UInt8], locking: Bool) throws
    /// A bounded iterator that sees this transaction's own writes over the committed data.
    func iterator(lower: [UInt8]?, upper: [UInt8]?) -> any StoreIterator
    func commit() throws
    func rollback()
}

extension EngineTransaction {
    func put(_ key: [UInt8], _ value: [UInt8]) throws { try put(key, value, locking: true) }
    func delete(_ key: [UInt8]) throws { try delete(key, locking: true) }
}

/// A bounded, bidirectional iterator (the shape `PageScan` walks).
protocol StoreIterator: AnyObject {
    var isValid: Bool { get }
    func seekToFirst()
    func seekToLast()
    func seek(_ key: [UInt8])
    /// Moves to the last key at or before `key`.
    func seekForPrevious(_ key: [UInt8])
    func next()
    func previous()
    /// The current key, valid until the iterator moves.
    var keyBuffer: UnsafeRawBufferPointer { get }
    /// The current value, valid until the iterator moves.
    var valueBuffer: UnsafeRawBufferPointer { get }
    /// Throws when the iterator stopped because of an error rather than at the end of its range.
    func checkError() throws
}

extension RocksSnapshot: StoreSnapshot {}
extension RocksIterator: StoreIterator {}

extension RocksDatabase: StoreEngine {
    @inline(__always)
    func read<R>(_ key: [UInt8], in snapshot: (any StoreSnapshot)?, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        try get(key, readOptions: snapshot.map { unsafeDowncast($0, to: RocksSnapshot.self).readOptions }, body)
    }

    func readMany(flat: [UInt8], sizes: [Int], in snapshot: (any StoreSnapshot)?,
                  _ body: (Int, UnsafeRawBufferPointer?) throws -> Void) throws {
        try multiGet(flat: flat, sizes: sizes, snapshot: snapshot.map { unsafeDowncast($0, to: RocksSnapshot.self) }, body)
    }

    func snapshot() -> any StoreSnapshot { RocksSnapshot(self) }

    func iterator(lower: [UInt8]?, upper: [UInt8]?, in snapshot: (any StoreSnapshot)?) -> any StoreIterator {
        RocksIterator(database: self, lower: lower, upper: upper, snapshot: snapshot.map { unsafeDowncast($0, to: RocksSnapshot.self) })
    }

    func beginTransaction() -> any EngineTransaction { RocksTransaction(self) }

    var rocksDatabase: RocksDatabase? { self }

    var maxWritesPerCommit: Int? { nil }
}

extension RocksTransaction: EngineTransaction {
    func iterator(lower: [UInt8]?, upper: [UInt8]?) -> any StoreIterator {
        RocksIterator(transaction: self, lower: lower, upper: upper)
    }
}
