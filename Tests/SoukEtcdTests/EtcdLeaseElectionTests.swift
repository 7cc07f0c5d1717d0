import Logging
import SoukEtcd
import Synchronization
import Testing

/// The election of the node that runs timers and scheduled jobs, against the real cluster; in the
/// serialized suite, so that no member is killed meanwhile.
extension EtcdEngineTests {
    /// Which candidates are running their work now, and every candidate that ever ran it.
    final class Holders: Sendable {
        let running = Mutex<Set<String>>([])
        let ever = Mutex<[String]>([])
        let overlaps = Atomic<Int>(0)

        func work(_ name: String) async {
            let others = running.withLock { running in
                let others = running.count
                running.insert(name)
                return others
            }
            if others > 0 { overlaps.wrappingAdd(1, ordering: .relaxed) }
            ever.withLock { $0.append(name) }
            // Until cancelled: the election ends the work when the lease is lost or given up.
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(20)) }
            running.withLock { _ = $0.remove(name) }
        }

        var current: Set<String> { running.withLock { $0 } }
    }

    /// Waits (up to `limit`) until `condition` holds.
    func eventually(_ limit: Duration = .seconds(20), _ condition: () -> Bool) async throws {
        let end = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < end else { return }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test func oneCandidateHoldsTheKeyAndAnotherTakesOverWhenItStops() async throws {
        let client = EtcdClient(endpoints: try EtcdTestCluster.endpoints(), callTimeout: .seconds(5))
        let key = "souk-test/election/\(UInt64.random(in: 0...UInt64.max))"
        let holders = Holders()
        var tasks: [String: Task<Void, Never>] = [:]
        for name in ["a", "b", "c"] {
            let election = EtcdLeaseElection(client: client, key: key, candidate: name, ttl: 3, logger: Logger(label: "test.election"))
            tasks[name] = Task { await election.whileElected { await holders.work(name) } }
        }
        try await eventually { holders.current.count == 1 }
        let first = try #require(holders.current.first)
        // The others keep campaigning; for several renewal periods nobody else runs the work.
        try await Task.sleep(for: .seconds(3))
        #expect(holders.current == [first])

        // The holder shuts down: it gives the key up, and one of the others takes over.
        tasks[first]?.cancel()
        await tasks[first]?.value
        try await eventually { holders.current.count == 1 && !holders.current.contains(first) }
        let second = try #require(holders.current.first)
        #expect(second != first)
        #expect(holders.overlaps.load(ordering: .relaxed) == 0)

        for task in tasks.values { task.cancel() }
        for task in tasks.values { await task.value }
        #expect(holders.current.isEmpty)
        await client.close()
    }
}
