import ArgumentParser
import SoukStore

/// Supplies the tables the store commands work on; the executable that mounts the commands
/// (the server, or a test harness) provides its own schema.
public protocol StoreSchemaProvider {
    static var schema: Schema { get }

    /// Opens the store a `--store` URL other than `rocksdb` names (a replicated engine's), with
    /// `configuration.path` as this node's data directory; the executable that knows the engine
    /// provides it.
    static func openStore(url: String, configuration: StoreConfiguration) throws -> Store
}

extension StoreSchemaProvider {
    /// Only the embedded store, unless the executable knows other engines.
    public static func openStore(url: String, configuration: StoreConfiguration) throws -> Store {
        throw ValidationError("--store \(url): this command opens only the embedded RocksDB store (--store rocksdb)")
    }
}

/// `store backup | restore | list-backups | verify-backup | purge-backups | verify | build-index | compact`: maintenance
/// commands for a store, mounted as a subcommand group by an executable:
///
///     subcommands: [StoreCommand<SoukSchema>.self]
///
/// Backup, verify, build-index and compact need the open store. When a server holds the store open (and
/// runs a `StoreControlServer`), they send the request through its control socket and the
/// server runs it online; otherwise they open the store themselves. Restore needs the server
/// stopped, verifies the backup first and swaps the restored copy in only when it is complete.
public struct StoreCommand<Provider: StoreSchemaProvider>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "store",
            abstract: "Back up, restore, verify, compact and evolve the store.",
            subcommands: [
                BackupCommand<Provider>.self, RestoreCommand.self, ListBackupsCommand.self, VerifyBackupCommand.self, PurgeBackupsCommand.self,
                VerifyCommand<Provider>.self, BuildIndexCommand<Provider>.self, CompactCommand<Provider>.self,
            ])
    }

    public init() {}
}

/// Where the store lives and how to open it.
public struct StoreLocationOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "The database directory.")
    public var dataDirectory: String

    @Option(name: .customLong("wal-dir"), help: "The write-ahead log directory, when not inside the database directory.")
    public var walDirectory: String?

    @Option(help: "Where the records live, as the server's --store: `rocksdb` (in --data-dir) or `etcd://HOST:PORT,...`. Used when no server answers on --data-dir's control socket; over etcd, --data-dir holds this node's files (media) only.")
    public var store = "rocksdb"

    public init() {}

    func configuration() -> StoreConfiguration {
        var configuration = StoreConfiguration(path: dataDirectory)
        configuration.walDirectory = walDirectory
        configuration.writerThreads = 4
        return configuration
    }

    /// Runs `request` in the server that holds the store open, or else on the store opened here;
    /// prints the output and fails with the request's exit status.
    func run<Provider: StoreSchemaProvider>(_ request: MaintenanceRequest, _ provider: Provider.Type) async throws {
        let result: (output: String, exitStatus: Int32)
        if let remote = try StoreControlServer.send(request, dataDirectory: dataDirectory) {
            result = remote
        } else if store != "rocksdb" {
            // A replicated store: other nodes may be serving it while this command runs.
            let opened = try Provider.openStore(url: store, configuration: configuration())
            result = await request.run(on: opened, online: true)
            await opened.close()
        } else {
            result = try await withStore(Provider.schema) { await request.run(on: $0, online: false) }
        }
        print(result.output, terminator: "")
        if result.exitStatus != 0 { throw ExitCode(result.exitStatus) }
    }

    /// Opens the store, runs `body`, and closes it again.
    func withStore<R>(_ schema: Schema, _ body: (Store) async throws -> R) async throws -> R {
        let store: Store
        do {
            store = try Store(configuration(), schema: schema)
        } catch let error as StoreError {
            if case .rocksDB(_, let message) = error, message.contains("lock") {
                throw ValidationError("\(error)\nIs the server running on \(dataDirectory)? Stop it first.")
            }
            throw error
        }
        do {
            let result = try await body(store)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}

/// `store backup`: an incremental backup of the store into a backup directory.
public struct BackupCommand<Provider: StoreSchemaProvider>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "backup",
            abstract: "Take an incremental backup (only data files not already in the backup directory are copied).")
    }

    @OptionGroup public var location: StoreLocationOptions

    @Option(name: .customLong("backup-dir"), help: "The backup directory (created when missing).")
    public var backupDirectory: String

    @Option(help: "Keep only the newest N backups in the backup directory afterwards.")
    public var keep: Int?

    public init() {}

    public func run() async throws {
        try await location.run(.backup(directory: backupDirectory, keepLast: keep), Provider.self)
    }
}

