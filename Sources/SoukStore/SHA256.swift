import CSodium

/// SHA-256 computed as the bytes arrive (libsodium's `crypto_hash_sha256`). The state is a plain
/// C struct held by value: nothing to free.
public struct SHA256 {
    private var state = crypto_hash_sha256_state()

    public init() {
        _ = SHA256.sodiumReady
        crypto_hash_sha256_init(&state)
    }

    /// `sodium_init` once per process, before first use (it picks the fastest implementation).
    private static let sodiumReady: Void = {
        guard sodium_init() >= 0 else { fatalError("sodium_init failed: libsodium could not initialise") }
    }()

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        crypto_hash_sha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// The 32-byte digest; the hasher is spent afterwards.
    public mutating func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256_final(&state, &digest)
        return digest
    }

    /// The digest of `bytes` in one go.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finish()
    }
}
