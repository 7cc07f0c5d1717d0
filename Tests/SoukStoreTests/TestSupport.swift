import Foundation
import Synchronization
@_spi(Testing) @testable import SoukStore
import SoukStoreFixtures

/// A fresh directory under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory: Sendable {
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory() + "souk-store-test-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    func sub(_ name: String) -> String { path + "/" + name }
}

/// A clock that tests move by hand.
final class ManualClock: Sendable {
    private let micros = Mutex<Int64>(1_700_000_000_000_000)

    var now: StoreTime { StoreTime(microsecondsSinceEpoch: micros.withLock { $0 }) }

    func advance(_ duration: Duration) {
        let (seconds, atto) = duration.components
        micros.withLock { $0 += seconds * 1_000_000 + atto / 1_000_000_000_000 }
    }
}

func testConfiguration(_ path: String, clock: ManualClock? = nil) -> StoreConfiguration {
    var configuration = StoreConfiguration(path: path)
    configuration.blockCacheBytes = 8 << 20
    configuration.writeBufferBytes = 1 << 20
    configuration.writerThreads = 16
    configuration.syncPolicy = .none  // tests that need fsync set it; process-crash safety holds either way
    if let clock { configuration.clock = { clock.now } }
    return configuration
}

/// Opens a store on a fresh directory, runs `body`, then closes the store and removes the directory.
func withTemporaryStore<R>(
    schema: Schema = SampleSchema.schema, clock: ManualClock? = nil,
    configure: (inout StoreConfiguration) -> Void = { _ in },
    _ body: (Store, TemporaryDirectory) async throws -> R
) async throws -> R {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    var configuration = testConfiguration(directory.sub("db"), clock: clock)
    configure(&configuration)
    let store = try Store(configuration, schema: schema)
    do {
        let result = try await body(store, directory)
        await store.close()
        return result
    } catch {
        await store.close()
        throw error
    }
}

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
