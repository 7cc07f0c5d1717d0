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

    /// BLAKE2b (libsodium's `crypto_generichash`) of `input`, 32 bytes, unkeyed or keyed with
    /// `key` (16 to 64 bytes; a keyed hash is unrelated to the unkeyed one of the same input).
    static func blake2b256(_ input: some Collection<UInt8>, key: [UInt8] = []) -> [UInt8] {
        _ = ready
        var out = [UInt8](repeating: 0, count: 32)
        let status = Array(input).withUnsafeBufferPointer { bytes in
            key.withUnsafeBufferPointer { key in
                out.withUnsafeMutableBufferPointer { out in
                    crypto_generichash(out.baseAddress!, 32, bytes.baseAddress, UInt64(bytes.count), key.baseAddress, key.count)
                }
            }
        }
        // crypto_generichash fails only for output or key lengths outside its limits.
        precondition(status == 0, "crypto_generichash rejected a 32-byte output or a \(key.count)-byte key")
        return out
    }

    /// `plaintext` encrypted and authenticated (XChaCha20-Poly1305, IETF) under a 32-byte `key`
    /// and bound to `context`, with its random nonce in front.
    static func seal(_ plaintext: [UInt8], key: [UInt8], context: [UInt8]) -> [UInt8] {
        precondition(key.count == Int(crypto_aead_xchacha20poly1305_ietf_keybytes()), "seal needs a 32-byte key")
        let nonce = randomBytes(Int(crypto_aead_xchacha20poly1305_ietf_npubbytes()))
        var sealed = [UInt8](repeating: 0, count: plaintext.count + Int(crypto_aead_xchacha20poly1305_ietf_abytes()))
        var length: UInt64 = 0
        let status = crypto_aead_xchacha20poly1305_ietf_encrypt(
            &sealed, &length, plaintext, UInt64(plaintext.count), context, UInt64(context.count), nil, nonce, key)
        // Encryption fails only for messages longer than libsodium's limit (2^64 bytes).
        precondition(status == 0, "crypto_aead_xchacha20poly1305_ietf_encrypt failed")
        return nonce + sealed.prefix(Int(length))
    }

    /// The plaintext `seal` sealed; nil when the key or context differs or the bytes were altered.
    static func open(_ sealed: [UInt8], key: [UInt8], context: [UInt8]) -> [UInt8]? {
        let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_npubbytes())
        let tagBytes = Int(crypto_aead_xchacha20poly1305_ietf_abytes())
        guard key.count == Int(crypto_aead_xchacha20poly1305_ietf_keybytes()), sealed.count >= nonceBytes + tagBytes else {
            return nil
        }
        let nonce = Array(sealed.prefix(nonceBytes))
        let ciphertext = Array(sealed.dropFirst(nonceBytes))
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count - tagBytes)
        var length: UInt64 = 0
        let status = crypto_aead_xchacha20poly1305_ietf_decrypt(
            &plaintext, &length, nil, ciphertext, UInt64(ciphertext.count), context, UInt64(context.count), nonce, key)
        return status == 0 ? Array(plaintext.prefix(Int(length))) : nil
    }
}
