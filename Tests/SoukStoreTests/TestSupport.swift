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
