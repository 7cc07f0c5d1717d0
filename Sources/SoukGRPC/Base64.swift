import ExtrasBase64

/// Base64 (RFC 4648 §4, the standard alphabet) for `-bin` metadata values.
///
/// gRPC peers must accept padded and unpadded values and should send unpadded ones.
package enum MetadataBase64 {
    /// Encodes bytes without padding.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64.encodeToString(bytes: bytes, options: .omitPaddingCharacter)
    }

    /// Decodes a padded or unpadded value; nil when it is not valid base64.
    package static func decode(_ text: Substring) -> [UInt8]? {
        var utf8 = text.utf8[...]
        // Up to two '=' of padding, and only when they complete a 4-character group.
        if utf8.count % 4 == 0, utf8.last == UInt8(ascii: "=") {
            utf8 = utf8.dropLast()
            if utf8.last == UInt8(ascii: "=") { utf8 = utf8.dropLast() }
        }
        // Any other '=' is misplaced padding.
        guard !utf8.contains(UInt8(ascii: "=")) else { return nil }
        return try? Base64.decode(bytes: utf8, options: .omitPaddingCharacter)
    }
}
