import Testing
import SoukStore
import SoukStoreFixtures
import SoukTesting

@Suite struct CompactionTests {
    /// Writes flushed in three rounds (later rounds updating and deleting records of earlier ones)
    /// leave several level-0 files; compacting merges them away and every query answers as before.
    @Test func compactionMergesLevelZeroAndKeepsAnswers() async throws {
        // Three level-0 files must stay until `compact()`: no automatic compaction before then.
        try await withTemporaryStore(schema: SampleSchema.schema, configure: { $0.levelZeroCompactionTrigger = 8 }) { store, _ in
            var accountIDs = [RecordID]()
            for (round, tag) in ["a", "b", "c"].enumerated() {
                accountIDs += try await BackupTests.populate(store, count: 60, tag: tag)
                if round > 0 {
                    // Shadow and delete records that already sit in an earlier level-0 file.
                    let renamed = accountIDs[round * 10..<round * 10 + 5]
                    let deleted = accountIDs[round * 10 + 5]
                    try await store.write { tx in
                        for id in renamed { try tx.update(SampleSchema.accounts, id) { $0.name = "renamed in \(tag)" } }
                        try tx.delete(SampleSchema.accounts, deleted)
                    }
                }
                try await store.flush()
            }
            let before = try store.statistics()
            #expect(before.levelZeroFiles >= 2, "\(before)")
            let answers = try BackupTests.answers(store, accountIDs: accountIDs)

            try await store.compact()

            let after = try store.statistics()
            #expect(after.levelZeroFiles == 0, "\(after)")
            #expect(try BackupTests.answers(store, accountIDs: accountIDs) == answers)
            #expect(answers.accounts.compactMap { $0 }.count == accountIDs.count - 2)
            #expect(answers.accounts[10]?.value.name == "renamed in b")
            let report = try await store.verify()
            #expect(report.isConsistent, "\(report)")
        }
    }

    @Test func compactingAnEmptyStoreSucceeds() async throws {
        try await withTemporaryStore(schema: SampleSchema.schema) { store, _ in
            try await store.compact()
            #expect(try store.statistics().levelZeroFiles == 0)
            #expect(try await store.verify().isConsistent)
        }
    }

    @Test func compactingAClosedStoreFails() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store(StoreConfiguration.forTests(directory.sub("db")), schema: SampleSchema.schema)
        await store.close()
        await #expect(throws: StoreError.closed) { try await store.compact() }
    }
}
