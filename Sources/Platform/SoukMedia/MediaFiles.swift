import SoukKit
import SoukStore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Uploaded content on disk, one file per distinct content, named by its SHA-256:
/// `<root>/ab/cdef…` (the first two hex digits pick a directory, so no directory grows huge).
///
/// A file is written under `<root>/.incoming/`, fsynced, and renamed into place before the
/// record that names it is committed, so a crash never leaves a record without its file (at
/// worst a file without a record). Files never change once named, which makes backups a copy of
/// the missing files. Adding and removing a content's file happen under that content's lock
/// (`withContent`), so a purge never deletes a file an upload is committing a record for.
public final class MediaFiles: Sendable {
    /// The folder's name in the store's directory, for the schema's file folders.
    public static let folderName = MediaTable.folderName

    public let root: String
    private var incomingDirectory: String { root + "/.incoming" }
    private let locks = ContentLocks()

    /// Opens the folder at `root`, creating it, and removes uploads a crash left unfinished.
    public init(root: String) throws {
        self.root = root
        try Self.makeDirectory(root)
        try Self.makeDirectory(root + "/.incoming")
        for name in try Self.names(in: root + "/.incoming") { unlink(root + "/.incoming/" + name) }
    }

    /// Where the content with this SHA-256 (64 hex digits) is kept.
    public func path(ofContent hex: String) -> String {
        ContentAddress.path(folder: root, hex: hex)
    }

    /// A new upload, written to a temporary file until `place` names it.
    func receive() throws -> IncomingFile {
        try IncomingFile(path: incomingDirectory + "/" + UInt64.random(in: .min ... .max).description)
    }

    /// Names a finished upload by its content: renames it into place (durably), or drops it
    /// when that content is stored already. Call inside `withContent(hex)`.
    func place(_ file: IncomingFile, hex: String) throws {
        let target = path(ofContent: hex)
        if access(target, F_OK) == 0 {
            file.discard()
            return
        }
        let directory = root + "/" + hex.prefix(2)
        try Self.makeDirectory(directory)
        try file.move(to: target)
        try Self.sync(directory)
    }

    /// Deletes a content's file. Call inside `withContent(hex)`, once no record names it.
    func remove(hex: String) throws {
        guard unlink(path(ofContent: hex)) == 0 || errno == ENOENT else { throw MediaFileError("remove", path(ofContent: hex)) }
        try Self.sync(root + "/" + hex.prefix(2))
    }

    /// Runs `body` while no other `withContent` of the same content runs.
    func withContent<R>(_ hex: String, _ body: () async throws -> R) async throws -> R {
        await locks.lock(hex)
        defer { locks.unlock(hex) }
        return try await body()
    }

    /// Opens a content's file for reading.
    func reader(hex: String) throws -> ContentReader {
        try ContentReader(path: path(ofContent: hex))
    }

    private static func makeDirectory(_ path: String) throws {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw MediaFileError("create directory", path) }
    }

    private static func sync(_ directory: String) throws {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw MediaFileError("open", directory) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw MediaFileError("fsync", directory) }
    }

    private static func names(in directory: String) throws -> [String] {
        guard let handle = opendir(directory) else { throw MediaFileError("list", directory) }
        defer { closedir(handle) }
        var names = [String]()
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// An upload being written: the temporary file, its size so far and the running SHA-256.
/// Owns its file descriptor; the temporary file is removed unless it was renamed into place.
final class IncomingFile {
    private let path: String
    private var descriptor: Int32
    private var hasher = SHA256()
    private(set) var size: Int64 = 0

    fileprivate init(path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw MediaFileError("create", path) }
    }

    deinit { discard() }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            hasher.update(buffer)
            var offset = 0
            while offset < buffer.count {
                let written = writeSome(descriptor, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                if written < 0 {
                    if errno == EINTR { continue }
                    throw MediaFileError("write", path)
                }
                offset += written
            }
        }
        size += Int64(bytes.count)
    }

    /// Flushes the content to disk and returns its SHA-256.
    func finish() throws -> [UInt8] {
        guard fsync(descriptor) == 0 else { throw MediaFileError("fsync", path) }
        return hasher.finish()
    }

    fileprivate func move(to target: String) throws {
        guard rename(path, target) == 0 else { throw MediaFileError("rename", path) }
        close(descriptor)
        descriptor = -1
    }

    /// Closes and removes the temporary file (nothing once renamed or discarded).
    func discard() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(path)
    }
}

/// `write(2)` (a free function: `IncomingFile.write` shadows the name inside it).
private func writeSome(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    write(descriptor, bytes.baseAddress, bytes.count)
}

/// Reads a content file in chunks. Owns its file descriptor.
final class ContentReader {
    private let path: String
    private let descriptor: Int32

    fileprivate init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw MediaFileError("open", path) }
    }

    deinit { close(descriptor) }

    /// The next up to `limit` bytes; nil at the end.
    func next(limit: Int) throws -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: limit)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, limit) }
            if count < 0 {
                if errno == EINTR { continue }
                throw MediaFileError("read", path)
            }
            if count == 0 { return nil }
            chunk.removeSubrange(count...)
            return chunk
        }
    }
}

/// A file operation on the media folder failed.
struct MediaFileError: Error, CustomStringConvertible {
    let description: String

    init(_ operation: String, _ path: String) {
        description = "\(operation) \(path): \(String(cString: strerror(errno)))"
    }
}

/// One lock per content hash, held across suspension points (an upload holds it while it
/// commits its record). Waiters are resumed in arrival order.
final class ContentLocks: Sendable {
    private let waiters = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    func lock(_ key: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = waiters.withLock { waiters -> Bool in
                guard var queue = waiters[key] else {
                    waiters[key] = []  // held, nobody waiting
                    return true
                }
                queue.append(continuation)
                waiters[key] = queue
                return false
            }
            if acquired { continuation.resume() }
        }
    }

    func unlock(_ key: String) {
        let next = waiters.withLock { waiters -> CheckedContinuation<Void, Never>? in
            guard var queue = waiters[key], !queue.isEmpty else {
                waiters[key] = nil
                return nil
            }
            let next = queue.removeFirst()
            waiters[key] = queue
            return next
        }
        next?.resume()  // the lock passes to it
    }
}
