import CRocksDB

/// A bounded RocksDB iterator over `[lower, upper)`, reading the database (optionally through a
/// snapshot) or a transaction (its own writes included).
///
/// The bounds are copied into memory the iterator owns: RocksDB keeps pointers to them.
final class RocksIterator {
    private let iterator: OpaquePointer
    private let readOptions: OpaquePointer
    private let lower: OwnedBytes?
    private let upper: OwnedBytes?
    private let keepAlive: AnyObject?

    private init(lower: [UInt8]?, upper: [UInt8]?, snapshot: RocksSnapshot?, keepAlive: AnyObject?,
                 make: (OpaquePointer) -> OpaquePointer) {
        let readOptions = rocksdb_readoptions_create()!
        let lowerBytes = lower.map(OwnedBytes.init)
        let upperBytes = upper.map(OwnedBytes.init)
        if let lowerBytes { rocksdb_readoptions_set_iterate_lower_bound(readOptions, lowerBytes.pointer, lowerBytes.count) }
        if let upperBytes { rocksdb_readoptions_set_iterate_upper_bound(readOptions, upperBytes.pointer, upperBytes.count) }
        if let snapshot { rocksdb_readoptions_set_snapshot(readOptions, snapshot.snapshotHandle) }
        self.readOptions = readOptions
        self.lower = lowerBytes
        self.upper = upperBytes
        self.keepAlive = snapshot ?? keepAlive
        iterator = make(readOptions)
    }

    /// An iterator over the committed database, through `snapshot` when given.
    convenience init(database: RocksDatabase, lower: [UInt8]?, upper: [UInt8]?, snapshot: RocksSnapshot? = nil) {
        self.init(lower: lower, upper: upper, snapshot: snapshot, keepAlive: database) {
            rocksdb_transactiondb_create_iterator(database.handle, $0)
        }
    }

    /// An iterator that sees the transaction's own uncommitted writes on top of the database.
    convenience init(transaction: RocksTransaction, lower: [UInt8]?, upper: [UInt8]?) {
        self.init(lower: lower, upper: upper, snapshot: nil, keepAlive: transaction) {
            rocksdb_transaction_create_iterator(transaction.handle, $0)
        }
    }

    deinit {
        rocksdb_iter_destroy(iterator)
        rocksdb_readoptions_destroy(readOptions)
    }

    var isValid: Bool { rocksdb_iter_valid(iterator) != 0 }
    func seekToFirst() { rocksdb_iter_seek_to_first(iterator) }
    func seekToLast() { rocksdb_iter_seek_to_last(iterator) }
    func next() { rocksdb_iter_next(iterator) }
    func previous() { rocksdb_iter_prev(iterator) }

    func seek(_ key: [UInt8]) {
        Rocks.withChars(key) { rocksdb_iter_seek(iterator, $0, $1) }
    }

    /// Moves to the last key at or before `key`.
    func seekForPrevious(_ key: [UInt8]) {
        Rocks.withChars(key) { rocksdb_iter_seek_for_prev(iterator, $0, $1) }
    }

    /// The current key, valid until the iterator moves.
    var keyBuffer: UnsafeRawBufferPointer {
        var length = 0
        let pointer = rocksdb_iter_key(iterator, &length)
        return Rocks.buffer(pointer, length)
    }

    /// The current value, valid until the iterator moves.
    var valueBuffer: UnsafeRawBufferPointer {
        var length = 0
        let pointer = rocksdb_iter_value(iterator, &length)
        return Rocks.buffer(pointer, length)
    }

    var key: [UInt8] { Array(keyBuffer) }

    /// Throws when the iterator stopped because of an error rather than at the end of its range.
    func checkError() throws {
        try Rocks.call("iterate") { rocksdb_iter_get_error(iterator, $0) }
    }
}
