#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Folders of files kept beside the database (uploaded media), included in its backups.
///
/// A file folder lives at `<store path>/<name>`. Its files must be content-addressed: a file's
/// path names its content and the file never changes once it has its name (it is written
/// under a temporary name starting with "." and renamed). So a backup copies only the files
/// the backup directory does not hold yet, under `<backup dir>/files/<name>/`, and records in
/// `<backup dir>/file-manifests/<backup id>` which files the backup holds (with their sizes).
/// Files are named by the SHA-256 of their content (`ContentAddress`), which verification checks.
/// Names starting with "." (files being written) are never copied.
enum FileFolders {
    /// One file of a backup: its path from the store path (`media/ab/cdef…`) and its size.
    struct Entry: Hashable {
        var path: String
        var size: Int64
    }

    static func filesDirectory(_ backupDirectory: String) -> String { backupDirectory + "/files" }
    static func manifestDirectory(_ backupDirectory: String) -> String { backupDirectory + "/file-manifests" }
    static func manifestPath(_ backupDirectory: String, _ id: UInt32) -> String { manifestDirectory(backupDirectory) + "/\(id)" }

    /// Copies the files of `folders` that `backupDirectory` lacks; returns every file found.
    /// A file removed while this runs is left out (the record that used it is gone too).
    static func copyMissing(_ folders: [String], from storePath: String, to backupDirectory: String) throws -> Set<Entry> {
        var entries = Set<Entry>()
        for folder in folders {
            for file in try FileSystem.files(under: storePath + "/" + folder) {
                let entry = Entry(path: folder + "/" + file.path, size: file.size)
                let target = filesDirectory(backupDirectory) + "/" + entry.path
                if !FileSystem.exists(target) {
                    guard try FileSystem.copy(storePath + "/" + entry.path, to: target) else { continue }
                }
                entries.insert(entry)
            }
        }
        return entries
    }

    /// What a backup holds besides its data files, in `<backup dir>/file-manifests/<id>`: one line
    /// `online yes|no`, one line per folder (`folder <name>`), then one per file (`<size> <path>`).
    struct Manifest: Equatable {
        var online: Bool?
        var folders: [String]
        var entries: [Entry]

        func write(id: UInt32, in backupDirectory: String) throws {
            var text = online.map { "online \($0 ? "yes" : "no")\n" } ?? ""
            text += folders.map { "folder \($0)\n" }.joined()
            for entry in entries { text += "\(entry.size) \(entry.path)\n" }
            try FileSystem.createDirectories(manifestDirectory(backupDirectory))
            try FileSystem.writeAtomically(Array(text.utf8), to: manifestPath(backupDirectory, id))
        }

        /// The manifest of backup `id`; nil when it has none (taken before manifests were written
        /// for every backup, without file folders).
        static func read(id: UInt32, in backupDirectory: String) throws -> Manifest? {
            guard let bytes = try FileSystem.read(manifestPath(backupDirectory, id)) else { return nil }
            var manifest = Manifest(online: nil, folders: [], entries: [])
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                guard let space = line.firstIndex(of: " ") else { throw corrupt(id, backupDirectory) }
                let head = line[..<space]
                let rest = String(line[line.index(after: space)...])
                if head == "online", rest == "yes" || rest == "no" {
                    manifest.online = rest == "yes"
                } else if head == "folder" {
                    manifest.folders.append(rest)
                } else if let size = Int64(head) {
                    manifest.entries.append(Entry(path: rest, size: size))
                } else {
                    throw corrupt(id, backupDirectory)
                }
            }
            return manifest
        }

        /// Adds what the manifest knows to a backup's description.
        func describe(_ info: inout BackupInfo) {
            info.online = online
            info.folderFileCount = entries.count
            info.folderBytes = entries.reduce(0) { $0 + $1.size }
        }
    }

    /// Makes each folder of backup `id` in `storePath` hold exactly the backup's files: copies
    /// the missing ones and removes the others. Does nothing for a backup without a manifest.
    static func restore(id: UInt32, from backupDirectory: String, to storePath: String) throws {
        guard let manifest = try Manifest.read(id: id, in: backupDirectory) else { return }
        let wanted = Set(manifest.entries.map(\.path))
        for entry in manifest.entries where !FileSystem.exists(storePath + "/" + entry.path) {
            guard try FileSystem.copy(filesDirectory(backupDirectory) + "/" + entry.path, to: storePath + "/" + entry.path) else {
                throw StoreError.rocksDB(operation: "restore \(entry.path)", message: "the file is missing from backup \(id) in \(backupDirectory)")
            }
        }
        for folder in manifest.folders {
            for file in try FileSystem.files(under: storePath + "/" + folder) where !wanted.contains(folder + "/" + file.path) {
                try FileSystem.remove(storePath + "/" + folder + "/" + file.path)
            }
        }
    }

    /// What is wrong with the files of backup `id`, one line per file: missing, not of its
    /// recorded size, or not holding the content its name (a SHA-256) says.
    static func problems(id: UInt32, in backupDirectory: String) throws -> [String] {
        guard let manifest = try Manifest.read(id: id, in: backupDirectory) else { return [] }
        var problems = [String]()
        for entry in manifest.entries {
            let path = filesDirectory(backupDirectory) + "/" + entry.path
            guard let size = FileSystem.size(path) else {
                problems.append("\(path): missing")
                continue
            }
            guard size == entry.size else {
                problems.append("\(path): \(size) bytes, not the \(entry.size) recorded")
                continue
            }
            let (folder, inFolder) = splitFolder(entry.path)
            if manifest.folders.contains(folder), let reason = try ContentAddress.mismatch(file: path, pathInFolder: inFolder) {
                problems.append("\(path): \(reason)")
            }
        }
        return problems
    }

    /// `media/ab/cd…` → (`media`, `ab/cd…`).
    static func splitFolder(_ path: String) -> (folder: String, inFolder: String) {
        guard let slash = path.firstIndex(of: "/") else { return (path, "") }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// Removes the manifests of backups that are gone and the files no remaining backup holds.
    static func prune(keeping ids: [UInt32], in backupDirectory: String) throws {
        let manifests = manifestDirectory(backupDirectory)
        guard FileSystem.exists(manifests) else { return }
        for name in try FileSystem.files(under: manifests).map(\.path) where !ids.contains(where: { "\($0)" == name }) {
            try FileSystem.remove(manifests + "/" + name)
        }
        var kept = Set<String>()
        for id in ids { kept.formUnion(try Manifest.read(id: id, in: backupDirectory)?.entries.map(\.path) ?? []) }
        let files = filesDirectory(backupDirectory)
        for file in try FileSystem.files(under: files) where !kept.contains(file.path) {
            try FileSystem.remove(files + "/" + file.path)
        }
    }

    private static func corrupt(_ id: UInt32, _ directory: String) -> StoreError {
        StoreError.rocksDB(operation: "read the file manifest of backup \(id)", message: "\(manifestPath(directory, id)) is damaged")
    }
}

