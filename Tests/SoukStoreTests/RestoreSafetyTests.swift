import Foundation
import SoukStore
import SoukStoreFixtures
import SoukTesting
import Testing

/// Bad input a restore, an open and a verify must survive without losing data: files that are
/// not the store's, damaged backups, a store that is open, indexes not built, missing uploads.
@Suite struct RestoreSafetyTests {
    /// Accounts whose name is the content address of a file they need (in the "blobs" folder).
    static let documents = Table("documents", codec: SampleAccountCodec(), files: { [$0.name] })
    static let schema = Schema([SampleSchema.jobs.erased, documents.erased], fileFolders: ["blobs"])

    /// Every file under `path` with its content: what "untouched" means.
    static func snapshot(_ path: String) -> [String: Data] {
        var files = [String: Data]()
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let name = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: path + "/" + name) { files[name] = data }
        }
        return files
    }

    static func put(_ text: String, at path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A store with jobs and one document and its file, backed up into `<directory>/backups`.
    static func backedUp(_ directory: TemporaryDirectory) async throws -> (data: String, backups: String, file: String) {
        let data = directory.sub("db")
        let store = try Store(StoreConfiguration.forTests(data), schema: schema)
        let file = ContentAddress.path(folder: "blobs", sha256: SHA256.hash(Array("scan".utf8)))
        try put("scan", at: data + "/" + file)
        _ = try await store.write { tx in
            for n in 0..<50 { try tx.insert(SampleSchema.jobs, job(loads: Int64(n))) }
            return try tx.insert(documents, SampleAccount(marketplace: "m", email: "d@x.io", name: file))
        }
        _ = try await store.backup(to: directory.sub("backups"))
        await store.close()
        return (data, directory.sub("backups"), file)
    }

    @Test func restoreRefusesFilesThatAreNotTheStoresAndDeletesNone() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (_, backups, _) = try await Self.backedUp(directory)
        let target = directory.sub("target")
        try Self.put("mine", at: target + "/notes.txt")
        for replacing in [false, true] {
            #expect {
                try StoreBackups.restore(from: backups, to: target, replacingDatabase: replacing)
            } throws: { "\($0)".contains("notes.txt") }
        }
        #expect(Self.snapshot(target) == ["notes.txt": Data("mine".utf8)])
    }

    @Test func aDamagedBackupIsRefusedBeforeAnythingIsTouched() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (data, backups, file) = try await Self.backedUp(directory)
        let before = Self.snapshot(data)

        // A data file with one byte flipped (same size): its checksum no longer matches.
        let shared = backups + "/shared_checksum"
        let sst = try FileManager.default.contentsOfDirectory(atPath: shared).first { $0.hasSuffix(".sst") }!
        var bytes = try Data(contentsOf: URL(fileURLWithPath: shared + "/" + sst))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: shared + "/" + sst))
        #expect { try StoreBackups.verify(in: backups) } throws: { "\($0)".contains(sst) }
        #expect {
            try StoreBackups.restore(from: backups, to: data, replacingDatabase: true)
        } throws: { "\($0)".contains(sst) }
        #expect(Self.snapshot(data) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["backups", "db"], "no debris")
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: shared + "/" + sst))

        // An uploaded file whose content no longer matches its name.
        try Self.put("sCan", at: backups + "/files/" + file)
        #expect {
            try StoreBackups.restore(from: backups, to: data, replacingDatabase: true)
        } throws: { "\($0)".contains(file) && "\($0)".contains("SHA-256") }
        #expect(Self.snapshot(data) == before)
    }

    @Test func restoreIsRefusedWhileTheStoreIsOpen() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (data, backups, _) = try await Self.backedUp(directory)
        let store = try Store(StoreConfiguration.forTests(data), schema: Self.schema)
        let written = try await store.write { try $0.insert(SampleSchema.jobs, job(owner: "after-backup")) }
        #expect {
            try StoreBackups.restore(from: backups, to: data, replacingDatabase: true)
        } throws: { "\($0)".contains("LOCK") }
        #expect(try store.get(SampleSchema.jobs, written.id) == written)
        await store.close()
    }

    @Test func anInterruptedRestoreIsNeverOpenedAsAFreshStore() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let debris = directory.sub("debris")
        try Self.put("half a data file", at: debris + "/000042.sst")
        #expect { _ = try Store(StoreConfiguration.forTests(debris), schema: Self.schema) } throws: { error in
            "\(error)".contains("no database") && "\(error)".contains("000042.sst")
        }
        #expect(!FileManager.default.fileExists(atPath: debris + "/CURRENT"))
        // An empty directory is a new store.
        try FileManager.default.createDirectory(atPath: directory.sub("empty"), withIntermediateDirectories: false)
        await (try Store(StoreConfiguration.forTests(directory.sub("empty")), schema: Self.schema)).close()
    }

    @Test func verifyReportsMissingFilesAndFailsOnUnbuiltIndexes() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (data, _, file) = try await Self.backedUp(directory)
        try FileManager.default.removeItem(atPath: data + "/" + file)
        let store = try Store(StoreConfiguration.forTests(data), schema: Self.schema)
        let report = try await store.verify()
        #expect(!report.isConsistent)
        #expect(report.problems.count == 1 && report.problems[0].description.contains("its file \(file) is missing"), "\(report)")
        await store.close()
        try Self.put("scan", at: data + "/" + file)

        // A new index on a table with records is not built yet: verify is not satisfied.
        let byLoads = Index<SampleJob>.nonUnique("jobs.loads_only") { [.int($0.loads)] }
        let evolved = Table("jobs", codec: SampleJobCodec(), indexes: SampleSchema.jobs.indexes + [byLoads])
        let reopened = try Store(StoreConfiguration.forTests(data), schema: Schema([evolved.erased, Self.documents.erased]))
        let unbuilt = try await reopened.verify()
        #expect(!unbuilt.isConsistent && unbuilt.skippedIndexes == ["jobs.loads_only"])
        #expect(unbuilt.description.contains("NOT consistent"))
        _ = try await reopened.buildIndex("jobs.loads_only")
        #expect(try await reopened.verify().isConsistent)
        await reopened.close()
    }
}
