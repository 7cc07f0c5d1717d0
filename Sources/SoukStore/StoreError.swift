/// Everything the store can refuse or fail with.
///
/// The RPC layer maps these to status codes: `conflict` and `versionMismatch` → ABORTED,
/// `notFound` → NOT_FOUND, `alreadyExists` and `uniqueViolation` → ALREADY_EXISTS,
/// `idempotencyKeyReused` and `invalidPageToken` → INVALID_ARGUMENT, `eventsExpired` →
/// OUT_OF_RANGE, the rest → INTERNAL or UNAVAILABLE.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// RocksDB reported an error; `message` is RocksDB's own text.
    case rocksDB(operation: String, message: String)
    /// The replicated key-value engine failed or could not be reached; `message` is its own text
    /// (for etcd, the gRPC status and message).
    case engine(operation: String, message: String)
    /// Concurrent transactions kept colliding (lock timeout, deadlock, busy) after every retry.
    case conflict(String)
    /// An update or delete carried a version other than the stored one.
    case versionMismatch(table: String, id: RecordID, expected: UInt64, actual: UInt64)
    /// The record does not exist.
    case notFound(table: String, id: RecordID)
    /// A create used an identifier that is already taken.
    case alreadyExists(table: String, id: RecordID)
    /// A unique index already maps this value to another record.
    case uniqueViolation(index: String, existing: RecordID)
    /// A stored value could not be read: truncated, damaged, or rejected by the record codec.
    case corruptRecord(table: String, id: RecordID, reason: String)
    /// A stored event or idempotency record could not be read.
    case corruptValue(what: String, reason: String)
    /// The codec could not encode a record.
    case encodingFailed(table: String, reason: String)
    /// The same idempotency key was used before with a different request.
    case idempotencyKeyReused(key: String)
    /// The page token is malformed or belongs to another query.
    case invalidPageToken
    /// The index is still being built from existing records (see `Store.buildIndex`).
    case indexNotReady(String)
    /// The table or index is not part of the schema the store was opened with, or does not belong to the table.
    case unknownSchemaObject(String)
    /// The schema is inconsistent (for example two indexes with the same name).
    case invalidSchema(String)
    /// Events after the requested sequence number were already removed by retention.
    case eventsExpired(stream: String, oldestAvailable: UInt64)
    /// The store has been closed.
    case closed

    public var description: String {
        switch self {
        case .rocksDB(let op, let message): "RocksDB \(op) failed: \(message)"
        case .engine(let op, let message): "store engine \(op) failed: \(message)"
        case .conflict(let why): "transaction conflict: \(why)"
        case .versionMismatch(let t, let id, let expected, let actual):
            "\(t)/\(id): expected version \(expected), stored version is \(actual)"
        case .notFound(let t, let id): "\(t)/\(id) not found"
        case .alreadyExists(let t, let id): "\(t)/\(id) already exists"
        case .uniqueViolation(let index, let existing): "\(index): value already used by \(existing)"
        case .corruptRecord(let t, let id, let reason): "\(t)/\(id) cannot be read: \(reason)"
        case .corruptValue(let what, let reason): "\(what) cannot be read: \(reason)"
        case .encodingFailed(let t, let reason): "cannot encode a \(t) record: \(reason)"
        case .idempotencyKeyReused(let key): "idempotency key \(key) was already used with a different request"
        case .invalidPageToken: "invalid page token"
        case .indexNotReady(let name): "index \(name) is still being built"
        case .unknownSchemaObject(let what): "not in the schema: \(what)"
        case .invalidSchema(let why): "invalid schema: \(why)"
        case .eventsExpired(let stream, let oldest): "events of \(stream) were removed by retention; oldest available is \(oldest)"
        case .closed: "the store is closed"
        }
    }

    /// True for errors that a fresh attempt of the same transaction may not hit (lock timeouts, deadlocks).
    public var isRetryable: Bool {
        if case .conflict = self { return true }
        return false
    }
}
