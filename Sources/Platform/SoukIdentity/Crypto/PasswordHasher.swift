import CSodium
import NIOPosix

/// Argon2id password hashing (libsodium `crypto_pwhash_argon2id_str`), run on a thread pool of
/// its own: one hash takes tens of milliseconds and `memoryKiB` of memory, which must never
/// block an event loop. The pool's size bounds both the CPU and the memory hashing can take.
public final class PasswordHasher: Sendable {
    /// libsodium's INTERACTIVE memory limit (64 MiB), the default.
    public static let defaultMemoryKiB = Int(crypto_pwhash_argon2id_memlimit_interactive() / 1024)
    /// The least memory Argon2id accepts.
    public static let minimumMemoryKiB = Int((crypto_pwhash_argon2id_memlimit_min() + 1023) / 1024)

    /// Memory per hash, in KiB.
    public let memoryKiB: Int
    /// Passes over memory: libsodium's INTERACTIVE operations limit.
    let operations = UInt64(crypto_pwhash_argon2id_opslimit_interactive())
    private let pool: NIOThreadPool
    /// A hash of a random password with the same cost, verified when an e-mail is unknown so
    /// that an unknown e-mail and a wrong password take the same time.
    private let decoyHash: String

    /// Starts `threads` hashing threads. Throws `PasswordHashError` when libsodium refuses the cost.
    public init(memoryKiB: Int = PasswordHasher.defaultMemoryKiB, threads: Int = 2) throws {
        _ = Sodium.ready
        guard memoryKiB >= Self.minimumMemoryKiB, UInt64(memoryKiB) * 1024 <= UInt64(crypto_pwhash_argon2id_memlimit_max()) else {
            throw PasswordHashError(
                "memory limit \(memoryKiB) KiB is outside libsodium's Argon2id range (at least \(Self.minimumMemoryKiB) KiB)")
        }
        self.memoryKiB = memoryKiB
        decoyHash = Self.decoy(operations: UInt64(crypto_pwhash_argon2id_opslimit_interactive()), memoryKiB: memoryKiB)
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }

    /// The Argon2id hash string (algorithm, cost and salt included) of a password.
    public func hash(_ password: String) async throws -> String {
        let (operations, memoryKiB) = (operations, memoryKiB)
        return try await run { try Self.hash(password, operations: operations, memoryKiB: memoryKiB) }
    }

    /// Whether `password` matches a stored hash. A nil hash (unknown account) verifies against
    /// the decoy, spending the same time, and returns false.
    public func verify(_ password: String, against stored: String?) async throws -> Bool {
        let decoy = decoyHash
        return try await run {
            let matches = Self.verify(password, stored ?? decoy)
            return stored != nil && matches
        }
    }

    private func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await pool.runIfActive(body)
        } catch is NIOThreadPoolError.ThreadPoolInactive {
            throw PasswordHashError("the password hashing pool is shut down")
        }
    }

    static func hash(_ password: String, operations: UInt64, memoryKiB: Int) throws -> String {
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_argon2id_strbytes()))
        let status = withCString(password) { password, length in
            crypto_pwhash_argon2id_str(&output, password, length, operations, Int(memoryKiB) * 1024)
        }
        guard status == 0 else {
            // libsodium returns -1 here only when it cannot allocate the memory the cost asks for.
            throw PasswordHashError("crypto_pwhash_argon2id_str failed: out of memory for \(memoryKiB) KiB")
        }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A well-formed hash string of this cost whose salt and digest are random bytes: verifying
    /// any password against it costs a real Argon2id run and fails. Made without hashing, so the
    /// server does not need the hash's memory (64 MiB by default) at startup.
    static func decoy(operations: UInt64, memoryKiB: Int) -> String {
        let salt = base64(Sodium.randomBytes(Int(crypto_pwhash_argon2id_saltbytes())))
        let digest = base64(Sodium.randomBytes(32))
        return "$argon2id$v=19$m=\(memoryKiB),t=\(operations),p=1$\(salt)$\(digest)"
    }

    /// Base64 without padding, as Argon2 hash strings write salts and digests.
    private static func base64(_ bytes: [UInt8]) -> String {
        let variant = sodium_base64_VARIANT_ORIGINAL_NO_PADDING
        var output = [CChar](repeating: 0, count: sodium_base64_encoded_len(bytes.count, variant))
        bytes.withUnsafeBufferPointer { sodium_bin2base64(&output, output.count, $0.baseAddress, bytes.count, variant) }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether libsodium reads `stored` as an Argon2id hash of exactly this cost.
    static func isHash(_ stored: String, operations: UInt64, memoryKiB: Int) -> Bool {
        crypto_pwhash_argon2id_str_needs_rehash(stored, operations, memoryKiB * 1024) == 0
    }

    static func verify(_ password: String, _ stored: String) -> Bool {
        withCString(password) { password, length in
            // -1 means a mismatch, a malformed hash string, or no memory for its cost.
            crypto_pwhash_argon2id_str_verify(stored, password, length) == 0
        }
    }
}

/// The password's UTF-8 bytes (NUL-terminated, so the pointer is valid even when empty) and their count.
private func withCString<R>(_ text: String, _ body: (UnsafePointer<CChar>, UInt64) -> R) -> R {
    var bytes = Array(text.utf8)
    let count = UInt64(bytes.count)
    bytes.append(0)
    return bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!, count) }
    }
}

/// Password hashing could not run.
public struct PasswordHashError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
