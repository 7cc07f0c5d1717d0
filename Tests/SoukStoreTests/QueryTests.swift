import Testing
import SoukStore
import SoukStoreFixtures
import SoukTesting

@Suite struct QueryTests {
    let jobs = SampleSchema.jobs

    private func insert(_ store: Store, _ values: [SampleJob]) async throws -> [StoredRecord<SampleJob>] {
        try await store.write { tx in try values.map { try tx.insert(SampleSchema.jobs, $0) } }
    }

    @Test(arguments: StoreEngineKind.allCases) func aTransactionListsPastItsOwnWritesBeforeAndAfterTheRange(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let committed = try await store.write { tx in
                [try tx.insert(SampleSchema.jobs, job("m1")), try tx.insert(SampleSchema.jobs, job("m1"))].map(\.id)
            }
            for direction in [ScanDirection.ascending, .descending] {
                let listed = try await store.write { tx in
                    // Uncommitted entries just below and just above the range, in the same index.
                    try tx.insert(SampleSchema.jobs, job("m0"))
                    try tx.insert(SampleSchema.jobs, job("m2"))
                    return try tx.list(SampleSchema.jobs, SampleSchema.jobsByOwner, IndexRange(prefix: ["m1", "alice"]), direction: direction)
                }
                #expect(Set(listed.map(\.id)) == Set(committed), "\(direction)")
            }
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func pagesWalkAnIndexInBothDirections(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let pending = try await insert(store, (0..<10).map { _ in job(status: .pending) })
            _ = try await insert(store, (0..<4).map { _ in job(status: .done) })
            _ = try await insert(store, (0..<3).map { _ in job("m2", status: .pending) })

            let range = IndexRange(prefix: ["m1", .enumCase(SampleJob.Status.pending)])
            let ascending = try listAll(store, jobs, SampleSchema.jobsByStatus, range, pageSize: 3)
            #expect(ascending.map(\.id) == pending.map(\.id))  // identifiers are time-ordered: oldest first
            let descending = try listAll(store, jobs, SampleSchema.jobsByStatus, range, direction: .descending, pageSize: 4)
            #expect(descending.map(\.id) == pending.reversed().map(\.id))

            let first = try store.list(jobs, SampleSchema.jobsByStatus, range, page: PageRequest(size: 10))
            #expect(first.items.count == 10)
            #expect(first.nextPageToken == nil)  // exactly one full page: no empty page to follow
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func pageSizeIsCappedAt100(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            _ = try await insert(store, (0..<130).map { _ in job() })
            let page = try store.list(jobs, SampleSchema.jobsByOwner, IndexRange(prefix: ["m1", "alice"]), page: PageRequest(size: 1_000))
            #expect(page.items.count == 100)
            #expect(page.nextPageToken != nil)
            #expect(PageRequest(size: 0).size == 20)
        }
    }

    /// The token holds the last key returned, so records added or removed meanwhile shift nothing.
    @Test(arguments: StoreEngineKind.allCases) func tokenStaysStableWhileRecordsComeAndGo(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let range = IndexRange(prefix: ["m1", "alice"])
            let records = try await insert(store, (0..<6).map { _ in job() })
            let page1 = try store.list(jobs, SampleSchema.jobsByOwner, range, page: PageRequest(size: 3))
            #expect(page1.items.map(\.id) == records[0..<3].map(\.id))

            // Remove a record already shown and one not yet shown; add a new one at the end.
            _ = try await store.write { tx in
                try tx.delete(SampleSchema.jobs, records[1].id)
                try tx.delete(SampleSchema.jobs, records[4].id)
            }
            let added = try await insert(store, [job()])
            let page2 = try store.list(jobs, SampleSchema.jobsByOwner, range, page: PageRequest(size: 3, token: page1.nextPageToken))
            #expect(page2.items.map(\.id) == [records[3].id, records[5].id, added[0].id])
            #expect(page2.nextPageToken == nil)
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func rangesNarrowTheFieldsAfterThePrefix(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let records = try await insert(store, (1...9).map { job(loads: Int64($0)) } + [job(loads: -5), job("m2", loads: 4)])
            func loads(_ range: IndexRange, _ direction: ScanDirection = .ascending) throws -> [Int64] {
                try listAll(store, jobs, SampleSchema.jobsByLoads, range, direction: direction, pageSize: 2).map(\.value.loads)
            }
            #expect(try loads(IndexRange.prefix(["m1"], from: [3], before: [6])) == [3, 4, 5])
            #expect(try loads(IndexRange(prefix: ["m1"], lower: RangeBound([3], inclusive: false), upper: RangeBound([6], inclusive: true))) == [4, 5, 6])
            #expect(try loads(IndexRange.prefix(["m1"], before: [1])) == [-5])
            #expect(try loads(IndexRange.prefix(["m1"], from: [8]), .descending) == [9, 8])
            #expect(try loads(IndexRange.prefix(["m1"], from: [6], before: [6])) == [])

            // Creation-time index: a time window.
            let created = records.map(\.createdAt)
            let window = try listAll(store, jobs, SampleSchema.jobsByCreated,
                                     IndexRange.prefix(["m1"], from: [.time(created[0])], before: [.time(created[0].adding(.seconds(60)))]))
            #expect(window.count == 10)
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func foreignOrDamagedTokensAreRefused(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            _ = try await insert(store, (0..<5).map { _ in job() } + (0..<5).map { _ in job(owner: "bob") })
            let alice = IndexRange(prefix: ["m1", "alice"])
            let token = try #require(try store.list(jobs, SampleSchema.jobsByOwner, alice, page: PageRequest(size: 2)).nextPageToken)
            for (index, range, direction, text) in [
                (SampleSchema.jobsByOwner, IndexRange(prefix: ["m1", "bob"]), ScanDirection.ascending, token),  // other prefix
                (SampleSchema.jobsByStatus, IndexRange(prefix: ["m1"]), .ascending, token),                      // other index
                (SampleSchema.jobsByOwner, alice, .descending, token),                                          // other direction
                (SampleSchema.jobsByOwner, alice, .ascending, "%%%"),
                (SampleSchema.jobsByOwner, alice, .ascending, String(token.dropLast(3))),
            ] {
                #expect(throws: StoreError.invalidPageToken) {
                    _ = try store.list(jobs, index, range, direction: direction, page: PageRequest(size: 2, token: text))
                }
            }
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func sparseIndexHoldsOnlyRecordsWithTheField(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let records = try await insert(store, [job(courier: "dan"), job(), job(courier: "dan")])
            let dan = try listAll(store, jobs, SampleSchema.jobsByCourier, IndexRange(prefix: ["m1", "dan"]))
            #expect(dan.map(\.id) == [records[0].id, records[2].id])
            #expect(try listAll(store, jobs, SampleSchema.jobsByCourier, IndexRange(prefix: ["m1"])).count == 2)
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func indexMustBelongToTheTable(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: SampleSchema.schema) { store, _ in
            let foreign = Index<SampleJob>.nonUnique("jobs.not_declared") { [.string($0.owner)] }
            #expect(throws: StoreError.unknownSchemaObject("index jobs.not_declared of table jobs")) {
                _ = try store.list(jobs, foreign)
            }
        }
    }
}
