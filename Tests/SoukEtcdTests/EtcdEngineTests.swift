import Foundation
import SoukEtcd
import SoukMessages
import SoukStore
import Testing

/// The etcd cluster the tests run against: `SOUK_ETCD_ENDPOINTS` (`etcd://host:port,...`), set by
/// scripts/test after `scripts/etcd-cluster start`; `SOUK_ETCD_CLUSTER_DIR` names the cluster's
/// folder for the tests that kill a member.
enum EtcdTestCluster {
    static let url = ProcessInfo.processInfo.environment["SOUK_ETCD_ENDPOINTS"].flatMap { $0.isEmpty ? nil : $0 }
    static let directory = ProcessInfo.processInfo.environment["SOUK_ETCD_CLUSTER_DIR"].flatMap { $0.isEmpty ? nil : $0 }

    static func endpoints() throws -> [EtcdEndpoint] {
        try EtcdEndpoint.parse(storeURL: try #require(url))
    }

    /// A fresh engine on the cluster. A short call deadline: a test against an unreachable
    /// cluster fails in seconds instead of hanging.
    static func engine(endpoints: [EtcdEndpoint]? = nil) throws -> EtcdKeyValueEngine {
        EtcdKeyValueEngine(configuration: .init(endpoints: try endpoints ?? self.endpoints(), callTimeout: .seconds(5)))
    }

    /// A key prefix no other test, nor an earlier run on the same cluster, uses.
    static func prefix(_ name: String) -> [UInt8] {
        Array("souk-test/\(name)/\(UUID().uuidString)/".utf8)
    }

    /// Runs scripts/etcd-cluster with `arguments`; its output. It blocks until the script ends: call
    /// it off the cooperative pool (`onThread`).
    @discardableResult
    static func script(_ arguments: [String]) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/etcd-cluster")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw StoreError.engine(operation: "scripts/etcd-cluster \(arguments.joined(separator: " "))", message: "exit \(process.terminationStatus)")
        }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The KeyValueEngine conformance checks and etcd's own behaviour, against a real 3-member cluster.
/// Serialized: one test kills a member, which the others must not meet mid-commit.
@Suite(
    .serialized,
    .enabled(
        if: EtcdTestCluster.url != nil,
        "SOUK_ETCD_ENDPOINTS is not set: run scripts/test (it starts a cluster), or scripts/etcd-cluster start DIR and export SOUK_ETCD_ENDPOINTS=$(cat DIR/endpoints)"
    )
)
struct EtcdEngineTests {
    // MARK: The cluster

    @Test func everyMemberAnswers() async throws {
        let endpoints = try EtcdTestCluster.endpoints()
        let client = EtcdClient(endpoints: endpoints, callTimeout: .seconds(5))
        let statuses = await client.statusOfEach()
        await client.close()
        for (endpoint, status) in zip(endpoints, statuses) {
            #expect(status != nil, "etcd member \(endpoint) of SOUK_ETCD_ENDPOINTS does not answer Maintenance.Status")
            #expect(status?.version.hasPrefix("3.") == true)
        }
        // One leader, known to every member.
        let leaders = Set(statuses.compactMap { $0?.leader })
        #expect(leaders.count == 1 && leaders.first != 0)
    }

    // MARK: Conformance

    @Test func readAtRevision() async throws {
        let engine = try EtcdTestCluster.engine()
        defer { engine.close() }
        try await onThread { try KeyValueEngineConformance.readAtRevision(engine, prefix: EtcdTestCluster.prefix("read")) }
    }

    @Test func scanBothDirections() async throws {
        let engine = try EtcdTestCluster.engine()
        defer { engine.close() }
        try await onThread { try KeyValueEngineConformance.scanBothDirections(engine, prefix: EtcdTestCluster.prefix("scan")) }
    }

