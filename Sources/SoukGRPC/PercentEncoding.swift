/// The percent-encoding of `grpc-message`: UTF-8, with every byte outside 0x20...0x7E and
/// every `%` written as `%XX` (upper-case hex). A space at either end is escaped too: HTTP/2
/// forbids leading and trailing white space in a field value, and strict clients reject it.
public enum GRPCMessageEncoding {
    /// Encodes a status message for the `grpc-message` header.
    public static func encode(_ message: String) -> String {
        let utf8 = message.utf8
        let spaceAtEnds = utf8.first == 0x20 || utf8.last == 0x20
        guard spaceAtEnds || utf8.contains(where: needsEscape) else { return message }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 16)
        for (offset, byte) in utf8.enumerated() {
            let atEnd = offset == 0 || offset == utf8.count - 1
            if needsEscape(byte) || (byte == 0x20 && atEnd) {
                bytes.append(0x25)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes a `grpc-message` value. Never fails, as the spec requires: a `%` not followed by
    /// two hex digits is kept as it is, and bytes that are not UTF-8 become U+FFFD.
    public static func decode(_ value: String) -> String {
        let utf8 = value.utf8
        guard utf8.contains(0x25) else { return value }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == 0x25,
                let first = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), first != utf8.endIndex,
                let second = utf8.index(first, offsetBy: 1, limitedBy: utf8.endIndex), second != utf8.endIndex,
                let high = hexValue(utf8[first]), let low = hexValue(utf8[second])
            {
                bytes.append(high << 4 | low)
                index = utf8.index(after: second)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte > 0x7E || byte == 0x25
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
