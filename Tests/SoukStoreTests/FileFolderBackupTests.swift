import Foundation
import SoukTesting
import Testing
import SoukStore
import SoukStoreFixtures

/// Backups copy the schema's file folders: only the files the backup directory lacks, and
/// restores bring back exactly the files of the restored backup.
@Suite struct FileFolderBackupTests {
    static let schema = Schema(SampleSchema.schema.tables, fileFolders: ["blobs"])

    static func put(_ text: String, at path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The content-addressed path of `text` in the blobs folder.
    static func blob(_ text: String) -> String { ContentAddress.path(folder: "blobs", sha256: SHA256.hash(Array(text.utf8))) }

    static func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    static func inode(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as! Int
    }

    @Test func backupsCopyMissingFilesAndRestoresMatchTheBackup() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.sub("db")
        let backups = directory.sub("backups")
        let (one, two, three) = (Self.blob("one"), Self.blob("two"), Self.blob("three"))
        let store = try Store(StoreConfiguration.forTests(data), schema: Self.schema)
        try Self.put("one", at: data + "/" + one)
        try Self.put("two", at: data + "/" + two)
        try Self.put("half-written", at: data + "/blobs/.incoming/x")

        let first = try await store.backup(to: backups, online: false)
        #expect(Self.text(backups + "/files/" + one) == "one")
        #expect(Self.text(backups + "/files/" + two) == "two")
        #expect(!FileManager.default.fileExists(atPath: backups + "/files/blobs/.incoming/x"), "files being written are not copied")
        let copiedOnce = try Self.inode(backups + "/files/" + one)

        try Self.put("three", at: data + "/" + three)
        try FileManager.default.removeItem(atPath: data + "/" + two)
        let second = try await store.backup(to: backups)
        #expect(try Self.inode(backups + "/files/" + one) == copiedOnce, "a file the backup holds is not copied again")
        #expect(Self.text(backups + "/files/" + three) == "three")
        #expect(Self.text(backups + "/files/" + two) == "two", "the first backup still needs it")
        try StoreBackups.verify(in: backups, backupID: second.id)
        await store.close()

        // The listing counts the files with the data and says how each backup was taken.
        let listed = try StoreBackups.list(in: backups)
        #expect(listed.map(\.online) == [false, true])
        #expect(listed.map(\.folderFileCount) == [2, 2])
        #expect(listed[1].folderBytes == 8)
        #expect(listed[1].description.contains("UTC, online"))

        let restoredFirst = directory.sub("restored-first")
        try StoreBackups.restore(from: backups, backupID: first.id, to: restoredFirst)
        #expect(Self.text(restoredFirst + "/" + one) == "one")
        #expect(Self.text(restoredFirst + "/" + two) == "two")
        #expect(!FileManager.default.fileExists(atPath: restoredFirst + "/" + three))

        // Restoring the newest backup over the first: the file it lacks goes, the new one comes.
        try Self.put("stray", at: restoredFirst + "/" + Self.blob("stray"))
        try StoreBackups.restore(from: backups, to: restoredFirst, replacingDatabase: true)
        #expect(Self.text(restoredFirst + "/" + three) == "three")
        #expect(!FileManager.default.fileExists(atPath: restoredFirst + "/" + two))
        #expect(!FileManager.default.fileExists(atPath: restoredFirst + "/" + Self.blob("stray")))
        let reopened = try Store(StoreConfiguration.forTests(restoredFirst), schema: Self.schema)
        let report = try await reopened.verify()
        #expect(report.isConsistent && report.filesChecked == 2, "\(report)")
        await reopened.close()

        // Keeping only the newest backup drops the files only the first one held.
        try StoreBackups.purge(in: backups, keepLast: 1)
        #expect(!FileManager.default.fileExists(atPath: backups + "/files/" + two))
        #expect(Self.text(backups + "/files/" + one) == "one")
        #expect(!FileManager.default.fileExists(atPath: backups + "/file-manifests/\(first.id)"))
        #expect(try StoreBackups.list(in: backups).map(\.id) == [second.id])

        // A file whose content no longer matches its name, then a missing file, fail verification.
        try Self.put("thrEe", at: backups + "/files/" + three)
        #expect(throws: MaintenanceError.self) { try StoreBackups.verify(in: backups, backupID: second.id) }
        try FileManager.default.removeItem(atPath: backups + "/files/" + three)
        #expect(throws: MaintenanceError.self) { try StoreBackups.verify(in: backups, backupID: second.id) }
    }

    @Test func verifyChecksTheFilesOfTheFolders() async throws {
        try await withTemporaryStore(schema: Self.schema) { store, directory in
            let path = store.configuration.path
            try Self.put("one", at: path + "/" + Self.blob("one"))
            #expect(try await store.verify().isConsistent)
            try Self.put("on3", at: path + "/" + Self.blob("one"))
            try Self.put("x", at: path + "/blobs/not-a-hash")
            let report = try await store.verify()
            #expect(!report.isConsistent)
            #expect(report.filesChecked == 2)
            let problems = report.problems.map(\.description).sorted()
            #expect(problems.count == 2)
            #expect(problems.first?.hasPrefix(Self.blob("one") + ": its content's SHA-256 is ") == true, "\(problems)")
            #expect(problems.last == "blobs/not-a-hash: its name is not a SHA-256 (<2 hex digits>/<62 hex digits>)")
        }
    }

    @Test func schemaRefusesFolderNamesThatAreNotPlainDirectories() async throws {
        for name in ["", ".hidden", "a/b"] {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            #expect(throws: StoreError.self) {
                _ = try Store(StoreConfiguration.forTests(directory.sub("db")), schema: Schema(SampleSchema.schema.tables, fileFolders: [name]))
            }
        }
    }
}
