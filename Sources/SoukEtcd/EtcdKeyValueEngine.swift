import Dispatch
import SoukMessages
import SoukStore
import Synchronization

/// The store's `KeyValueEngine` on an etcd v3 cluster: reads and scans are linearizable Range
/// calls, a commit is one Txn (compares, then puts and deletes), a watch is etcd's Watch.
///
/// Its calls block the calling thread until the gRPC client's event loop wakes it with the answer
/// (`EtcdClient.txnBlocking`, no task in between): call it from the store's writer threads or a
/// caller's own thread, never from an event loop (it would wait for itself) or from inside Swift
/// concurrency's small cooperative pool.
///
/// A commit that failed after it may have reached etcd is reported as `StoreError.engine` and
/// not re-sent (see SoukEtcd's module doc): the store's retry reads again, so a conditional
/// commit that did run makes its condition fail on the next attempt instead of applying twice.
public final class EtcdKeyValueEngine: KeyValueEngine {
    /// How the engine reaches etcd and the bounds its members enforce.
    public struct Configuration: Sendable {
        public var endpoints: [EtcdEndpoint]
        /// The bounds of one commit: `--max-txn-ops` (default 128) for conditions and writes,
        /// `--max-request-bytes` (default 1.5 MiB) for its size. Keep them equal to the members' flags.
        public var limits: EngineLimits
        /// The deadline of each call to one member.
        public var callTimeout: Duration
        /// Whether a node answers reads from its own copy of the key space (`MirroredKeyValueEngine`,
        /// one round trip per transaction instead of one per read) or asks the members each time.
        public var mirror = true

        public init(
            endpoints: [EtcdEndpoint],
            limits: EngineLimits = EngineLimits(maxConditions: 128, maxWrites: 128, maxRequestBytes: 1_572_864),
            callTimeout: Duration = .seconds(5)
        ) {
            self.endpoints = endpoints
            self.limits = limits
            self.callTimeout = callTimeout
        }

        /// The configuration of a store URL, `etcd://host:port,host:port,...`, with etcd's default
        /// limits unless the URL gives the members' own: `?max-txn-ops=1024&max-request-bytes=N`;
        /// `mirror=off` reads from the members instead of the node's copy.
        public init(storeURL: String) throws(EtcdURLError) {
            self.init(endpoints: try EtcdEndpoint.parse(storeURL: storeURL))
            for (name, value) in try EtcdEndpoint.settings(storeURL: storeURL) {
                if name == "mirror" {
                    guard value == "on" || value == "off" else { throw EtcdURLError("\(storeURL): mirror must be on or off") }
                    mirror = value == "on"
                    continue
                }
                guard let number = Int(value), number > 0 else { throw EtcdURLError("\(storeURL): \(name) must be a positive number") }
                switch name {
                case "max-txn-ops":
                    limits.maxConditions = number
                    limits.maxWrites = number
                case "max-request-bytes":
                    limits.maxRequestBytes = number
                default:
                    throw EtcdURLError("\(storeURL): unknown setting \(name) (max-txn-ops, max-request-bytes, mirror)")
                }
            }
        }
    }

    public let limits: EngineLimits
    /// The async client underneath (for leases and status).
    public let client: EtcdClient

    public init(configuration: Configuration) {
        limits = configuration.limits
        client = EtcdClient(endpoints: configuration.endpoints, callTimeout: configuration.callTimeout)
    }

    /// Closes the client's connections.
    public func close() {
        let client = self.client
        _ = try? blocking { await client.close() }
    }

    // MARK: KeyValueEngine

