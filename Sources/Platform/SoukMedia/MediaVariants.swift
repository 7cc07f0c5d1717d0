import SoukKit
import SoukStore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sizes of an image a media URL offers (`?size=`).
public enum MediaSize: String, CaseIterable, Sendable {
    /// For lists: 256 px on the long side.
    case thumb
    /// For detail pages: 1280 px on the long side.
    case screen

    /// The longest side, in pixels; an original smaller than this keeps its size.
    public var longSide: Int {
        switch self {
        case .thumb: 256
        case .screen: 1280
        }
    }

    /// Content types libvips makes sizes of.
    static func offered(for contentType: String) -> Bool {
        ["image/jpeg", "image/png", "image/webp", "image/gif", "image/heic"].contains(contentType)
    }
}

/// The sizes made of uploaded images, kept on disk beside the originals so each is made once.
///
/// A size's bytes are content-addressed like the originals (`<root>/ab/cdef…`, named by their own
/// SHA-256), so backups copy them and verification checks them like any uploaded file. Which
/// file holds the size of which original is kept in `<root>/.index/<size>/<original's SHA-256>`
/// (and in memory): a dot-folder backups leave out, so after a restore a size is simply made
/// again, which lands on the same file. Each (original, size) is made by one request at a time;
/// the others wait for it. Files are written to `<root>/.incoming` and renamed into place.
public final class MediaVariants: Sendable {
    /// The folder's name in the store's directory, one of the schema's file folders.
    public static let folderName = "media-variants"

    public let root: String
    private let locks = ContentLocks()
    /// `<size>/<original hex>` → the size's own hex, for the sizes seen since start.
    private let known = Mutex<[String: String]>([:])

    /// Opens the folder at `root`, creating it, and removes files a crash left unfinished.
    public init(root: String) throws {
        self.root = root
        for directory in [root, root + "/.incoming", root + "/.index"] + MediaSize.allCases.map({ root + "/.index/" + $0.rawValue }) {
            guard mkdir(directory, 0o755) == 0 || errno == EEXIST else { throw MediaFileError("create directory", directory) }
        }
        if let handle = opendir(root + "/.incoming") {
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink(root + "/.incoming/" + name) }
            }
        }
    }

    /// The path of `size` of the original whose content is `hex` (at `originalPath`), making it
    /// first when it is not on disk.
    public func path(of size: MediaSize, original hex: String, at originalPath: String) async throws -> String {
        let key = size.rawValue + "/" + hex
        if let path = existing(key) { return path }
        await locks.lock(key)
        defer { locks.unlock(key) }
        if let path = existing(key) { return path }  // made while this waited
        let image = try Vips.thumbnail(path: originalPath, longSide: size.longSide)
        var hasher = SHA256()
        image.bytes.withUnsafeBytes { hasher.update($0) }
        let variantHex = ContentAddress.hex(hasher.finish())
        let target = ContentAddress.path(folder: root, hex: variantHex)
        if access(target, F_OK) != 0 {
            let directory = root + "/" + variantHex.prefix(2)
            guard mkdir(directory, 0o755) == 0 || errno == EEXIST else { throw MediaFileError("create directory", directory) }
            try writeAtomically(image.bytes, to: target)
        }
        try writeAtomically(Array(variantHex.utf8), to: indexPath(key))
        known.withLock { $0[key] = variantHex }
        return target
    }

    /// Deletes the sizes of an original whose file was deleted. A size shared with another
    /// original (the same pixels) is made again when that one asks for it.
    func remove(original hex: String) {
        for size in MediaSize.allCases {
            let key = size.rawValue + "/" + hex
            if let variantHex = recorded(key) { unlink(ContentAddress.path(folder: root, hex: variantHex)) }
            unlink(indexPath(key))
            _ = known.withLock { $0.removeValue(forKey: key) }
        }
    }

    /// The file of a size made before, if it is still there.
    private func existing(_ key: String) -> String? {
        guard let variantHex = recorded(key) else { return nil }
        let path = ContentAddress.path(folder: root, hex: variantHex)
        guard access(path, F_OK) == 0 else {
            _ = known.withLock { $0.removeValue(forKey: key) }
            return nil
        }
        return path
    }

    private func recorded(_ key: String) -> String? {
        if let variantHex = known.withLock({ $0[key] }) { return variantHex }
        let descriptor = open(indexPath(key), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        guard bytes.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, 64) }) == 64 else { return nil }
        let variantHex = String(decoding: bytes, as: UTF8.self)
        guard variantHex.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        known.withLock { $0[key] = variantHex }
        return variantHex
    }

    private func indexPath(_ key: String) -> String { root + "/.index/" + key }

    /// Writes `bytes` to a temporary file, flushes it and renames it to `path`: readers see the
    /// whole file or none.
    private func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let temporary = root + "/.incoming/" + UInt64.random(in: .min ... .max).description
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw MediaFileError("create", temporary) }
        var failed: MediaFileError?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failed = MediaFileError("write", temporary)
                    return
                }
                offset += written
            }
        }
        if failed == nil, fsync(descriptor) != 0 { failed = MediaFileError("fsync", temporary) }
        close(descriptor)
        if failed == nil, rename(temporary, path) != 0 { failed = MediaFileError("rename", temporary) }
        if let failed {
            unlink(temporary)
            throw failed
        }
    }
}
