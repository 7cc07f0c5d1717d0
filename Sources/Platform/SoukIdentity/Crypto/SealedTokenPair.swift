import SoukStore

/// An access and a refresh token sealed under a key derived from another token (the refresh
/// token they replaced). Only a holder of that token can open it: the store keeps the token's
/// `TokenHash`, from which the key cannot be computed.
struct SealedTokenPair: Sendable, Equatable {
    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Seals the pair for the holder of `key`, bound to one session.
    init(access: SecretToken, refresh: SecretToken, key: SecretToken, sessionID: RecordID) {
        // Base64url never contains a space, so one separates the two tokens unambiguously.
        bytes = Sodium.seal(Array("\(access.text) \(refresh.text)".utf8), key: Self.sealingKey(key), context: Self.context(sessionID))
    }

    /// The pair, or nil when `key` is not the token it was sealed for or the session differs.
    func open(key: SecretToken, sessionID: RecordID) -> (access: SecretToken, refresh: SecretToken)? {
        guard let plaintext = Sodium.open(bytes, key: Self.sealingKey(key), context: Self.context(sessionID)) else { return nil }
        let parts = plaintext.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        return (SecretToken(text: String(decoding: parts[0], as: UTF8.self)), SecretToken(text: String(decoding: parts[1], as: UTF8.self)))
    }

    /// BLAKE2b keyed with a fixed label: unrelated to the unkeyed `TokenHash` of the same token.
    private static func sealingKey(_ token: SecretToken) -> [UInt8] {
        Sodium.blake2b256(token.text.utf8, key: Array("souk.identity.sealed-token-pair.v1".utf8))
    }

    private static func context(_ sessionID: RecordID) -> [UInt8] {
        var bytes: [UInt8] = []
        sessionID.appendBytes(to: &bytes)
        return bytes
    }
}
