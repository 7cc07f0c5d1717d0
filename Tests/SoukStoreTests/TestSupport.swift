import Testing
import Foundation
import Synchronization
@_spi(Testing) @testable import SoukStore
import SoukStoreFixtures
import SoukTesting

func job(_ marketplace: String = "m1", dorm: String = "north", owner: String = "alice", status: SampleJob.Status = .pending,
         courier: String? = nil, loads: Int64 = 1) -> SampleJob {
    SampleJob(marketplace: marketplace, dorm: dorm, owner: owner, courier: courier, status: status, loads: loads)
}

/// Reads every page of a list and returns all records.
func listAll<V>(_ store: Store, _ table: Table<V>, _ index: Index<V>, _ range: IndexRange, direction: ScanDirection = .ascending,
                pageSize: Int = 3) throws -> [StoredRecord<V>] {
    var all = [StoredRecord<V>]()
    var token: String? = nil
    repeat {
        let page = try store.list(table, index, range, direction: direction, page: PageRequest(size: pageSize, token: token))
        all += page.items
        token = page.nextPageToken
    } while token != nil
    return all
}

/// A counter shared between tasks.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// The result of an async throwing call.
func outcome<T>(_ body: () async throws -> T) async -> Result<T, Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}

/// A flag shared between tasks.
final class Flag: Sendable {
    private let flag = Atomic(false)
    func set() { flag.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { flag.load(ordering: .sequentiallyConsistent) }
}

/// The engines the store's layers run over: the suites that take it as an argument run over both.
enum StoreEngineKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The embedded RocksDB store (pessimistic locks).
    case rocksDB
    /// `MemoryKeyValueEngine` through the optimistic transactions a replicated engine uses.
    case memory
    /// The same, with reads answered by each store's own copy of the key space (`MirroredKeyValueEngine`).
    case mirrored

    var testDescription: String { rawValue }

    /// Opens stores of this kind; stores it opens share one memory engine (as server nodes share a
    /// cluster) with etcd's default limits unless told otherwise.
    func opener(limits: EngineLimits = MemoryKeyValueEngine.etcdDefaults) -> StoreOpener { StoreOpener(kind: self, limits: limits) }
}

/// Opens (and reopens) stores over one engine of a kind.
struct StoreOpener: Sendable {
    let kind: StoreEngineKind
    let memory: MemoryKeyValueEngine

    init(kind: StoreEngineKind, limits: EngineLimits) {
        self.kind = kind
        memory = MemoryKeyValueEngine(limits: limits)
    }

    func open(_ configuration: StoreConfiguration, schema: Schema) throws -> Store {
        switch kind {
        case .rocksDB: try Store(configuration, schema: schema)
        case .memory: try Store(engine: memory, configuration: configuration, schema: schema)
        case .mirrored:
            try {
                let mirror = MirroredKeyValueEngine(base: memory)
                try mirror.start()
                return try Store(engine: mirror, configuration: configuration, schema: schema)
            }()
        }
    }
}

/// `withTemporaryStore` over the engine `kind`. Over the optimistic engine, collisions cost a run
/// of the block each (no lock to wait on), so a hot key needs more attempts than RocksDB's default;
/// and the suites load their fixtures in one transaction of thousands of writes, so the memory
/// engine takes more per commit than etcd (`OptimisticEngineTests` checks etcd's limits).
func withStore<R>(
    _ kind: StoreEngineKind, schema: Schema, clock: ManualClock? = nil,
    configure: (inout StoreConfiguration) -> Void = { _ in },
    _ body: (Store, TemporaryDirectory) async throws -> R
) async throws -> R {
    switch kind {
    case .rocksDB:
        return try await withTemporaryStore(schema: schema, clock: clock, configure: configure, body)
    case .memory, .mirrored:
        let opener = kind.opener(limits: EngineLimits(maxConditions: 128, maxWrites: 10_000, maxRequestBytes: 64 << 20))
        return try await withTemporaryStore(
            schema: schema, clock: clock,
            configure: { configuration in
                configuration.maxAttempts = 1_000
                configure(&configuration)
            },
            open: opener.open, body)
    }
}
