/// The narrow interface a replicated key-value engine implements (etcd here; TiKV on paper, see
/// this module's README): ordered byte keys, a global revision that every commit increases, reads
/// at a revision, bounded range scans both ways, one conditional batch commit, and a watch.
///
/// The store's record, index, idempotency and event-log layers run over it unchanged through
/// optimistic transactions: a transaction reads at one revision, remembers the revision that
/// last wrote each key it decides on, and commits its writes only if none of those keys changed
/// since (`EngineCondition.unchangedSince`); otherwise it runs again. The outcome of every race is
/// the one RocksDB's locks give: one winner.
///
/// Calls block the calling thread (the store runs them on its writer threads or on the caller's
/// thread, never on an event loop: `LoopRule`).
public protocol KeyValueEngine: AnyObject, Sendable {
    /// The most conditions and the most writes one `commit` may hold (etcd: `--max-txn-ops`).
    var limits: EngineLimits { get }

    /// The entries at `keys` (nil where absent), all read at one revision: `revision`, or the
    /// latest when nil. Also answers the revision read at.
    func read(_ keys: [[UInt8]], at revision: EngineRevision?) throws -> (entries: [EngineEntry?], revision: EngineRevision)

    /// Up to `limit` entries with `lower <= key < upper` (no upper bound when nil), in `direction`,
    /// read at `revision` (the latest when nil); `more` tells whether the range holds more.
    func scan(
        from lower: [UInt8], to upper: [UInt8]?, direction: ScanDirection, limit: Int, at revision: EngineRevision?
    ) throws -> (entries: [EngineEntry], more: Bool, revision: EngineRevision)

    /// Checks every condition and, only when all hold, applies every write, atomically.
    func commit(if conditions: [EngineCondition], then writes: [EngineWrite]) throws -> EngineCommitResult

    /// Calls `onChanges` with each commit's changes to keys starting with `prefix`, committed after
    /// revision `after`, in revision order, until the watch is cancelled. `onFailure` is called
    /// once if the watch ends without being cancelled (for example when `after` was compacted
    /// away), and nothing is called after it.
    func watch(
        prefix: [UInt8], after revision: EngineRevision,
        onChanges: @escaping @Sendable ([EngineChange]) -> Void,
        onFailure: @escaping @Sendable (StoreError) -> Void
    ) throws -> any EngineWatch

    /// The latest revision, linearizable: at least that of every commit acknowledged before the call.
    func latestRevision() throws -> EngineRevision
}

extension KeyValueEngine {
    /// A one-key scan answers at the latest revision (an engine with a cheaper call for it overrides this).
    public func latestRevision() throws -> EngineRevision {
        try scan(from: [0], to: [0, 0], direction: .ascending, limit: 1, at: nil).revision
    }
}

/// A revision of the engine's whole key space: every commit makes a new, larger one.
public typealias EngineRevision = Int64

/// The size bounds of one engine commit.
public struct EngineLimits: Sendable, Equatable {
    /// The most conditions one commit may check.
    public var maxConditions: Int
    /// The most puts and deletes one commit may apply.
    public var maxWrites: Int
    /// The most bytes one commit request may carry (etcd: 1.5 MiB by default).
    public var maxRequestBytes: Int

    public init(maxConditions: Int, maxWrites: Int, maxRequestBytes: Int) {
        self.maxConditions = maxConditions
        self.maxWrites = maxWrites
        self.maxRequestBytes = maxRequestBytes
    }
}

/// One stored key, its value, and the revision of the commit that last wrote it.
public struct EngineEntry: Sendable, Equatable {
    public var key: [UInt8]
    public var value: [UInt8]
    public var modRevision: EngineRevision

    public init(key: [UInt8], value: [UInt8], modRevision: EngineRevision) {
        self.key = key
        self.value = value
        self.modRevision = modRevision
    }
}

/// What a commit checks before it writes.
public enum EngineCondition: Sendable, Equatable {
    /// The key does not exist.
    case absent([UInt8])
    /// The key exists and was last written by the commit at this revision.
    case unchangedSince([UInt8], EngineRevision)
}

/// One write of a commit.
public enum EngineWrite: Sendable, Equatable {
    case put([UInt8], [UInt8])
    case delete([UInt8])
}

/// How a conditional commit ended.
public enum EngineCommitResult: Sendable, Equatable {
    /// Every condition held; the writes are durable (on a majority, for a replicated engine) at this revision.
    case committed(EngineRevision)
    /// A condition did not hold; nothing was written.
    case conditionFailed
}

/// One change seen by a watch: a put (`value` set) or a delete (`value` nil) at `modRevision`.
public struct EngineChange: Sendable, Equatable {
    public var key: [UInt8]
    public var value: [UInt8]?
    public var modRevision: EngineRevision

    public init(key: [UInt8], value: [UInt8]?, modRevision: EngineRevision) {
        self.key = key
        self.value = value
        self.modRevision = modRevision
    }
}

/// A running watch; cancelling it stops its calls.
public protocol EngineWatch: Sendable {
    func cancel()
}