/// `read(2)` into `buffer` (a free function: `FileSystem.read` shadows the name inside it).
private func readSome(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}

extension FileSystem {
    /// The regular files under `root`, recursively, as paths relative to it with their sizes;
    /// empty when `root` does not exist. Entries whose names start with "." are skipped.
    static func files(under root: String) throws -> [(path: String, size: Int64)] {
        var found = [(path: String, size: Int64)]()
        func walk(_ relative: String) throws {
            let directoryPath = relative.isEmpty ? root : root + "/" + relative
            guard let directory = opendir(directoryPath) else {
                if errno == ENOENT { return }
                throw failure("list \(directoryPath)")
            }
            var names = [String]()
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if !name.hasPrefix(".") { names.append(name) }
            }
            closedir(directory)
            for name in names.sorted() {
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(root + "/" + path, &info) == 0 else {
                    if errno == ENOENT { continue }  // removed meanwhile
                    throw failure("stat \(root)/\(path)")
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: try walk(path)
                case S_IFREG: found.append((path, Int64(info.st_size)))
                default: break
                }
            }
        }
        try walk("")
        return found
    }

    /// The size of a regular file, or nil when there is none.
    static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Copies `source` to `target` (creating its directory) under a temporary name, fsyncs it and
    /// renames it into place, so `target` never exists half-written. False when `source` is gone.
    static func copy(_ source: String, to target: String) throws -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT { return false }
            throw failure("open \(source)")
        }
        defer { close(input) }
        try createDirectories(split(target).directory)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        try replaceAtomically(target) { output, temporary in
            while true {
                let count = buffer.withUnsafeMutableBytes { readSome(input, $0) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw failure("read \(source)")
                }
                if count == 0 { break }
                try buffer.withUnsafeBytes { try writeAll(output, UnsafeRawBufferPointer(rebasing: $0[..<count]), temporary) }
            }
        }
        return true
    }

    /// Writes `bytes` to `path` under a temporary name, fsyncs and renames it into place.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try replaceAtomically(path) { output, temporary in
            try bytes.withUnsafeBytes { try writeAll(output, $0, temporary) }
        }
    }

    /// Has `write` fill a temporary file beside `path` (given its descriptor and name), fsyncs it,
    /// renames it over `path` and fsyncs the directory; on any failure the temporary file is removed.
    private static func replaceAtomically(_ path: String, _ write: (Int32, String) throws -> Void) throws {
        let (directory, name) = split(path)
        let temporary = directory + "/." + name + ".partial"
        let output = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw failure("create \(temporary)") }
        do {
            try write(output, temporary)
            guard fsync(output) == 0 else { throw failure("fsync \(temporary)") }
        } catch {
            close(output)
            unlink(temporary)
            throw error
        }
        close(output)
        guard rename(temporary, path) == 0 else {
            let error = failure("rename \(temporary)")
            unlink(temporary)
            throw error
        }
        try syncDirectory(directory)
    }

    /// The whole content of a small file, or nil when it does not exist.
    static func read(_ path: String) throws -> [UInt8]? {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("open \(path)")
        }
        defer { close(input) }
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { readSome(input, $0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read \(path)")
            }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    /// Removes a file; a file already gone is not an error.
    static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw failure("remove \(path)") }
    }

    /// Makes a rename or unlink in `directory` durable.
    static func syncDirectory(_ directory: String) throws {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open \(directory)") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("fsync \(directory)") }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw failure("write \(path)")
            }
            offset += written
        }
    }

    /// The directory part and the last name of a path.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    private static func failure(_ operation: String) -> StoreError {
        StoreError.rocksDB(operation: operation, message: String(cString: strerror(errno)))
    }
}
