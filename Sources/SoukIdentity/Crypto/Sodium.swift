import CSodium

/// libsodium, initialised once before first use. No libsodium type leaves this module.
enum Sodium {
    /// Runs `sodium_init` once (it is safe to call repeatedly; later calls return 1).
    static let ready: Void = {
        guard sodium_init() >= 0 else {
            fatalError("sodium_init failed: libsodium could not initialise (no usable random source)")
        }
    }()

    /// `count` bytes from libsodium's cryptographically secure generator.
    static func randomBytes(_ count: Int) -> [UInt8] {
        _ = ready
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, count) }
        return bytes
    }

    /// BLAKE2b (libsodium's `crypto_generichash`) of `input`, 32 bytes, unkeyed.
    static func blake2b256(_ input: some Collection<UInt8>) -> [UInt8] {
        _ = ready
        var out = [UInt8](repeating: 0, count: 32)
        let status = Array(input).withUnsafeBufferPointer { bytes in
            out.withUnsafeMutableBufferPointer { out in
                crypto_generichash(out.baseAddress!, 32, bytes.baseAddress, UInt64(bytes.count), nil, 0)
            }
        }
        // crypto_generichash fails only for output or key lengths outside its limits; 32 is within.
        precondition(status == 0, "crypto_generichash rejected a 32-byte output length")
        return out
    }
}
