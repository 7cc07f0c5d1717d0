import CRocksDB
import CRocksDBBatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A refusal or failure of a backup, restore or open, in words for the operator.
public struct MaintenanceError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What a store's data directory may hold, and the operations restore needs on it: RocksDB's
/// files, the schema's file folders and the control socket belong to the store; anything else
/// is another program's and is never deleted.
public enum StoreDirectory {
    /// The control socket's name inside the data directory (see `StoreControlServer`).
    public static let controlSocketName = "control.sock"

    /// Whether `path` holds a RocksDB database.
    public static func holdsDatabase(_ path: String) -> Bool {
        FileSystem.exists(path + "/CURRENT")
    }

    /// Whether a name in a data directory is one of RocksDB's files.
    static func isDatabaseFile(_ name: String) -> Bool {
        ["CURRENT", "IDENTITY", "LOCK", "LOG"].contains(name)
            || ["LOG.old.", "MANIFEST-", "OPTIONS-"].contains { name.hasPrefix($0) }
            || [".sst", ".log", ".blob", ".dbtmp"].contains { name.hasSuffix($0) }
    }

    /// The entries of `path` that are not the store's (sorted): neither RocksDB's files, nor the
    /// control socket, nor one of `folders`. Empty when `path` does not exist.
    public static func foreignEntries(in path: String, folders: [String]) throws -> [String] {
        try FileSystem.entries(of: path).filter { name in
            !(isDatabaseFile(name) || name == controlSocketName || folders.contains(name))
        }
    }

    /// Throws unless a store may be opened at `path`: it holds a database, or it is missing or
    /// empty (a fresh database is then created). A directory holding anything else (what an
    /// interrupted restore left, or another program's files) is refused, so the store never
    /// starts empty over them.
    static func checkOpenable(_ path: String) throws {
        guard !holdsDatabase(path) else { return }
        let entries = try FileSystem.entries(of: path)
        guard !entries.isEmpty else { return }
        throw MaintenanceError(
            "\(path) holds \(entries.count) file(s) but no database (no CURRENT file): \(listed(entries)). "
                + "A new database is not created over them: they may be what an interrupted restore left, or another "
                + "program's files. Restore a backup into an empty directory (store restore), or move them away.")
    }

    /// Names for a message, the first few of them.
    static func listed(_ names: [String]) -> String {
        names.count <= 8 ? names.joined(separator: ", ") : names.prefix(8).joined(separator: ", ") + ", … (\(names.count - 8) more)"
    }

    /// Holds RocksDB's own lock on `<path>/LOCK` (creating the file), so no process has the
    /// database open while it is held and none can open it until it is released.
    final class Lock {
        private let handle: UnsafeMutableRawPointer

        init(_ path: String) throws {
            var error: UnsafeMutablePointer<CChar>? = nil
            let handle = souk_lock_database_directory(path, &error)
            if let error {
                let message = String(cString: error)
                rocksdb_free(error)
                throw MaintenanceError(
                    "another process has the database in \(path) open (is the server running on it? stop it first): \(message)")
            }
            self.handle = handle!
        }

        deinit { souk_unlock_database_directory(handle) }
    }

    /// Swaps two directories atomically: each path then names what the other named.
    static func exchange(_ first: String, _ second: String) throws {
        guard souk_exchange_paths(first, second) == 0 else {
            throw MaintenanceError("cannot swap \(first) and \(second): \(String(cString: strerror(errno)))")
        }
    }
}

extension FileSystem {
    /// Every name in a directory but "." and "..", sorted; empty when it does not exist.
    static func entries(of path: String) throws -> [String] {
        guard let directory = opendir(path) else {
            if errno == ENOENT { return [] }
            throw StoreError.rocksDB(operation: "list \(path)", message: String(cString: strerror(errno)))
        }
        defer { closedir(directory) }
        var names = [String]()
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Removes `path` and everything under it; nothing when it does not exist.
    static func removeTree(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw StoreError.rocksDB(operation: "stat \(path)", message: String(cString: strerror(errno)))
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in try entries(of: path) { try removeTree(path + "/" + name) }
            guard rmdir(path) == 0 else {
                throw StoreError.rocksDB(operation: "remove \(path)", message: String(cString: strerror(errno)))
            }
        } else {
            try remove(path)
        }
    }
}
