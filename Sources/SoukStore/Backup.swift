import CRocksDB

/// One backup in a backup directory.
public struct BackupInfo: Sendable, Equatable, CustomStringConvertible {
    public var id: UInt32
    /// When it was taken, in seconds since the Unix epoch.
    public var timestamp: Int64
    /// Bytes of the files it uses (shared with other backups when incremental).
    public var sizeBytes: UInt64
    public var fileCount: UInt32

    public var description: String { "backup \(id): taken at \(timestamp) (unix seconds), \(fileCount) files, \(sizeBytes) bytes" }
}

extension Store {
    /// Takes an online, incremental backup into `directory` (created when missing) while the store
    /// keeps serving; data files already in the directory from earlier backups are not copied
    /// again. Then keeps only the newest `keepLast` backups when given. Returns the new backup.
    ///
    /// How: a checkpoint (hard links to the live data files, plus the memtables flushed) is made
    /// next to the database, opened as a plain database, and handed to RocksDB's backup engine;
    /// the checkpoint is removed afterwards. Backups of one store run one at a time.
    ///
    /// The schema's file folders are copied too (only files the directory lacks), once before
    /// the checkpoint and once after: a record in the checkpoint was committed after its file
    /// was written, so the file is in one of the two copies (files are deleted only after their
    /// records, and only a day after their last use).
    public func backup(to directory: String, keepLast: Int? = nil) async throws -> BackupInfo {
        try await runOnWriter {
            try self.guarded {
                try self.backupLock.withLock { _ in try self.takeBackup(to: directory, keepLast: keepLast) }
            }
        }
    }

    private func takeBackup(to directory: String, keepLast: Int?) throws -> BackupInfo {
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

        let newest = try BackupEngine(directory: directory).withEngine { engine in
            try Rocks.call("create backup in \(directory)") { rocksdb_backup_engine_create_new_backup_flush(engine, copy, 1, $0) }
            guard let newest = BackupEngine.infos(engine).max(by: { $0.id < $1.id }) else {
                throw StoreError.rocksDB(operation: "create backup", message: "no backup listed after creating one")
            }
            return newest
        }
        files.formUnion(try FileFolders.copyMissing(folders, from: configuration.path, to: directory))
        if !folders.isEmpty { try FileFolders.writeManifest(folders, files, id: newest.id, in: directory) }
        if let keepLast { try StoreBackups.purge(in: directory, keepLast: keepLast) }
        return newest
    }
}

/// Backup directories: list, purge, verify and restore (restore needs the store closed).
public enum StoreBackups {
    /// Whether `path` already holds a RocksDB database.
    public static func directoryHoldsDatabase(_ path: String) -> Bool {
        FileSystem.exists(path + "/CURRENT")
    }

    /// The backups in `directory`, oldest first.
    public static func list(in directory: String) throws -> [BackupInfo] {
        guard FileSystem.exists(directory) else { return [] }
        return try BackupEngine(directory: directory).withEngine { BackupEngine.infos($0).sorted { $0.id < $1.id } }
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

    /// Checks that a backup's files are all present with the recorded sizes (and checksums),
    /// the files of its file folders included.
    public static func verify(in directory: String, backupID: UInt32) throws {
        try BackupEngine(directory: directory).withEngine { engine in
            try Rocks.call("verify backup \(backupID)") { rocksdb_backup_engine_verify_backup(engine, backupID, $0) }
        }
        try FileFolders.verify(id: backupID, in: directory)
    }

    /// Replaces the database at `path` with a backup (the newest when `backupID` is nil).
    /// The store at `path` must not be open. Files in `path` that are not part of the backup are
    /// deleted. The backup's file folders are restored into `path` too: files they lack are
    /// copied, files the backup does not hold are removed (a backup taken without file folders
    /// leaves them as they are).
    public static func restore(from directory: String, backupID: UInt32? = nil, to path: String, walDirectory: String? = nil) throws {
        guard FileSystem.exists(directory) else {
            throw StoreError.rocksDB(operation: "restore", message: "no backup directory at \(directory)")
        }
        try FileSystem.createDirectories(path)
        let restored = try BackupEngine(directory: directory).withEngine { engine -> UInt32 in
            let restoreOptions = rocksdb_restore_options_create()
            defer { rocksdb_restore_options_destroy(restoreOptions) }
            let wal = walDirectory ?? path
            if let backupID {
                try Rocks.call("restore backup \(backupID)") {
                    rocksdb_backup_engine_restore_db_from_backup(engine, path, wal, restoreOptions, backupID, $0)
                }
                return backupID
            }
            try Rocks.call("restore latest backup") {
                rocksdb_backup_engine_restore_db_from_latest_backup(engine, path, wal, restoreOptions, $0)
            }
            guard let newest = BackupEngine.infos(engine).map(\.id).max() else {
                throw StoreError.rocksDB(operation: "restore", message: "no backup in \(directory)")
            }
            return newest
        }
        try FileFolders.restore(id: restored, from: directory, to: path)
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
