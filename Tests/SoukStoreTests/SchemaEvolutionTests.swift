import Testing
import SoukStore
import SoukStoreFixtures
import SoukTesting

@Suite struct SchemaEvolutionTests {
    static let byNote = Index<SampleJob>.nonUnique("jobs.marketplace_note") { [.string($0.marketplace), .string($0.note)] }
    static let uniqueNote = Index<SampleJob>.unique("jobs.unique_note") { [.string($0.note)] }
    static let plainJobs = Table("jobs", codec: SampleJobCodec(), indexes: [SampleSchema.jobsByOwner])
    static let jobsWithNote = Table("jobs", codec: SampleJobCodec(), indexes: [SampleSchema.jobsByOwner, byNote])

    /// A table outside the schema has no owner that mounted it: writing to it fails and
    /// leaves nothing, while the schema's tables are written as usual.
    @Test(arguments: StoreEngineKind.allCases) func aWriteToATableOutsideTheSchemaFails(engine: StoreEngineKind) async throws {
        let stray = Table("stray_jobs", codec: SampleJobCodec())
        try await withStore(engine, schema: Schema(Self.plainJobs)) { store, _ in
            let job = SampleJob(marketplace: "m", dorm: "d", owner: "o", note: "n")
            await #expect(throws: StoreError.unknownSchemaObject("table stray_jobs is not in the store's schema")) {
                _ = try await store.write { try $0.insert(stray, job) }
            }
            let kept = try await store.write { transaction in try transaction.insert(Self.plainJobs, job) }
            #expect(try store.get(Self.plainJobs, kept.id) != nil)
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func newIndexIsBuiltOnlineFromExistingRecords(engine: StoreEngineKind) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let configuration = StoreConfiguration.forTests(directory.path)
        let opener = engine.opener()

        let before = try opener.open(configuration, schema: Schema(Self.plainJobs))
        for n in 0..<1_234 {
            _ = try await before.write { try $0.insert(Self.plainJobs, SampleJob(marketplace: "m", dorm: "d", owner: "o", note: "n\(n % 10)")) }
        }
        await before.close()

        let store = try opener.open(configuration, schema: Schema(Self.jobsWithNote))
        #expect(store.pendingIndexes == ["jobs.marketplace_note"])
        #expect(throws: StoreError.indexNotReady("jobs.marketplace_note")) {
            _ = try store.list(Self.jobsWithNote, Self.byNote, IndexRange(prefix: ["m", "n3"]))
        }
        // Writes made while the index is pending maintain it already.
        let during = try await store.write { try $0.insert(Self.jobsWithNote, SampleJob(marketplace: "m", dorm: "d", owner: "o", note: "n3")) }
        #expect(try await store.buildIndex("jobs.marketplace_note", batchSize: 100) == 1_235)
        #expect(store.pendingIndexes.isEmpty)
        let n3 = try listAll(store, Self.jobsWithNote, Self.byNote, IndexRange(prefix: ["m", "n3"]), pageSize: 100)
        #expect(n3.count == 125)
        #expect(n3.last?.id == during.id)
        let report = try await store.verify()
        #expect(report.isConsistent)
        #expect(report.skippedIndexes.isEmpty)
        await store.close()

        // Once built, it stays built.
        let reopened = try opener.open(configuration, schema: Schema(Self.jobsWithNote))
        #expect(reopened.pendingIndexes.isEmpty)
        await reopened.close()
    }

    /// A retired index's entries and state are deleted at the next open: records deleted while
    /// it was retired leave no entry behind, and declared again it is new (built from scratch).
    @Test(arguments: StoreEngineKind.allCases) func aRetiredIndexIsDeletedWhenTheStoreOpens(engine: StoreEngineKind) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let configuration = StoreConfiguration.forTests(directory.path)
        let opener = engine.opener()
        let indexed = try opener.open(configuration, schema: Schema(Self.jobsWithNote))
        var ids = [RecordID]()
        for n in 0..<30 {
            ids.append(try await indexed.write {
                try $0.insert(Self.jobsWithNote, SampleJob(marketplace: "m", dorm: "d", owner: "o", note: "n\(n % 3)"))
            }.id)
        }
        await indexed.close()

        let retiring = Self.plainJobs.retiring("jobs.marketplace_note")
        let retired = try opener.open(configuration, schema: Schema(retiring))
        #expect(retired.isIndexReady("jobs.marketplace_note") == nil)
        // Nothing maintains the retired index now: these deletions would leave its entries stale.
        for id in ids.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element) {
            _ = try await retired.write { try $0.delete(retiring, id) }
        }
        await retired.close()

        let again = try opener.open(configuration, schema: Schema(Self.jobsWithNote))
        #expect(again.pendingIndexes == ["jobs.marketplace_note"])
        #expect(try await again.buildIndex("jobs.marketplace_note") == 20)
        #expect(try listAll(again, Self.jobsWithNote, Self.byNote, IndexRange(prefix: ["m", "n0"]), pageSize: 100).isEmpty)
        #expect(try listAll(again, Self.jobsWithNote, Self.byNote, IndexRange(prefix: ["m", "n1"]), pageSize: 100).count == 10)
        #expect(try await again.verify().isConsistent)
        await again.close()

        #expect(throws: StoreError.invalidSchema("index jobs.marketplace_note is both declared and retired")) {
            _ = try opener.open(configuration, schema: Schema(Self.jobsWithNote.retiring("jobs.marketplace_note")))
        }
    }

    @Test(arguments: StoreEngineKind.allCases) func uniqueIndexOverDuplicatesFailsToBuild(engine: StoreEngineKind) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let configuration = StoreConfiguration.forTests(directory.path)
        let opener = engine.opener()
        let before = try opener.open(configuration, schema: Schema(Self.plainJobs))
        for _ in 0..<2 {
            _ = try await before.write { try $0.insert(Self.plainJobs, SampleJob(marketplace: "m", dorm: "d", owner: "o", note: "same")) }
        }
        await before.close()

        let table = Table("jobs", codec: SampleJobCodec(), indexes: [Self.uniqueNote])
        let store = try opener.open(configuration, schema: Schema(table))
        await #expect(throws: StoreError.self) { try await store.buildIndex("jobs.unique_note") }
        #expect(store.pendingIndexes == ["jobs.unique_note"])
        await store.close()
    }

    @Test(arguments: StoreEngineKind.allCases) func indexOnAnEmptyTableIsReadyAtOnce(engine: StoreEngineKind) async throws {
        try await withStore(engine, schema: Schema(Self.jobsWithNote)) { store, _ in
            #expect(store.pendingIndexes.isEmpty)
        }
    }
}
