/// Base64 (RFC 4648 §4, the standard alphabet) for `-bin` metadata values.
///
/// gRPC peers must accept padded and unpadded values and should send unpadded ones.
enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The value of each ASCII byte in the alphabet, or 0xFF.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes without padding.
    static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = second == nil ? nil : iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(group >> 18 & 0x3F)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            if second != nil { output.append(alphabet[Int(group >> 6 & 0x3F)]) }
            if third != nil { output.append(alphabet[Int(group & 0x3F)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes a padded or unpadded value; nil when it is not valid base64.
    /// Non-zero unused bits in the last character are tolerated, as most decoders do.
    static func decode(_ text: Substring) -> [UInt8]? {
        var utf8 = text.utf8[...]
        // Up to two '=' of padding, and only when they complete a 4-character group.
        if utf8.count % 4 == 0, utf8.last == 0x3D {
            utf8 = utf8.dropLast()
            if utf8.last == 0x3D { utf8 = utf8.dropLast() }
        }
        if utf8.count % 4 == 1 { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count * 3 / 4)
        var group: UInt32 = 0
        var count = 0
        for byte in utf8 {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            group = group << 6 | UInt32(value)
            count += 1
            if count == 4 {
                output.append(UInt8(group >> 16 & 0xFF))
                output.append(UInt8(group >> 8 & 0xFF))
                output.append(UInt8(group & 0xFF))
                group = 0
                count = 0
            }
        }
        switch count {
        case 2:
            output.append(UInt8(group >> 4 & 0xFF))
        case 3:
            output.append(UInt8(group >> 10 & 0xFF))
            output.append(UInt8(group >> 2 & 0xFF))
        default:
            break
        }
        return output
    }
}
