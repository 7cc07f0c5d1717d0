import CRocksDB
import CRocksDBBatch

/// One backup in a backup directory.
public struct BackupInfo: Sendable, Equatable, CustomStringConvertible {
    public var id: UInt32
    /// When it was taken, in seconds since the Unix epoch.
    public var timestamp: Int64
    /// Bytes of the data files it uses (shared with other backups when incremental).
    public var sizeBytes: UInt64
    public var fileCount: UInt32
    /// Files of the schema's file folders (uploads) it holds, and their bytes.
    public var folderFileCount = 0
    public var folderBytes: Int64 = 0
    /// Whether it was taken while a server had the store open and kept serving (nil: not recorded).
    public var online: Bool?

    public var description: String {
        let how = online.map { $0 ? "online (the server kept serving)" : "offline (the store was not serving)" } ?? "online or offline: not recorded"
        return "backup \(id): taken \(StoreTime.utcText(unixSeconds: timestamp)), \(how); "
            + "\(Self.bytes(Int64(sizeBytes) + folderBytes)) in all: \(fileCount) data files of \(Self.bytes(Int64(sizeBytes))), "
            + "\(folderFileCount) uploaded files of \(Self.bytes(folderBytes))"
    }

    /// A size in bytes, or in the largest binary unit that keeps it at least 1, with one decimal.
    static func bytes(_ count: Int64) -> String {
        var value = Double(count)
        var unit = "bytes"
        for larger in ["KiB", "MiB", "GiB", "TiB"] where value >= 1024 {
            value /= 1024
            unit = larger
        }
        guard unit != "bytes" else { return "\(count) bytes" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(unit)"
    }
}

extension Store {
    /// Takes an online, incremental backup into `directory` (created when missing) while the store
    /// keeps serving; data files already in the directory from earlier backups are not copied
    /// again. Then keeps only the newest `keepLast` backups when given. Returns the new backup.
    /// `online` records whether a server had the store open meanwhile (shown by `list-backups`).
    ///
    /// How: a checkpoint (hard links to the live data files, plus the memtables flushed) is made
    /// next to the database, opened as a plain database, and handed to RocksDB's backup engine;
    /// the checkpoint is removed afterwards. Backups of one store run one at a time.
    ///
    /// The schema's file folders are copied too (only files the directory lacks), once before
    /// the checkpoint and once after: a record in the checkpoint was committed after its file
    /// was written, so the file is in one of the two copies (files are deleted only after their
    /// records, and only a day after their last use).
    public func backup(to directory: String, keepLast: Int? = nil, online: Bool = true) async throws -> BackupInfo {
        try await runOnWriter {
            try self.guarded {
                try self.backupLock.withLock { _ in try self.takeBackup(to: directory, keepLast: keepLast, online: online) }
            }
        }
    }

    private func takeBackup(to directory: String, keepLast: Int?, online: Bool) throws -> BackupInfo {
        let database = try rocksOnly("backup")
        try FileSystem.createDirectories(directory)
        let folders = schema.fileFolders
        var files = try FileFolders.copyMissing(folders, from: configuration.path, to: directory)
        let checkpoint = configuration.path + ".backup-checkpoint"
        try FileSystem.removeFlatDirectory(checkpoint)  // left over from an interrupted backup
        try database.checkpoint(to: checkpoint)
        defer { try? FileSystem.removeFlatDirectory(checkpoint) }

        let options = rocksdb_options_create()!
        defer { rocksdb_options_destroy(options) }
        rocksdb_options_set_disable_auto_compactions(options, 1)  // leave its files exactly as linked
        let copy = try Rocks.call("open checkpoint \(checkpoint)") { rocksdb_open(options, checkpoint, $0) }!
        defer { rocksdb_close(copy) }

        var newest = try BackupEngine(directory: directory).withEngine { engine in
            try Rocks.call("create backup in \(directory)") { rocksdb_backup_engine_create_new_backup_flush(engine, copy, 1, $0) }
            guard let newest = BackupEngine.infos(engine).max(by: { $0.id < $1.id }) else {
                throw StoreError.rocksDB(operation: "create backup", message: "no backup listed after creating one")
            }
            return newest
        }
        files.formUnion(try FileFolders.copyMissing(folders, from: configuration.path, to: directory))
        let manifest = FileFolders.Manifest(online: online, folders: folders, entries: files.sorted { $0.path < $1.path })
        try manifest.write(id: newest.id, in: directory)
        manifest.describe(&newest)
        if let keepLast { try StoreBackups.purge(in: directory, keepLast: keepLast) }
        return newest
    }
}

/// Backup directories: list, purge, verify and restore (restore needs the store closed).
public enum StoreBackups {
    /// The backups in `directory`, oldest first.
    public static func list(in directory: String) throws -> [BackupInfo] {
        guard FileSystem.exists(directory) else { return [] }
        var backups = try BackupEngine(directory: directory).withEngine { BackupEngine.infos($0).sorted { $0.id < $1.id } }
        for i in backups.indices { try FileFolders.Manifest.read(id: backups[i].id, in: directory)?.describe(&backups[i]) }
        return backups
    }

    /// Deletes all but the newest `keepLast` backups, and the files (data files and files of
    /// file folders) only they used.
    public static func purge(in directory: String, keepLast: Int) throws {
        let kept = try BackupEngine(directory: directory).withEngine { engine in
            try Rocks.call("purge old backups") { rocksdb_backup_engine_purge_old_backups(engine, UInt32(max(1, keepLast)), $0) }
            return BackupEngine.infos(engine).map(\.id)
        }
        try FileFolders.prune(keeping: kept, in: directory)
    }

