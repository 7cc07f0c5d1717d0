import Foundation
import SoukDemo
import SoukIdentity
import SoukKit
import SoukStore
import SoukTesting
import Synchronization
import Testing

@testable import SoukServer

/// The demo data over an engine with etcd's default limits (128 conditions and 128 writes per
/// commit, 1.5 MiB per request), as `souk-server --store etcd://... --demo` writes it on a stock
/// cluster: it loads, a second load writes nothing, and a load cut off by a failed commit is
/// completed by the next one without writing anything twice.
@Suite struct DemoLimitsTests {
    @Test func theDemoLoadsWithinEtcdsDefaultLimitsAndASecondLoadWritesNothing() async throws {
        let engine = CutEngine()
        _ = try await loadDemo(over: engine)
        let loaded = try engine.entries()
        #expect(CutEngine.keyCounts(loaded)["Rproducts"] == 10)
        _ = try await loadDemo(over: engine)
        #expect(try engine.entries() == loaded)
    }

    @Test func aDemoLoadCutOffByAFailedCommitIsCompletedByTheNextOne() async throws {
        let whole = CutEngine()
        let commits = try await loadDemo(over: whole)
        let expected = CutEngine.keyCounts(try whole.entries())
        // A cut after every fourth commit of the domains' demo data (inside each of its groups:
        // services, wines, restaurants and menus, listings, places) and before the last one.
        for cut in Set(Array(stride(from: 1, to: commits, by: 4)) + [commits - 1]).sorted() {
            let engine = CutEngine()
            await #expect(throws: StoreError.self) { _ = try await loadDemo(over: engine, cutAfter: cut) }
            _ = try await loadDemo(over: engine)
            #expect(CutEngine.keyCounts(try engine.entries()) == expected, "cut after \(cut) of \(commits) commits")
        }
    }

    /// Opens a store over `engine` with the server's schema, mounts every domain and loads the
    /// demo data as `serve --demo` does; with `cutAfter`, every commit of the domains' demo data
    /// after that many fails (a node that stops mid-load). Returns how many commits the domains'
    /// demo data made.
    private func loadDemo(over engine: CutEngine, cutAfter cut: Int? = nil) async throws -> Int {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var configuration = StoreConfiguration.forTests(directory.path)
        configuration.logger = DomainHarness.quietLogger
        let store = try Store(engine: engine, configuration: configuration, schema: SoukSchema.schema)
        do {
            let (domains, demo) = try await mountEveryDomainWithDemoAccounts(store)
            let before = engine.commits
            engine.cut(after: cut)
            for domain in domains { try await domain.loadDemo(demo) }
            await store.close()
            return engine.commits - before
        } catch {
            engine.cut(after: nil)
            await store.close()
            throw error
        }
    }
}

/// A memory engine with etcd's default limits whose commits can be made to fail after a number
/// of them.
private final class CutEngine: KeyValueEngine {
    let memory = MemoryKeyValueEngine()
    /// Commits left before they fail; nil: no cut.
    private let left = Mutex<Int?>(nil)
    private let committed = Atomic<Int>(0)

    var limits: EngineLimits { memory.limits }
    var commits: Int { committed.load(ordering: .acquiring) }

    func cut(after commits: Int?) { left.withLock { $0 = commits } }

    /// Every entry, in key order.
    func entries() throws -> [EngineEntry] {
        try memory.scan(from: [], to: nil, direction: .ascending, limit: .max, at: nil).entries
    }

    /// How many keys each record table, index and log holds (a key's part before its first 0 byte).
    static func keyCounts(_ entries: [EngineEntry]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for entry in entries { counts[String(decoding: entry.key.prefix { $0 != 0 }, as: UTF8.self), default: 0] += 1 }
        return counts
    }

    func read(_ keys: [[UInt8]], at revision: EngineRevision?) throws -> (entries: [EngineEntry?], revision: EngineRevision) {
        try memory.read(keys, at: revision)
    }

    func scan(
        from lower: [UInt8], to upper: [UInt8]?, direction: ScanDirection, limit: Int, at revision: EngineRevision?
    ) throws -> (entries: [EngineEntry], more: Bool, revision: EngineRevision) {
        try memory.scan(from: lower, to: upper, direction: direction, limit: limit, at: revision)
    }

    func commit(if conditions: [EngineCondition], then writes: [EngineWrite]) throws -> EngineCommitResult {
        try left.withLock { left in
            guard let commits = left else { return }
            guard commits > 0 else { throw StoreError.engine(operation: "commit", message: "cut off") }
            left = commits - 1
        }
        let result = try memory.commit(if: conditions, then: writes)
        if case .committed = result { committed.add(1, ordering: .acquiringAndReleasing) }
        return result
    }

    func watch(
        prefix: [UInt8], after revision: EngineRevision,
        onChanges: @escaping @Sendable ([EngineChange]) -> Void,
        onFailure: @escaping @Sendable (StoreError) -> Void
    ) throws -> any EngineWatch {
        try memory.watch(prefix: prefix, after: revision, onChanges: onChanges, onFailure: onFailure)
    }
}