    public func read(_ keys: [[UInt8]], at revision: EngineRevision?) throws -> (entries: [EngineEntry?], revision: EngineRevision) {
        let client = self.client
        // One Txn of Range operations reads its keys at one revision; more keys than one Txn takes
        // are read by further Txns at the first one's revision.
        let chunk = max(1, limits.maxWrites)
        var entries: [EngineEntry?] = []
        entries.reserveCapacity(keys.count)
        var at = revision
        var answered: EngineRevision = revision ?? 0
        var start = 0
        repeat {
            let slice = Array(keys[start..<min(keys.count, start + chunk)])
            let pinned = at
            let response = try Self.pinnedRead(pinned) { serializable in
                let request = Etcdserverpb.TxnRequest(
                    success: slice.map {
                        Etcdserverpb.RequestOp(request: .requestRange(
                            Etcdserverpb.RangeRequest(key: $0, revision: pinned ?? 0, serializable: serializable)))
                    })
                return try client.txnBlocking(request)
            }
            let headerRevision = response.header?.revision ?? 0
            if at == nil {
                at = headerRevision
                answered = headerRevision
            }
            for (index, key) in slice.enumerated() {
                guard index < response.responses.count, case .responseRange(let range) = response.responses[index].response else {
                    throw StoreError.engine(operation: "etcd read", message: "the Txn answered \(response.responses.count) of \(slice.count) ranges")
                }
                entries.append(range.kvs.first(where: { $0.key == key }).map { EngineEntry(key: $0.key, value: $0.value, modRevision: $0.modRevision) })
            }
            start += chunk
        } while start < keys.count
        return (entries, answered)
    }

    public func scan(
        from lower: [UInt8], to upper: [UInt8]?, direction: ScanDirection, limit: Int, at revision: EngineRevision?
    ) throws -> (entries: [EngineEntry], more: Bool, revision: EngineRevision) {
        let client = self.client
        // etcd has no empty key: the range from the first key starts at [0]; [0] as the end is
        // "to the end of the key space".
        let key = lower.isEmpty ? [0] : lower
        let end = upper ?? [0]
        if let upper, !upper.isEmpty, upper == key || upper.lexicographicallyPrecedes(key) {
            let answered = try revision ?? latestRevision()
            return ([], false, answered)
        }
        var request = Etcdserverpb.RangeRequest(key: key, rangeEnd: end, revision: revision ?? 0)
        if limit <= 0 {
            request.countOnly = true
        } else {
            request.limit = Int64(limit)
        }
        // Keys come in ascending order without sorting; DESCEND makes etcd 3.4 read the whole
        // range before it applies the limit (TiKV scans backwards natively).
        if direction == .descending {
            request.sortOrder = .descend
            request.sortTarget = .key
        }
        let response = try Self.pinnedRead(revision) { serializable in
            var pinned = request
            pinned.serializable = serializable
            let sent = pinned
            return try client.rangeBlocking(sent)
        }
        let answered = revision ?? response.header?.revision ?? 0
        if limit <= 0 { return ([], response.count > 0, answered) }
        let entries = response.kvs.map { EngineEntry(key: $0.key, value: $0.value, modRevision: $0.modRevision) }
        return (entries, response.more, answered)
    }