/// `store restore`: replace a (stopped) store's database with a verified backup.
public struct RestoreCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore the newest (or a given) backup into the data directory; the server must be stopped.",
        discussion: """
            The backup is verified first (every data file's checksum, every uploaded file's SHA-256); a damaged \
            backup is refused and nothing is touched. It is restored into a temporary directory beside the data \
            directory and swapped in only when complete; the old data is deleted after the swap. Refused while a \
            server has the data directory open, and when the directory holds files that are not the store's.
            """)

    @Option(name: .customLong("backup-dir"), help: "The backup directory.")
    public var backupDirectory: String

    @Option(name: .customLong("data-dir"), help: "The database directory to restore into.")
    public var dataDirectory: String

    @Option(name: .customLong("backup-id"), help: "The backup to restore (default: the newest).")
    public var backupID: UInt32?

    @Flag(help: "Replace an existing database in the data directory.")
    public var force = false

    public init() {}

    public func run() async throws {
        if StoreControlServer.isServing(dataDirectory: dataDirectory) {
            throw MaintenanceError("a server is running on \(dataDirectory) (it answers on its control socket); stop it first. Nothing was restored.")
        }
        let restored = try StoreBackups.restore(from: backupDirectory, backupID: backupID, to: dataDirectory, replacingDatabase: force)
        print("verified and restored backup \(restored.id) into \(dataDirectory)")
    }
}

/// `store list-backups`.
public struct ListBackupsCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "list-backups",
        abstract: "List the backups in a backup directory: when taken (UTC), online or not, sizes with the uploaded files.")

    @Option(name: .customLong("backup-dir"), help: "The backup directory.")
    public var backupDirectory: String

    public init() {}

    public func run() async throws {
        let backups = try StoreBackups.list(in: backupDirectory)
        if backups.isEmpty { print("no backups in \(backupDirectory)") }
        for backup in backups { print(backup) }
    }
}

/// `store verify-backup`: exits with status 1 when a backup is damaged.
public struct VerifyBackupCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "verify-backup",
        abstract: "Check backups: every data file's size and checksum, every uploaded file's size and SHA-256 (as restore does first).")

    @Option(name: .customLong("backup-dir"), help: "The backup directory.")
    public var backupDirectory: String

    @Option(name: .customLong("backup-id"), help: "The backup to check (default: every backup in the directory).")
    public var backupID: UInt32?

    public init() {}

    public func run() async throws {
        let ids = try backupID.map { [$0] } ?? StoreBackups.list(in: backupDirectory).map(\.id)
        if ids.isEmpty { throw MaintenanceError("no backups in \(backupDirectory)") }
        var damaged = 0
        for id in ids {
            do {
                let backup = try StoreBackups.verify(in: backupDirectory, backupID: id)
                print("backup \(id): intact (\(backup.fileCount) data files and \(backup.folderFileCount) uploaded files checked)")
            } catch let error as MaintenanceError {
                damaged += 1
                print(error)
            }
        }
        if damaged > 0 { throw ExitCode(1) }
    }
}

/// `store purge-backups`.
public struct PurgeBackupsCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "purge-backups", abstract: "Delete all but the newest N backups (and files only they used).")

    @Option(name: .customLong("backup-dir"), help: "The backup directory.")
    public var backupDirectory: String

    @Option(help: "How many of the newest backups to keep.")
    public var keep: Int

    public init() {}

    public func run() async throws {
        try StoreBackups.purge(in: backupDirectory, keepLast: keep)
        print("kept the newest \(keep) backup(s) in \(backupDirectory)")
    }
}

/// `store verify`: exits with status 1 when any index, record or file is inconsistent, or an index is not built.
public struct VerifyCommand<Provider: StoreSchemaProvider>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "verify",
            abstract: "Check every table, index and uploaded file: entries without records, records without entries, undecodable "
                + "records, records whose file is missing, files whose SHA-256 is not their name; indexes not built fail it too.")
    }

    @OptionGroup public var location: StoreLocationOptions

    public init() {}

    public func run() async throws {
        try await location.run(.verify, Provider.self)
    }
}

/// `store build-index`: fill indexes added to tables that already hold records.
public struct BuildIndexCommand<Provider: StoreSchemaProvider>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "build-index",
            abstract: "Build indexes from the existing records (by default every index not built yet).")
    }

    @OptionGroup public var location: StoreLocationOptions

    @Argument(help: "Index names (default: every index that is not built yet).")
    public var names: [String] = []

    public init() {}

    public func run() async throws {
        try await location.run(.buildIndex(names: names), Provider.self)
    }
}

/// `store compact`: merge all data into the bottom level, after a bulk import or a restore.
public struct CompactCommand<Provider: StoreSchemaProvider>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "compact",
            abstract: "Merge all data files into the bottom level (after a bulk import or a restore), so reads probe fewer files.")
    }

    @OptionGroup public var location: StoreLocationOptions

    public init() {}

    public func run() async throws {
        try await location.run(.compact, Provider.self)
    }
}