    /// Checks a backup as `pg_verifybackup` and RocksDB's `VerifyBackup` do: every data file is
    /// present with its recorded size and CRC-32C checksum, and every file of its file folders is
    /// present with its size and holds the content its name (a SHA-256) says. Returns the backup
    /// when all is well; throws a `MaintenanceError` naming every damaged or missing file otherwise.
    @discardableResult
    public static func verify(in directory: String, backupID: UInt32? = nil) throws -> BackupInfo {
        let backup = try find(backupID, in: directory)
        var problems = [String]()
        do {
            try BackupEngine(directory: directory).withEngine { engine in
                try Rocks.call("verify backup \(backup.id)") { souk_backup_engine_verify_with_checksums(engine, backup.id, $0) }
            }
        } catch let error as StoreError {
            guard case .rocksDB(_, let message) = error else { throw error }
            problems.append("data files: \(message)")
        }
        problems += try FileFolders.problems(id: backup.id, in: directory)
        guard problems.isEmpty else {
            throw MaintenanceError("backup \(backup.id) in \(directory) is damaged:\n" + problems.map { "  " + $0 }.joined(separator: "\n"))
        }
        return backup
    }

    /// Restores a backup (the newest when `backupID` is nil) into the data directory `path`,
    /// touching nothing until the backup is verified (`verify`) and the restore is complete:
    ///
    /// 1. the backup is verified; a damaged one is refused, naming its damaged files;
    /// 2. `path` must hold only the store's files (RocksDB's, the backup's file folders, the
    ///    control socket): anything else is refused, never deleted; a database there is replaced
    ///    only when `replacingDatabase`;
    /// 3. RocksDB's lock on `<path>/LOCK` is taken, so no server has the database open (and none
    ///    can open it) while the restore runs;
    /// 4. the backup is restored into `<parent>/.<name>.restoring` beside `path`, then swapped in
    ///    with one atomic rename; the old data is deleted only after the swap. A failure before
    ///    the swap leaves `path` as it was and removes the temporary directory.
    ///
    /// Returns the backup restored.
    @discardableResult
    public static func restore(from directory: String, backupID: UInt32? = nil, to path: String, replacingDatabase: Bool = false) throws -> BackupInfo {
        let backup = try verify(in: directory, backupID: backupID)
        let folders = try FileFolders.Manifest.read(id: backup.id, in: directory)?.folders ?? []
        let foreign = try StoreDirectory.foreignEntries(in: path, folders: folders)
        guard foreign.isEmpty else {
            throw MaintenanceError(
                "\(path) holds files that are not the store's: \(StoreDirectory.listed(foreign)). Nothing was restored or deleted; "
                    + "restore into an empty or new directory, or move them away first.")
        }
        if StoreDirectory.holdsDatabase(path) && !replacingDatabase {
            throw MaintenanceError("\(path) already holds a database; stop the server and pass --force to replace it.")
        }
        try FileSystem.createDirectories(path)
        let lock = try StoreDirectory.Lock(path)
        defer { withExtendedLifetime(lock) {} }  // held until the swap is done

        let (parent, name) = FileSystem.split(path)
        let temporary = parent + "/." + name + ".restoring"
        try FileSystem.removeTree(temporary)  // left by an interrupted restore
        do {
            try FileSystem.createDirectories(temporary)
            try BackupEngine(directory: directory).withEngine { engine in
                let restoreOptions = rocksdb_restore_options_create()
                defer { rocksdb_restore_options_destroy(restoreOptions) }
                try Rocks.call("restore backup \(backup.id) into \(temporary)") {
                    rocksdb_backup_engine_restore_db_from_backup(engine, temporary, temporary, restoreOptions, backup.id, $0)
                }
            }
            try FileFolders.restore(id: backup.id, from: directory, to: temporary)
            try StoreDirectory.exchange(temporary, path)
        } catch {
            try? FileSystem.removeTree(temporary)
            throw MaintenanceError("restore of backup \(backup.id) into \(path) failed, \(path) is unchanged: \(error)")
        }
        try FileSystem.syncDirectory(parent)
        try FileSystem.removeTree(temporary)  // now the old data
        return backup
    }

    /// The backup with this id (the newest when nil).
    static func find(_ backupID: UInt32?, in directory: String) throws -> BackupInfo {
        guard FileSystem.exists(directory) else { throw MaintenanceError("no backup directory at \(directory)") }
        let backups = try list(in: directory)
        if let backupID {
            guard let backup = backups.first(where: { $0.id == backupID }) else {
                throw MaintenanceError("no backup \(backupID) in \(directory) (it holds \(backups.map { "\($0.id)" }.joined(separator: ", ")))")
            }
            return backup
        }
        guard let newest = backups.last else { throw MaintenanceError("no backup in \(directory)") }
        return newest
    }
}

/// Opens RocksDB's backup engine on a directory for the length of one call.
struct BackupEngine {
    let directory: String

    func withEngine<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        let options = rocksdb_options_create()!
        defer { rocksdb_options_destroy(options) }
        let engine = try Rocks.call("open backup directory \(directory)") { rocksdb_backup_engine_open(options, directory, $0) }!
        defer { rocksdb_backup_engine_close(engine) }
        return try body(engine)
    }

    static func infos(_ engine: OpaquePointer) -> [BackupInfo] {
        let info = rocksdb_backup_engine_get_backup_info(engine)!
        defer { rocksdb_backup_engine_info_destroy(info) }
        return (0..<rocksdb_backup_engine_info_count(info)).map { i in
            BackupInfo(
                id: rocksdb_backup_engine_info_backup_id(info, i),
                timestamp: rocksdb_backup_engine_info_timestamp(info, i),
                sizeBytes: rocksdb_backup_engine_info_size(info, i),
                fileCount: rocksdb_backup_engine_info_number_files(info, i))
        }
    }
}
