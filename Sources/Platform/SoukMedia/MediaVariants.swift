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

/// One size of one image on disk.
public struct MediaVariant: Sendable {
    /// The SHA-256 of its bytes (its file's name).
    public var hex: String
    public var path: String
    /// `image/jpeg`, or `image/png` for an image with transparency.
    public var contentType: String
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
    /// `<size>/<original hex>` → the size's own hex and content type, for the sizes seen since start.
    private let known = Mutex<[String: MediaVariant]>([:])

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
    public func variant(of size: MediaSize, original hex: String, at originalPath: String) async throws -> MediaVariant {
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
        let variant = MediaVariant(hex: variantHex, path: target, contentType: image.contentType)
        known.withLock { $0[key] = variant }
        return variant
    }

    /// Deletes the sizes of an original whose file was deleted. A size shared with another
    /// original (the same pixels) is made again when that one asks for it.
    func remove(original hex: String) {
        for size in MediaSize.allCases {
            let key = size.rawValue + "/" + hex
            if let variant = recorded(key) { unlink(variant.path) }
            unlink(indexPath(key))
            _ = known.withLock { $0.removeValue(forKey: key) }
        }
    }

    /// The file of a size made before, if it is still there.
    private func existing(_ key: String) -> MediaVariant? {
        guard let variant = recorded(key) else { return nil }
        guard access(variant.path, F_OK) == 0 else {
            _ = known.withLock { $0.removeValue(forKey: key) }
            return nil
        }
        return variant
    }

    /// What memory or the index says about a size; its type is read from the file's first byte
    /// once after a restart.
    private func recorded(_ key: String) -> MediaVariant? {
        if let variant = known.withLock({ $0[key] }) { return variant }
        let descriptor = open(indexPath(key), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        guard bytes.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, 64) }) == 64 else { return nil }
        let variantHex = String(decoding: bytes, as: UTF8.self)
        guard variantHex.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        let path = ContentAddress.path(folder: root, hex: variantHex)
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var first: UInt8 = 0
        guard read(file, &first, 1) == 1 else { return nil }
        let variant = MediaVariant(hex: variantHex, path: path, contentType: first == 0x89 ? "image/png" : "image/jpeg")
        known.withLock { $0[key] = variant }
        return variant
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
