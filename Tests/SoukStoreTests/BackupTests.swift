import Foundation
import Testing
import SoukStore
import SoukStoreFixtures
import SoukTesting

@Suite struct BackupTests {
    /// Everything the tests ask the store, as comparable values.
    struct Answers: Equatable {
        var pages: [[StoredRecord<SampleJob>]]
        var accounts: [StoredRecord<SampleAccount>?]
        var events: [StoredEvent]
    }

    static func answers(_ store: Store, accountIDs: [RecordID]) throws -> Answers {
        var pages = [[StoredRecord<SampleJob>]]()
        for index in SampleSchema.jobs.indexes {
            for direction in [ScanDirection.ascending, .descending] {
                pages.append(try listAll(store, SampleSchema.jobs, index, IndexRange(prefix: ["m1"]), direction: direction, pageSize: 50))
            }
        }
        return Answers(
            pages: pages,
            accounts: try store.get(SampleSchema.accounts, ids: accountIDs),
            events: try store.events(in: "feed", after: 0, limit: 1_000))
    }

    static func populate(_ store: Store, count: Int, tag: String) async throws -> [RecordID] {
        var accountIDs = [RecordID]()
        for n in 0..<count {
            accountIDs.append(try await store.write { tx in
                try tx.insert(SampleSchema.jobs, SampleJob(
                    marketplace: "m1", dorm: "d\(n % 4)", owner: "o\(n % 9)", courier: n % 3 == 0 ? "c\(n % 5)" : nil,
                    status: SampleJob.Status.allCases[n % 4], loads: Int64(n % 11), note: String(repeating: tag, count: 150)))
                try tx.appendEvent(to: "feed", Array("\(tag)\(n)".utf8))
                return try tx.insert(SampleSchema.accounts, SampleAccount(marketplace: "m1", email: "\(tag)\(n)@x.io", name: tag)).id
            })
        }
        return accountIDs
    }

    /// Every file below `path` (relative name) with its size.
    static func fileSizes(_ path: String) -> [String: Int] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var sizes: [String: Int] = [:]
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            sizes[name] = (try? FileManager.default.attributesOfItem(atPath: path + "/" + name)[.size] as? Int) ?? 0
        }
        return sizes
    }

    @Test func backupWipeRestoreAnswersAsBefore() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let dataPath = directory.sub("db")
        let backupPath = directory.sub("backups/daily")
        let configuration = StoreConfiguration.forTests(dataPath)

        let store = try Store(configuration, schema: SampleSchema.schema)
        var accountIDs = try await Self.populate(store, count: 400, tag: "a")
        let first = try await store.backup(to: backupPath)
        let answersAtFirst = try Self.answers(store, accountIDs: accountIDs)
        let filesAfterFirst = Self.fileSizes(backupPath)

        accountIDs += try await Self.populate(store, count: 10, tag: "b")
        let firstAccount = accountIDs[0]
        _ = try await store.write { try $0.delete(SampleSchema.accounts, firstAccount) }
        let second = try await store.backup(to: backupPath)
        let answersAtSecond = try Self.answers(store, accountIDs: accountIDs)
        await store.close()

        #expect(second.id > first.id)
        #expect(try StoreBackups.list(in: backupPath).map(\.id) == [first.id, second.id])
        // Incremental: the second backup kept every data file of the first as it was and only
        // added files (how many depends on the flushes and compactions in between, not on this).
        let filesAfterSecond = Self.fileSizes(backupPath)
        let sharedAtFirst = filesAfterFirst.filter { $0.key.hasPrefix("shared") }
        #expect(!sharedAtFirst.isEmpty)
        for (name, size) in sharedAtFirst {
            #expect(filesAfterSecond[name] == size, "the second backup rewrote \(name)")
        }
        try StoreBackups.verify(in: backupPath, backupID: second.id)

        // Wipe, restore the newest, compare.
        try FileManager.default.removeItem(atPath: dataPath)
        try StoreBackups.restore(from: backupPath, to: dataPath)
        let restored = try Store(configuration, schema: SampleSchema.schema)
        #expect(try Self.answers(restored, accountIDs: accountIDs) == answersAtSecond)
        #expect(try await restored.verify().isConsistent)
        // The restored store takes new writes, with event numbering continuing.
        #expect(try await restored.write { try $0.appendEvent(to: "feed", [1]) } == 411)
        await restored.close()

        // Restoring an older backup over the current database gives the older answers.
        try StoreBackups.restore(from: backupPath, backupID: first.id, to: dataPath, replacingDatabase: true)
        let older = try Store(configuration, schema: SampleSchema.schema)
        #expect(try Self.answers(older, accountIDs: Array(accountIDs.prefix(400))) == answersAtFirst)
        await older.close()

        try StoreBackups.purge(in: backupPath, keepLast: 1)
        #expect(try StoreBackups.list(in: backupPath).map(\.id) == [second.id])
    }

    @Test func backupWhileWritersRun() async throws {
        try await withTemporaryStore(schema: SampleSchema.schema) { store, directory in
            let writers = Task {
                for n in 0..<300 { _ = try await store.write { try $0.insert(SampleSchema.jobs, job(loads: Int64(n))) } }
            }
            var backups = [BackupInfo]()
            for _ in 0..<3 { backups.append(try await store.backup(to: directory.sub("backups"), keepLast: 2)) }
            try await writers.value
            #expect(try StoreBackups.list(in: directory.sub("backups")).map(\.id) == backups.suffix(2).map(\.id))

            let copy = directory.sub("copy")
            try StoreBackups.restore(from: directory.sub("backups"), to: copy)
            let restored = try Store(StoreConfiguration.forTests(copy), schema: SampleSchema.schema)
            #expect(try await restored.verify().isConsistent)
            await restored.close()
        }
    }

    @Test func listingAMissingDirectoryIsEmpty() throws {
        #expect(try StoreBackups.list(in: "/nonexistent/souk-backups").isEmpty)
        #expect(throws: MaintenanceError.self) { try StoreBackups.restore(from: "/nonexistent/souk-backups", to: "/tmp/x") }
    }
}
