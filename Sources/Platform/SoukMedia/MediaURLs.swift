import CSodium
import SoukKit
import SoukStore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the server's media URLs are made: given by the server's flags.
public struct MediaURLSettings: Sendable {
    /// The address clients reach the server at (`https://souk.example.com`), without a trailing
    /// slash; nil until the server knows its listening address.
    public var publicURL: String?
    /// How long a signed URL of private media stays valid.
    public var signedLifetime: Duration

    public init(publicURL: String? = nil, signedLifetime: Duration = .seconds(3600)) {
        self.publicURL = publicURL
        self.signedLifetime = signedLifetime
    }
}

/// Media URLs: `<public URL>/media/<marketplace id>/<media id>`, plain for public media and
/// signed with an expiry for private media (`?expires=<unix seconds>&signature=<hex>`).
///
/// The signature is HMAC-SHA256 under a key kept in `<data-dir>/media/.url-key` (32 random bytes,
/// made with mode 0600 at first start): it survives restarts, and servers sharing a store's copy
/// must share the file. Backups leave it out (a dot-file); a restored server makes a new key, so
/// the signed URLs it gave before stop working, which their short life allows.
public final class MediaURLs: Sendable {
    /// The path every media URL starts with.
    public static let pathPrefix = pathPrefixUTF8.description
    /// `pathPrefix` as bytes, for matching a request's path in place.
    static let pathPrefixUTF8: StaticString = "/media/"
    /// The key file's name in the media folder.
    static let keyFileName = ".url-key"

    private let key: [UInt8]
    private let base: Mutex<String>
    /// Seconds a signed URL stays valid.
    let signedLifetimeSeconds: Int64

    init(key: [UInt8], settings: MediaURLSettings) {
        precondition(key.count == Int(crypto_auth_hmacsha256_KEYBYTES))
        self.key = key
        base = Mutex(settings.publicURL.map(Self.trimmed) ?? "http://localhost")
        signedLifetimeSeconds = max(1, settings.signedLifetime.components.seconds)
    }

    /// Sets the address the URLs start with (the server's listening address when no public URL
    /// was given).
    public func setPublicURL(_ url: String) {
        base.withLock { $0 = Self.trimmed(url) }
    }

    /// The URL of `record` for a caller who may read it: plain when anyone may, else signed and
    /// valid for the signed lifetime from `now` (up to a twelfth more).
    func url(of record: StoredRecord<MediaRecord>, now: Int64) -> String {
        let path = Self.path(marketplace: record.value.marketplaceID.description, media: record.id.description)
        let base = base.withLock { $0 }
        guard !record.value.isPublic else { return base + path }
        // Rounded up to a twelfth of the lifetime: the answers of a few minutes share one URL,
        // which image caches then find again.
        let step = max(1, signedLifetimeSeconds / 12)
        let expires = (now + signedLifetimeSeconds + step - 1) / step * step
        return base + path + "?expires=\(expires)&signature=\(signature(path: path, expires: expires))"
    }

    static func path(marketplace: String, media: String) -> String {
        pathPrefix + marketplace + "/" + media
    }

    /// The hex HMAC-SHA256 of the path and the expiry.
    func signature(path: String, expires: Int64) -> String {
        let message = Array("\(path)\n\(expires)".utf8)
        var mac = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        _ = crypto_auth_hmacsha256(&mac, message, UInt64(message.count), key)
        return ContentAddress.hex(mac)
    }

    /// Whether `signature` signs `path` until `expires`, and `now` is not past it. The comparison
    /// takes the same time whatever bytes differ.
    func verify(path: String, expires: Int64, signature: String, now: Int64) -> Bool {
        guard now <= expires else { return false }
        let expected = Array(self.signature(path: path, expires: expires).utf8)
        let given = Array(signature.utf8)
        guard given.count == expected.count else { return false }
        return sodium_memcmp(given, expected, expected.count) == 0
    }

    /// The key in `path`, made (32 random bytes, mode 0600) when the file does not exist yet.
    static func loadKey(at path: String) throws -> [UInt8] {
        let length = Int(crypto_auth_hmacsha256_KEYBYTES)
        if let key = try readKey(path, length: length) { return key }
        guard sodium_init() >= 0 else { throw MediaFileError("sodium_init", path) }
        var key = [UInt8](repeating: 0, count: length)
        key.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, length) }
        let temporary = path + ".\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw MediaFileError("create", temporary) }
        let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress, length) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == length, synced else {
            unlink(temporary)
            throw MediaFileError("write", temporary)
        }
        // link, not rename: a key another process made meanwhile wins, and both use it.
        if link(temporary, path) != 0 && errno != EEXIST {
            unlink(temporary)
            throw MediaFileError("link", path)
        }
        unlink(temporary)
        guard let stored = try readKey(path, length: length) else { throw MediaFileError("read", path) }
        return stored
    }

    private static func readKey(_ path: String, length: Int) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw MediaFileError("open", path)
        }
        defer { close(descriptor) }
        var key = [UInt8](repeating: 0, count: length)
        guard key.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, length) }) == length else {
            throw MediaFileError("read (a media URL key is \(length) bytes)", path)
        }
        return key
    }

    private static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