    public func commit(if conditions: [EngineCondition], then writes: [EngineWrite]) throws -> EngineCommitResult {
        let client = self.client
        guard conditions.count <= limits.maxConditions, writes.count <= limits.maxWrites else {
            throw StoreError.engine(
                operation: "etcd commit",
                message: "\(conditions.count) conditions and \(writes.count) writes exceed the limits (\(limits.maxConditions), \(limits.maxWrites))")
        }
        let compare = conditions.map { condition -> Etcdserverpb.Compare in
            switch condition {
            case .absent(let key):
                // A key that does not exist has create_revision 0.
                Etcdserverpb.Compare(result: .equal, target: .create, key: key, targetUnion: .createRevision(0))
            case .unchangedSince(let key, let revision):
                // An absent key has mod_revision 0, which no commit has: the condition also says it exists.
                Etcdserverpb.Compare(result: .equal, target: .mod, key: key, targetUnion: .modRevision(revision))
            }
        }
        // etcd refuses a Txn that writes one key twice; the last write of a key is the one that counts.
        var last: [ByteKey: Int] = [:]
        for (index, write) in writes.enumerated() {
            switch write {
            case .put(let key, _), .delete(let key): last[ByteKey(key)] = index
            }
        }
        var success: [Etcdserverpb.RequestOp] = []
        success.reserveCapacity(last.count)
        for (index, write) in writes.enumerated() {
            switch write {
            case .put(let key, let value) where last[ByteKey(key)] == index:
                success.append(Etcdserverpb.RequestOp(request: .requestPut(Etcdserverpb.PutRequest(key: key, value: value))))
            case .delete(let key) where last[ByteKey(key)] == index:
                success.append(Etcdserverpb.RequestOp(request: .requestDeleteRange(Etcdserverpb.DeleteRangeRequest(key: key))))
            default:
                continue
            }
        }
        let request = Etcdserverpb.TxnRequest(compare: compare, success: success)
        let response = try client.txnBlocking(request)
        guard response.succeeded else { return .conditionFailed }
        return .committed(response.header?.revision ?? 0)
    }

    public func watch(
        prefix: [UInt8], after revision: EngineRevision,
        onChanges: @escaping @Sendable ([EngineChange]) -> Void,
        onFailure: @escaping @Sendable (StoreError) -> Void
    ) throws -> any EngineWatch {
        let key = prefix.isEmpty ? [0] : prefix
        let watch = client.watch(
            key: key, rangeEnd: etcdPrefixEnd(prefix), startRevision: revision + 1,
            onEvents: { events in
                onChanges(
                    events.compactMap { event in
                        guard let kv = event.kv else { return nil }
                        return EngineChange(key: kv.key, value: event.type == .delete ? nil : kv.value, modRevision: kv.modRevision)
                    })
            },
            onFailure: onFailure)
        return EtcdEngineWatch(watch: watch)
    }

    /// Runs a read: at a given revision, member-local (serializable: no ReadIndex round through
    /// the leader, which a linearizable read costs), since the state at a revision never changes
    /// and the member that answered the revision has applied it; without one, or when the member
    /// has not yet applied that revision (after a move to another member), linearizable.
    static func pinnedRead<T>(_ revision: EngineRevision?, _ read: (_ serializable: Bool) throws -> T) throws -> T {
        guard revision != nil else { return try read(false) }
        do {
            return try read(true)
        } catch StoreError.engine(_, let message) where message.contains("future revision") {
            return try read(false)
        }
    }

    /// The cluster's current revision.
    public func latestRevision() throws -> EngineRevision {
        let client = self.client
        let response = try client.rangeBlocking(Etcdserverpb.RangeRequest(key: [0], countOnly: true))
        return response.header?.revision ?? 0
    }
}

/// An etcd watch as the engine's `EngineWatch`.
struct EtcdEngineWatch: EngineWatch {
    let watch: EtcdWatch

    func cancel() {
        watch.cancel()
    }
}

/// Runs `operation` on a detached task and blocks the calling thread until it ends.
///
/// The task runs on `EngineCallExecutor`, not on Swift concurrency's cooperative pool: the
/// blocked caller may itself be one of that pool's few threads (a stream's task reading the
/// store), and tasks waiting for a pool thread that every blocked caller holds would never run.
func blocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached(executorPreference: EngineCallExecutor.shared) {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
        box.result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try box.result.withLock { $0! }.get()
}

/// Where `blocking` operations run: threads of a concurrent dispatch queue, apart from the
/// cooperative pool.
final class EngineCallExecutor: TaskExecutor {
    static let shared = EngineCallExecutor()
    private let queue = DispatchQueue(label: "souk.etcd.calls", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// The outcome of a `blocking` operation, handed from its task to the waiting thread.
private final class ResultBox<T: Sendable>: Sendable {
    let result = Mutex<Result<T, any Error>?>(nil)
}