    @Test func conditionalCommit() async throws {
        let engine = try EtcdTestCluster.engine()
        defer { engine.close() }
        try await onThread { try KeyValueEngineConformance.conditionalCommit(engine, prefix: EtcdTestCluster.prefix("commit")) }
    }

    @Test func watchInOrder() async throws {
        let engine = try EtcdTestCluster.engine()
        defer { engine.close() }
        try await onThread { try KeyValueEngineConformance.watchInOrder(engine, prefix: EtcdTestCluster.prefix("watch")) }
    }

    @Test func concurrentIncrements() async throws {
        let engine = try EtcdTestCluster.engine()
        defer { engine.close() }
        try await onThread { try KeyValueEngineConformance.concurrentIncrements(engine, prefix: EtcdTestCluster.prefix("increments")) }
    }

    @Test func twoTakersOneWinner() async throws {
        let engine = try EtcdTestCluster.engine()
        defer { engine.close() }
        try await onThread { try KeyValueEngineConformance.twoTakersOneWinner(engine, prefix: EtcdTestCluster.prefix("takers")) }
    }

    // MARK: etcd specifics

    /// A commit larger than the engine's limits is refused before it is sent; one at the limit commits.
    @Test func commitLimits() async throws {
        let engine = try EtcdTestCluster.engine()
        defer { engine.close() }
        let prefix = EtcdTestCluster.prefix("limits")
        try await onThread {
            let max = engine.limits.maxWrites
            #expect(max == 128)
            let writes = (0..<max).map { EngineWrite.put(prefix + Array("k\($0)".utf8), [1]) }
            #expect(throws: Never.self) { _ = try KeyValueEngineConformance.committed(engine.commit(if: [], then: writes)) }
            #expect(throws: StoreError.self) { try engine.commit(if: [], then: writes + [.put(prefix + [0x7a], [1])]) }
            // Reading more keys than one Txn takes still reads them at one revision.
            let keys = (0..<(max + 10)).map { prefix + Array("k\($0)".utf8) }
            let read = try engine.read(keys, at: nil)
            #expect(read.entries.prefix(max).allSatisfy { $0?.value == [1] })
            #expect(read.entries.suffix(10).allSatisfy { $0 == nil })
        }
    }

    /// One read of as many keys as a Txn takes may answer more than 4 MiB (a gRPC client's usual limit).
    @Test func aReadAnsweringMegabytesIsTaken() async throws {
        let engine = try EtcdTestCluster.engine()
        defer { engine.close() }
        let prefix = EtcdTestCluster.prefix("large")
        try await onThread {
            let value = [UInt8](repeating: 0x61, count: 36 * 1024)
            let keys = (0..<engine.limits.maxConditions).map { prefix + Array(String(format: "k%04d", $0).utf8) }
            // Commits under the members' 1.5 MiB request limit.
            for start in stride(from: 0, to: keys.count, by: 32) {
                let writes = keys[start..<min(keys.count, start + 32)].map { EngineWrite.put($0, value) }
                _ = try KeyValueEngineConformance.committed(engine.commit(if: [], then: Array(writes)))
            }
            let read = try engine.read(keys, at: nil)
            #expect(read.entries.count == keys.count)
            #expect(read.entries.allSatisfy { $0?.value == value })
        }
    }

    /// Two writes of one key in a commit: the last counts (etcd itself refuses duplicate keys in a Txn).
    @Test func lastWriteOfAKeyCounts() async throws {
        let engine = try EtcdTestCluster.engine()
        defer { engine.close() }
        let k = EtcdTestCluster.prefix("dup") + [0x6b]
        try await onThread {
            let r = try KeyValueEngineConformance.committed(engine.commit(if: [], then: [.put(k, [1]), .delete(k), .put(k, [3])]))
            #expect(try engine.read([k], at: nil).entries == [EngineEntry(key: k, value: [3], modRevision: r)])
        }
    }

