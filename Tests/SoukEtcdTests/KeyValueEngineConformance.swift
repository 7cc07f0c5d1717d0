import SoukEtcd
import Foundation
import SoukStore
import Testing

/// The behaviour every `KeyValueEngine` owes the store, as checks over an engine and a key prefix
/// that no other check uses (engines may be shared: every key of a check starts with `prefix`).
/// An engine's suite calls each check with its own factory (see EtcdEngineTests).
///
/// The checks block: run them with `onThread`, off Swift concurrency's cooperative pool.
enum KeyValueEngineConformance {
    static func key(_ prefix: [UInt8], _ name: String) -> [UInt8] { prefix + Array(name.utf8) }

    static func committed(_ result: EngineCommitResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> EngineRevision {
        guard case .committed(let revision) = result else {
            Issue.record("expected the commit to succeed, got \(result)", sourceLocation: sourceLocation)
            throw ConformanceFailure()
        }
        return revision
    }

    struct ConformanceFailure: Error {}

    /// Reads see one revision: the one asked for, or the latest.
    static func readAtRevision(_ engine: any KeyValueEngine, prefix: [UInt8]) throws {
        let k1 = key(prefix, "k1"), k2 = key(prefix, "k2"), k3 = key(prefix, "k3")
        let r1 = try committed(engine.commit(if: [], then: [.put(k1, [1])]))
        let r2 = try committed(engine.commit(if: [], then: [.put(k1, [2]), .put(k2, [3])]))
        #expect(r2 > r1)

        let old = try engine.read([k1, k2, k3], at: r1)
        #expect(old.revision == r1)
        #expect(old.entries == [EngineEntry(key: k1, value: [1], modRevision: r1), nil, nil])

        let latest = try engine.read([k3, k1, k2], at: nil)
        #expect(latest.revision >= r2)
        #expect(latest.entries == [nil, EngineEntry(key: k1, value: [2], modRevision: r2), EngineEntry(key: k2, value: [3], modRevision: r2)])

        let none = try engine.read([], at: nil)
        #expect(none.entries.isEmpty)

        // A delete is seen at its revision, not before.
        let r3 = try committed(engine.commit(if: [], then: [.delete(k1)]))
        #expect(try engine.read([k1], at: r3).entries == [nil])
        #expect(try engine.read([k1], at: r3 - 1).entries == [EngineEntry(key: k1, value: [2], modRevision: r2)])
    }

    /// Scans in both directions, bounded by keys and a limit, with `more`.
    static func scanBothDirections(_ engine: any KeyValueEngine, prefix: [UInt8]) throws {
        let names = ["a", "b", "c", "d", "e"]
        let r1 = try committed(engine.commit(if: [], then: names.map { .put(key(prefix, $0), Array($0.utf8)) }))
        let end = etcdPrefixEnd(prefix)
        func keys(_ entries: [EngineEntry]) -> [String] { entries.map { String(decoding: $0.key.dropFirst(prefix.count), as: UTF8.self) } }

        var page = try engine.scan(from: prefix, to: end, direction: .ascending, limit: 2, at: nil)
        #expect(keys(page.entries) == ["a", "b"])
        #expect(page.more)
        #expect(page.entries.allSatisfy { $0.modRevision == r1 && $0.value == Array($0.key.suffix(1)) })
        page = try engine.scan(from: key(prefix, "c"), to: end, direction: .ascending, limit: 3, at: nil)
        #expect(keys(page.entries) == ["c", "d", "e"])
        #expect(!page.more)
        page = try engine.scan(from: prefix, to: end, direction: .ascending, limit: 10, at: nil)
        #expect(keys(page.entries) == names)
        #expect(!page.more)

        page = try engine.scan(from: prefix, to: end, direction: .descending, limit: 2, at: nil)
        #expect(keys(page.entries) == ["e", "d"])
        #expect(page.more)
        page = try engine.scan(from: prefix, to: key(prefix, "c"), direction: .descending, limit: 2, at: nil)
        #expect(keys(page.entries) == ["b", "a"])
        #expect(!page.more)
        page = try engine.scan(from: key(prefix, "b"), to: key(prefix, "d"), direction: .descending, limit: 1, at: nil)
        #expect(keys(page.entries) == ["c"])
        #expect(page.more)
        page = try engine.scan(from: key(prefix, "b"), to: key(prefix, "d"), direction: .ascending, limit: 5, at: nil)
        #expect(keys(page.entries) == ["b", "c"])
        #expect(!page.more)
        page = try engine.scan(from: key(prefix, "d"), to: key(prefix, "b"), direction: .ascending, limit: 5, at: nil)
        #expect(page.entries.isEmpty)
        #expect(!page.more)

        // At an older revision the scan sees the keys as they were.
        let r2 = try committed(engine.commit(if: [], then: [.delete(key(prefix, "c")), .put(key(prefix, "a"), [9])]))
        page = try engine.scan(from: prefix, to: end, direction: .ascending, limit: 10, at: r1)
        #expect(keys(page.entries) == names)
        #expect(page.revision == r1)
        page = try engine.scan(from: prefix, to: end, direction: .descending, limit: 10, at: nil)
        #expect(keys(page.entries) == ["e", "d", "b", "a"])
        #expect(page.revision >= r2)
        #expect(page.entries.last == EngineEntry(key: key(prefix, "a"), value: [9], modRevision: r2))
    }

    /// A commit applies its writes only when every condition holds; otherwise nothing at all.
    static func conditionalCommit(_ engine: any KeyValueEngine, prefix: [UInt8]) throws {
        let taken = key(prefix, "taken"), free = key(prefix, "free"), side = key(prefix, "side")
        // absent holds
        let r1 = try committed(engine.commit(if: [.absent(taken)], then: [.put(taken, [1])]))
        // absent fails: nothing written, not even the other key
        #expect(try engine.commit(if: [.absent(taken)], then: [.put(taken, [2]), .put(side, [2])]) == .conditionFailed)
        #expect(try engine.read([taken, side], at: nil).entries == [EngineEntry(key: taken, value: [1], modRevision: r1), nil])
        // unchangedSince holds
        let r2 = try committed(engine.commit(if: [.unchangedSince(taken, r1), .absent(free)], then: [.put(taken, [3]), .delete(side)]))
        #expect(r2 > r1)
        // unchangedSince fails on a stale revision, and on a key that does not exist
        #expect(try engine.commit(if: [.unchangedSince(taken, r1)], then: [.put(side, [4])]) == .conditionFailed)
        #expect(try engine.commit(if: [.unchangedSince(free, r1)], then: [.put(side, [4])]) == .conditionFailed)
        // one failing condition among holding ones fails the commit
        #expect(try engine.commit(if: [.absent(free), .unchangedSince(taken, r2), .absent(taken)], then: [.put(side, [5])]) == .conditionFailed)
        #expect(try engine.read([taken, side, free], at: nil).entries == [EngineEntry(key: taken, value: [3], modRevision: r2), nil, nil])
        // a deleted key is absent again
        let r3 = try committed(engine.commit(if: [.unchangedSince(taken, r2)], then: [.delete(taken)]))
        let r4 = try committed(engine.commit(if: [.absent(taken)], then: [.put(taken, [6])]))
        #expect(r4 > r3)
        #expect(try engine.read([taken], at: nil).entries == [EngineEntry(key: taken, value: [6], modRevision: r4)])
    }

    /// A watch sees each later commit's puts and deletes under its prefix, in order, one call per commit.
    static func watchInOrder(_ engine: any KeyValueEngine, prefix: [UInt8]) throws {
        let a = key(prefix, "w/a"), b = key(prefix, "w/b"), outside = key(prefix, "x")
        let r0 = try committed(engine.commit(if: [], then: [.put(a, [0])]))
        let r1 = try committed(engine.commit(if: [], then: [.put(a, [1]), .put(b, [1])]))
        let r2 = try committed(engine.commit(if: [], then: [.put(outside, [1])]))
        let r3 = try committed(engine.commit(if: [], then: [.delete(a)]))
        let r4 = try committed(engine.commit(if: [], then: [.put(b, [2])]))

        let seen = Collected()
        let watch = try engine.watch(
            prefix: key(prefix, "w/"), after: r0, onChanges: { seen.append($0) }, onFailure: { seen.fail($0) })
        defer { watch.cancel() }
        let calls = try seen.wait(for: 3)
        #expect(calls == [
            [EngineChange(key: a, value: [1], modRevision: r1), EngineChange(key: b, value: [1], modRevision: r1)],
            [EngineChange(key: a, value: nil, modRevision: r3)],
            [EngineChange(key: b, value: [2], modRevision: r4)],
        ])
        _ = r2
        // Commits after the watch opened arrive too.
        let r5 = try committed(engine.commit(if: [], then: [.put(a, [5])]))
        let more = try seen.wait(for: 4)
        #expect(more.last == [EngineChange(key: a, value: [5], modRevision: r5)])
    }

    /// N threads increment one counter by read-then-conditional-commit: every successful commit
    /// counts once, and the counter ends at the number of successful commits.
    static func concurrentIncrements(_ engine: any KeyValueEngine, prefix: [UInt8], threads: Int = 6, each: Int = 5) throws {
        let counter = key(prefix, "counter")
        let successes = Counter()
        let failures = Counter()
        try runConcurrently(threads) { _ in
            for _ in 0..<each {
                while true {
                    let read = try engine.read([counter], at: nil)
                    let current = read.entries[0]
                    let value = current.map { decode($0.value) } ?? 0
                    let condition: EngineCondition = current.map { .unchangedSince(counter, $0.modRevision) } ?? .absent(counter)
                    if case .committed = try engine.commit(if: [condition], then: [.put(counter, encode(value + 1))]) {
                        successes.add()
                        break
                    }
                    failures.add()
                }
            }
        }
        let final = try engine.read([counter], at: nil).entries[0].map { decode($0.value) } ?? 0
        #expect(successes.value == threads * each)
        #expect(final == successes.value)
    }

    /// Two takers of one key at once: exactly one wins, round after round.
    static func twoTakersOneWinner(_ engine: any KeyValueEngine, prefix: [UInt8], rounds: Int = 10) throws {
        for round in 0..<rounds {
            let prize = key(prefix, "prize/\(round)")
            let winners = Counter()
            try runConcurrently(2) { taker in
                let read = try engine.read([prize], at: nil)
                guard read.entries[0] == nil else { return }
                if case .committed = try engine.commit(if: [.absent(prize)], then: [.put(prize, [UInt8(taker)])]) {
                    winners.add()
                }
            }
            #expect(winners.value == 1, "round \(round)")
        }
    }

    // MARK: Helpers


    static func encode(_ value: Int) -> [UInt8] { Array(String(value).utf8) }
    static func decode(_ bytes: [UInt8]) -> Int { Int(String(decoding: bytes, as: UTF8.self)) ?? -1 }

    /// Runs `body(i)` on `count` threads started together; rethrows the first error.
    static func runConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let errors = Locked<[any Error]>([])
        for i in 0..<count {
            group.enter()
            let thread = Thread {
                start.wait()
                do { try body(i) } catch { errors.update { $0.append(error) } }
                group.leave()
            }
            thread.start()
        }
        for _ in 0..<count { start.signal() }
        group.wait()
        if let first = errors.value.first { throw first }
    }
}

