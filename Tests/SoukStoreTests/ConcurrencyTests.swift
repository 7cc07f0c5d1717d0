import Testing
import SoukStore
import SoukStoreFixtures
import SoukTesting

@Suite struct ConcurrencyTests {
    /// Many tasks save the same version: exactly one wins, every other gets the version conflict.
    @Test(arguments: StoreEngineKind.allCases) func exactlyOneUpdatePerVersionWins(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            var current = try await store.write { try $0.insert(SampleSchema.jobs, job(loads: 0)) }
            for round in 1...5 {
                let read = current
                let outcomes = await withTaskGroup(of: Result<StoredRecord<SampleJob>, Error>.self) { group in
                    for writer in 0..<24 {
                        group.addTask {
                            var attempt = read
                            attempt.value.loads = Int64(writer)
                            let changed = attempt
                            return await outcome { try await store.write { try $0.save(SampleSchema.jobs, changed) } }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                let winners = outcomes.compactMap { try? $0.get() }
                #expect(winners.count == 1)
                for case .failure(let error) in outcomes {
                    #expect(error as? StoreError == .versionMismatch(table: "jobs", id: read.id, expected: read.version, actual: read.version + 1))
                }
                current = try #require(try store.get(SampleSchema.jobs, read.id))
                #expect(current.version == UInt64(round + 1))
                #expect(current == winners.first)
            }
        }
    }

    /// Read-modify-write without a version: the record lock makes every increment count.
    @Test(arguments: StoreEngineKind.allCases) func lockedReadModifyWriteLosesNoUpdate(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let record = try await store.write { try $0.insert(SampleSchema.jobs, job(loads: 0)) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<32 {
                    group.addTask {
                        for _ in 0..<5 { _ = try await store.write { try $0.update(SampleSchema.jobs, record.id) { $0.loads += 1 } } }
                    }
                }
                try await group.waitForAll()
            }
            let final = try #require(try store.get(SampleSchema.jobs, record.id))
            #expect(final.value.loads == 160)
            #expect(final.version == 161)
        }
    }

    private static let queue = IndexRange(prefix: ["m1", "north", .enumCase(SampleJob.Status.pending)])

    /// A pop: the oldest pending job of the dorm, moved to "accepted" in the same transaction.
    private static func pop(_ store: Store, courier: String) async throws -> RecordID? {
        try await store.write { tx in
            guard let next = try tx.first(SampleSchema.jobs, SampleSchema.jobsByDormStatus, queue) else { return nil }
            try tx.update(SampleSchema.jobs, next.id) { $0.status = .accepted; $0.courier = courier }
            return next.id
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func popsAreFirstInFirstOut(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            var ids = [RecordID]()
            for n in 0..<8 {
                ids.append(try await store.write { try $0.insert(SampleSchema.jobs, job(dorm: n % 3 == 0 ? "south" : "north")) }.id)
            }
            var popped = [RecordID]()
            while let id = try await Self.pop(store, courier: "c") { popped.append(id) }
            #expect(popped == ids.enumerated().filter { $0.offset % 3 != 0 }.map(\.element))
        }
    }

    /// Many couriers pop from one dorm queue while jobs keep arriving: no job is handed out
    /// twice, none is lost.
    @Test(arguments: StoreEngineKind.allCases) func concurrentPopsHandOutEachJobOnce(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            var created = Set<RecordID>()
            for _ in 0..<150 { created.insert(try await store.write { try $0.insert(SampleSchema.jobs, job()) }.id) }
            let producerDone = Flag()
            async let produced: Set<RecordID> = {
                var ids = Set<RecordID>()
                for _ in 0..<100 { ids.insert(try await store.write { try $0.insert(SampleSchema.jobs, job()) }.id) }
                producerDone.set()
                return ids
            }()
            let handedOut = try await withThrowingTaskGroup(of: [RecordID].self) { group in
                for courier in 0..<16 {
                    group.addTask {
                        var mine = [RecordID]()
                        while true {
                            if let id = try await Self.pop(store, courier: "c\(courier)") {
                                mine.append(id)
                            } else if producerDone.isSet {
                                // The producer had finished when this check ran: one more empty pop means the queue is drained.
                                guard let id = try await Self.pop(store, courier: "c\(courier)") else { return mine }
                                mine.append(id)
                            } else {
                                await Task.yield()
                            }
                        }
                    }
                }
                return try await group.reduce(into: [RecordID]()) { $0 += $1 }
            }
            created.formUnion(try await produced)
            #expect(handedOut.count == Set(handedOut).count, "a job was handed out twice")
            #expect(Set(handedOut) == created, "a job was lost")
            let accepted = try listAll(store, SampleSchema.jobs, SampleSchema.jobsByStatus,
                                       IndexRange(prefix: ["m1", .enumCase(SampleJob.Status.accepted)]), pageSize: 100)
            #expect(accepted.count == 250)
            #expect(try await store.verify().isConsistent)
        }
    }
}