    /// A watch from a compacted revision ends with a failure naming the compaction.
    @Test func watchFromCompactedRevisionFails() async throws {
        let engine = try EtcdTestCluster.engine()
        defer { engine.close() }
        let prefix = EtcdTestCluster.prefix("compacted")
        try await onThread {
            let r1 = try KeyValueEngineConformance.committed(engine.commit(if: [], then: [.put(prefix + [1], [1])]))
            let r2 = try KeyValueEngineConformance.committed(engine.commit(if: [], then: [.put(prefix + [1], [2])]))
            _ = try blockingCompact(engine.client, revision: r2)
            let seen = Collected()
            let watch = try engine.watch(prefix: prefix, after: r1 - 1, onChanges: { seen.append($0) }, onFailure: { seen.fail($0) })
            defer { watch.cancel() }
            #expect(throws: StoreError.self) { _ = try seen.wait(for: 1) }
            guard case .engine(_, let message) = seen.failed else {
                Issue.record("expected an engine failure, got \(String(describing: seen.failed))")
                return
            }
            #expect(message.contains("compacted"))
        }
    }

    /// Leases: granted, kept alive, revoked (a keep-alive of a revoked lease answers TTL 0).
    @Test func leaseGrantKeepAliveRevoke() async throws {
        let client = EtcdClient(endpoints: try EtcdTestCluster.endpoints(), callTimeout: .seconds(5))
        let grant = try await client.leaseGrant(ttl: 10)
        #expect(grant.id != 0 && grant.ttl == 10)
        let ttl = try await client.leaseKeepAlive(id: grant.id)
        #expect(ttl > 0 && ttl <= 10)
        _ = try await client.leaseRevoke(id: grant.id)
        #expect(try await client.leaseKeepAlive(id: grant.id) == 0)
        await client.close()
    }

