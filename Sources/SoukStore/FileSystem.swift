#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system operations backups need.
enum FileSystem {
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Creates `path` and its missing parents.
    static func createDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            current += current.isEmpty || current.hasSuffix("/") ? String(component) : "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw StoreError.rocksDB(operation: "create directory \(current)", message: String(cString: strerror(errno)))
            }
        }
    }

    /// Removes a directory that holds only files (a checkpoint), if it exists.
    static func removeFlatDirectory(_ path: String) throws {
        guard let directory = opendir(path) else { return }
        var names = [String]()
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        for name in names where unlink(path + "/" + name) != 0 {
            throw StoreError.rocksDB(operation: "remove \(path)/\(name)", message: String(cString: strerror(errno)))
        }
        if rmdir(path) != 0 {
            throw StoreError.rocksDB(operation: "remove \(path)", message: String(cString: strerror(errno)))
        }
    }
}
