#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How files in a schema's file folders are named: by the SHA-256 of their content, as
/// `<folder>/<first two hex digits>/<other 62 hex digits>` (lower case), so no directory grows
/// huge and a file's name says what its content must be. Verification checks exactly that.
public enum ContentAddress {
    /// The path of the content with this SHA-256 inside `folder` (relative to the store's directory).
    public static func path(folder: String, sha256: [UInt8]) -> String {
        path(folder: folder, hex: hex(sha256))
    }

    /// The path of the content whose SHA-256 is `hex` (64 lower-case hex digits) inside `folder`.
    public static func path(folder: String, hex: String) -> String {
        folder + "/" + hex.prefix(2) + "/" + hex.dropFirst(2)
    }

    /// The SHA-256 a file's path inside its folder (`ab/cdef…`) names, as hex; nil when the path
    /// is not a content address.
    static func namedDigest(_ pathInFolder: String) -> String? {
        let parts = pathInFolder.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 2, parts[1].utf8.count == 62 else { return nil }
        let hex = String(parts[0] + parts[1])
        return hex.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } ? hex : nil
    }

    /// Why the file at `path` (whose path inside its folder is `pathInFolder`) does not hold the
    /// content its name says, or nil when it does.
    static func mismatch(file path: String, pathInFolder: String) throws -> String? {
        guard let named = namedDigest(pathInFolder) else {
            return "its name is not a SHA-256 (<2 hex digits>/<62 hex digits>)"
        }
        guard let digest = try fileDigest(path) else { return nil }  // removed meanwhile (purged)
        let actual = hex(digest)
        return actual == named ? nil : "its content's SHA-256 is \(actual), not the \(named) its name says"
    }

    /// Lower-case hex digits of a digest.
    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    /// The digest of a file's content, read in 64 KiB pieces; nil when there is no such file.
    private static func fileDigest(_ path: String) throws -> [UInt8]? {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT { return nil }
            throw StoreError.rocksDB(operation: "open \(path)", message: String(cString: strerror(errno)))
        }
        defer { close(input) }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError.rocksDB(operation: "read \(path)", message: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
        return hasher.finish()
    }
}
