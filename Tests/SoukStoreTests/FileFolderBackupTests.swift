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
        let store = try Store(StoreConfiguration.forTests(data), schema: Self.schema)
        try Self.put("one", at: data + "/blobs/aa/1")
        try Self.put("two", at: data + "/blobs/bb/2")
        try Self.put("half-written", at: data + "/blobs/.incoming/x")

        let first = try await store.backup(to: backups)
        #expect(Self.text(backups + "/files/blobs/aa/1") == "one")
        #expect(Self.text(backups + "/files/blobs/bb/2") == "two")
        #expect(!FileManager.default.fileExists(atPath: backups + "/files/blobs/.incoming/x"), "files being written are not copied")
        let copiedOnce = try Self.inode(backups + "/files/blobs/aa/1")

        try Self.put("three", at: data + "/blobs/cc/3")
        try FileManager.default.removeItem(atPath: data + "/blobs/bb/2")
        let second = try await store.backup(to: backups)
        #expect(try Self.inode(backups + "/files/blobs/aa/1") == copiedOnce, "a file the backup holds is not copied again")
        #expect(Self.text(backups + "/files/blobs/cc/3") == "three")
        #expect(Self.text(backups + "/files/blobs/bb/2") == "two", "the first backup still needs it")
        try StoreBackups.verify(in: backups, backupID: second.id)
        await store.close()

        let restoredFirst = directory.sub("restored-first")
        try StoreBackups.restore(from: backups, backupID: first.id, to: restoredFirst)
        #expect(Self.text(restoredFirst + "/blobs/aa/1") == "one")
        #expect(Self.text(restoredFirst + "/blobs/bb/2") == "two")
        #expect(!FileManager.default.fileExists(atPath: restoredFirst + "/blobs/cc/3"))

        // Restoring the newest backup over the first: the file it lacks goes, the new one comes.
        try Self.put("stray", at: restoredFirst + "/blobs/zz/9")
        try StoreBackups.restore(from: backups, to: restoredFirst)
        #expect(Self.text(restoredFirst + "/blobs/cc/3") == "three")
        #expect(!FileManager.default.fileExists(atPath: restoredFirst + "/blobs/bb/2"))
        #expect(!FileManager.default.fileExists(atPath: restoredFirst + "/blobs/zz/9"))
        let reopened = try Store(StoreConfiguration.forTests(restoredFirst), schema: Self.schema)
        await reopened.close()

        // Keeping only the newest backup drops the files only the first one held.
        try StoreBackups.purge(in: backups, keepLast: 1)
        #expect(!FileManager.default.fileExists(atPath: backups + "/files/blobs/bb/2"))
        #expect(Self.text(backups + "/files/blobs/aa/1") == "one")
        #expect(!FileManager.default.fileExists(atPath: backups + "/file-manifests/\(first.id)"))
        #expect(try StoreBackups.list(in: backups).map(\.id) == [second.id])

        // A backup missing one of its files fails verification.
        try FileManager.default.removeItem(atPath: backups + "/files/blobs/cc/3")
        #expect(throws: StoreError.self) { try StoreBackups.verify(in: backups, backupID: second.id) }
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
