import CRocksDB
import CRocksDBBatch

/// One pessimistic RocksDB transaction: keys it reads for update or writes are locked until it
/// commits or rolls back; conflicting lockers wait (up to the lock timeout) or fail on deadlock.
final class RocksTransaction {
    let handle: OpaquePointer
    private let database: RocksDatabase

    init(_ database: RocksDatabase) {
        self.database = database
        handle = rocksdb_transaction_begin(database.handle, database.writeOptions, database.transactionOptions, nil)
    }

    deinit { rocksdb_transaction_destroy(handle) }

    /// Locks `key` (exclusively) and reads its latest committed value, or this transaction's own write.
    func getForUpdate<R>(_ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        let slice = try Rocks.withChars(key) { pointer, length in
            try Rocks.call("get for update") { error in
                rocksdb_transaction_get_pinned_for_update(handle, database.readOptions, pointer, length, 1, error)
            }
        }
        guard let slice else { return try body(nil) }
        defer { rocksdb_pinnableslice_destroy(slice) }
        var length = 0
        let value = rocksdb_pinnableslice_value(slice, &length)
        return try body(Rocks.buffer(value, length))
    }

    /// Like `getForUpdate`, except that a key another transaction has locked is not waited for:
    /// then `body` is not called and the answer is `.lockedByAnother`.
    func getForUpdateUnlessLocked<R>(_ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> NoWaitRead<R> {
        // The value is copied out of the C call, then decoded: `body` may throw.
        var value: (bytes: [UInt8]?, visited: Bool) = (nil, false)
        let locked = try Rocks.withChars(key) { pointer, length in
            try withUnsafeMutablePointer(to: &value) { context in
                try Rocks.call("get for update unless locked") { error in
                    souk_transaction_get_for_update_nowait(
                        handle, pointer, length, database.lockTimeoutMilliseconds, context, { context, _, bytes, length, _ in
                            let value = context!.assumingMemoryBound(to: (bytes: [UInt8]?, visited: Bool).self)
                            value.pointee = (bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) }, true)
                        }, error)
                }
            }
        }
        if locked != 0 { return .lockedByAnother }
        precondition(value.visited, "souk_transaction_get_for_update_nowait neither read nor failed")
        guard let bytes = value.bytes else { return .read(try body(nil)) }
        return .read(try bytes.withUnsafeBytes { try body($0) })
    }

    /// Reads without locking (this transaction's own writes included).
    func get<R>(_ key: [UInt8], _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        let slice = try Rocks.withChars(key) { pointer, length in
            try Rocks.call("get") { error in
                rocksdb_transaction_get_pinned(handle, database.readOptions, pointer, length, error)
            }
        }
        guard let slice else { return try body(nil) }
        defer { rocksdb_pinnableslice_destroy(slice) }
        var length = 0
        let value = rocksdb_pinnableslice_value(slice, &length)
        return try body(Rocks.buffer(value, length))
    }

    /// Puts `key`, locking it unless `locking` is false: only for keys whose writers another
    /// lock this transaction holds already serializes (a record's index entries under the
    /// record's lock), or that no other transaction can name (a record under a new generated id).
    func put(_ key: [UInt8], _ value: [UInt8], locking: Bool) throws {
        try Rocks.withChars(key) { k, kl in
            try Rocks.withChars(value) { v, vl in
                try Rocks.call("put") { error in
                    if locking {
                        rocksdb_transaction_put(handle, k, kl, v, vl, error)
                    } else {
                        souk_transaction_put_unlocked(handle, k, kl, v, vl, error)
                    }
                }
            }
        }
    }

    /// Deletes `key`, locking it unless `locking` is false (under the same rule as `put`).
    func delete(_ key: [UInt8], locking: Bool) throws {
        try Rocks.withChars(key) { k, kl in
            try Rocks.call("delete") { error in
                if locking { rocksdb_transaction_delete(handle, k, kl, error) } else { souk_transaction_delete_unlocked(handle, k, kl, error) }
            }
        }
    }

    func commit() throws {
        try Rocks.call("commit") { rocksdb_transaction_commit(handle, $0) }
    }

    func rollback() {
        var error: UnsafeMutablePointer<CChar>? = nil
        rocksdb_transaction_rollback(handle, &error)
        if let error { rocksdb_free(error) }  // nothing to do: the transaction is dropped either way
    }
}