/// Runs blocking engine calls on a thread of their own, off Swift concurrency's cooperative pool
/// (the engine's calls wait for tasks that need that pool).
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        thread.stackSize = 4 << 20
        thread.start()
    }
}

/// A value shared by threads.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
    private let count = Locked(0)
    func add() { count.update { $0 += 1 } }
    var value: Int { count.value }
}

/// What a watch delivered, waited for by a test thread.
final class Collected: @unchecked Sendable {
    private let condition = NSCondition()
    private var calls: [[EngineChange]] = []
    private var failure: StoreError?

    func append(_ changes: [EngineChange]) {
        condition.withLock {
            calls.append(changes)
            condition.broadcast()
        }
    }

    func fail(_ error: StoreError) {
        condition.withLock {
            failure = error
            condition.broadcast()
        }
    }

    /// The calls once there are at least `count` (a generous deadline guards a hang, not timing).
    func wait(for count: Int, timeout: TimeInterval = 30) throws -> [[EngineChange]] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return try condition.withLock {
            while calls.count < count, failure == nil {
                if !condition.wait(until: deadline) { break }
            }
            if let failure { throw failure }
            guard calls.count >= count else {
                throw StoreError.engine(operation: "test watch", message: "\(calls.count) of \(count) commits seen: \(calls)")
            }
            return calls
        }
    }

    var failed: StoreError? { condition.withLock { failure } }
}
