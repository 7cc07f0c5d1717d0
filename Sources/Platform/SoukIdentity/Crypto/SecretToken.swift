/// A random 256-bit secret handed to a client (access, refresh or password-reset token) as 43
/// base64url characters. The server keeps only `TokenHash`es of them.
public struct SecretToken: Sendable, Hashable {
    /// The text the client sends back.
    public let text: String

    public init(text: String) {
        self.text = text
    }

    /// A new token from libsodium's random generator.
    public static func generate() -> SecretToken {
        SecretToken(text: base64URL(Sodium.randomBytes(32)))
    }

    /// `count` random bytes from libsodium as lower-case hex (card tokens of the simulated gateway).
    public static func randomHex(bytes count: Int) -> String {
        Sodium.randomBytes(count).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// The stored form.
    public var hash: TokenHash { TokenHash(of: text) }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Base64 with the URL-safe alphabet, without padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var n: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { n |= UInt32(byte) << UInt32(16 - 8 * offset) }
            for position in 0...chunk.count { out.append(alphabet[Int(n >> UInt32(18 - 6 * position) & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// BLAKE2b-256 of a token's text: what sessions and reset records store and are looked up by.
/// Tokens carry 256 random bits, so a fast unkeyed hash suffices (no password-style stretching).
public struct TokenHash: Sendable, Hashable {
    public let bytes: [UInt8]

    public init(of token: String) {
        bytes = Sodium.blake2b256(token.utf8)
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}