    @Test func storeURLs() throws {
        #expect(try EtcdEndpoint.parse(storeURL: "etcd://127.0.0.1:2379,localhost:22379,[::1]:32379") == [
            EtcdEndpoint(host: "127.0.0.1", port: 2379), EtcdEndpoint(host: "localhost", port: 22379), EtcdEndpoint(host: "::1", port: 32379),
        ])
        #expect(try EtcdEndpoint.parse(storeURL: "etcd://a:1/") == [EtcdEndpoint(host: "a", port: 1)])
        for bad in ["rocksdb://x", "etcd://", "etcd://a", "etcd://a:0", "etcd://a:1,,b:2", "etcd://:1", "etcd://a:99999", "etcd://[::1:5"] {
            #expect(throws: EtcdURLError.self, "\(bad)") { try EtcdEndpoint.parse(storeURL: bad) }
        }
        // Settings after `?` give the members' limits to the engine.
        let configured = try EtcdKeyValueEngine.Configuration(storeURL: "etcd://a:1,b:2?max-txn-ops=1024&max-request-bytes=2097152")
        #expect(configured.endpoints == [EtcdEndpoint(host: "a", port: 1), EtcdEndpoint(host: "b", port: 2)])
        #expect(configured.limits == EngineLimits(maxConditions: 1024, maxWrites: 1024, maxRequestBytes: 2_097_152))
        #expect(try EtcdKeyValueEngine.Configuration(storeURL: "etcd://a:1").limits.maxWrites == 128)
        #expect(try EtcdKeyValueEngine.Configuration(storeURL: "etcd://a:1").mirror)
        #expect(try !EtcdKeyValueEngine.Configuration(storeURL: "etcd://a:1?mirror=off").mirror)
        for bad in ["etcd://a:1?max-txn-ops=0", "etcd://a:1?max-txn-ops", "etcd://a:1?colour=red", "etcd://a:1?mirror=maybe"] {
            #expect(throws: EtcdURLError.self, "\(bad)") { try EtcdKeyValueEngine.Configuration(storeURL: bad) }
        }
    }

    // MARK: Failover

    /// A member that cannot be reached is passed over: reads, commits and watches go to the next one.
    @Test func unreachableEndpointIsPassedOver() async throws {
        // A port that was free a moment ago: nothing listens on it.
        let dead = EtcdEndpoint(host: "127.0.0.1", port: FreePort.loopback())
        let engine = try EtcdTestCluster.engine(endpoints: [dead] + EtcdTestCluster.endpoints())
        defer { engine.close() }
        let prefix = EtcdTestCluster.prefix("passover")
        try await onThread {
            let r = try KeyValueEngineConformance.committed(engine.commit(if: [.absent(prefix + [1])], then: [.put(prefix + [1], [1])]))
            #expect(try engine.read([prefix + [1]], at: nil).entries == [EngineEntry(key: prefix + [1], value: [1], modRevision: r)])
            let seen = Collected()
            let watch = try engine.watch(prefix: prefix, after: r - 1, onChanges: { seen.append($0) }, onFailure: { seen.fail($0) })
            defer { watch.cancel() }
            #expect(try seen.wait(for: 1) == [[EngineChange(key: prefix + [1], value: [1], modRevision: r)]])
        }
    }

    /// kill -9 of a member (the one the engine talks to, not the leader): reads, commits and an
    /// open watch go on through the others; the member then restarts and catches up.
    @Test(.enabled(if: EtcdTestCluster.directory != nil, "SOUK_ETCD_CLUSTER_DIR is not set"))
    func killedMemberIsPassedOver() async throws {
        let directory = try #require(EtcdTestCluster.directory)
        let all = try EtcdTestCluster.endpoints()
        let leader = try #require(Int(try await onThread { try EtcdTestCluster.script(["leader", directory]) }))
        let victim = leader == 1 ? 2 : 1
        // The victim first: the engine's calls and its watch start on it.
        let endpoints = [all[victim - 1]] + all.enumerated().filter { $0.offset != victim - 1 }.map(\.element)
        let engine = try EtcdTestCluster.engine(endpoints: endpoints)
        defer { engine.close() }
        let prefix = EtcdTestCluster.prefix("kill")
        let counter = prefix + Array("counter".utf8)
        try await onThread {
            let r0 = try KeyValueEngineConformance.committed(engine.commit(if: [.absent(counter)], then: [.put(counter, [0])]))
            let seen = Collected()
            let watch = try engine.watch(prefix: prefix, after: r0, onChanges: { seen.append($0) }, onFailure: { seen.fail($0) })
            defer { watch.cancel() }
            var revision = r0
            var value: UInt8 = 0
            // Before, during and after the member's death: no commit is lost, the watch sees each once.
            for step in 0..<6 {
                if step == 2 { try EtcdTestCluster.script(["kill", directory, String(victim)]) }
                let read = try engine.read([counter], at: nil)
                #expect(read.entries[0] == EngineEntry(key: counter, value: [value], modRevision: revision))
                value += 1
                revision = try KeyValueEngineConformance.committed(engine.commit(if: [.unchangedSince(counter, revision)], then: [.put(counter, [value])]))
            }
            let calls = try seen.wait(for: 6)
            #expect(calls.map { $0.map(\.value) } == (1...6).map { [[UInt8($0)]] })
            try EtcdTestCluster.script(["restart", directory, String(victim)])
        }
    }
}

/// Compaction through the raw client (the engine itself never compacts: etcd's auto-compaction does).
func blockingCompact(_ client: EtcdClient, revision: Int64) throws -> Bool {
    let done = DispatchSemaphore(value: 0)
    let outcome = Locked<(any Error)?>(nil)
    Task.detached {
        do { _ = try await client.compact(revision: revision) } catch { outcome.update { $0 = error } }
        done.signal()
    }
    done.wait()
    if let error = outcome.value { throw error }
    return true
}

/// A free loopback port, found by binding port 0 and closing the socket.
enum FreePort {
    static func loopback() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
