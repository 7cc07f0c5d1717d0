/// The key layout of the store; one place for every prefix.
///
/// - record:          `R | table | id(16)`                       → envelope + payload
/// - index entry:     `I | index | fields… | id(16)`              → empty
/// - unique entry:    `U | index | fields…`                       → id(16)
/// - idempotency:     `K | scope… | key`                          → expiry, request hash, response
/// - its expiry:      `X | expiry | K-key`                        → empty
/// - event:           `E | stream | sequence(8)`                  → time + payload
/// - stream head:     `S | stream`                                → last sequence
/// - event by time:   `T | time | stream | sequence(8)`          → empty
/// - metadata:        `M | name`                                  → value (index states, format)
///
/// Names (tables, indexes, streams) are encoded as order-preserving strings, so one name is never
/// a prefix of another's keys.
enum KeySpace {
    static let record: UInt8 = UInt8(ascii: "R")
    static let index: UInt8 = UInt8(ascii: "I")
    static let unique: UInt8 = UInt8(ascii: "U")
    static let idempotency: UInt8 = UInt8(ascii: "K")
    static let idempotencyExpiry: UInt8 = UInt8(ascii: "X")
    static let event: UInt8 = UInt8(ascii: "E")
    static let streamHead: UInt8 = UInt8(ascii: "S")
    static let eventTime: UInt8 = UInt8(ascii: "T")
    static let metadata: UInt8 = UInt8(ascii: "M")

    /// `tag | name` — the prefix shared by every key of one table, index or stream.
    static func prefix(_ tag: UInt8, _ name: String, extraCapacity: Int = 32) -> [UInt8] {
        var key = [UInt8]()
        key.reserveCapacity(name.utf8.count + 3 + extraCapacity)
        key.append(tag)
        KeyPart.string(name).encode(into: &key)
        return key
    }

    static func recordKey(table prefix: [UInt8], id: RecordID) -> [UInt8] {
        var key = prefix
        id.appendBytes(to: &key)
        return key
    }

    /// The least key greater than every key that starts with `prefix`, or nil when there is none.
    static func upperBound(ofPrefix prefix: [UInt8]) -> [UInt8]? {
        var bound = prefix
        while let last = bound.last {
            if last == 0xFF {
                bound.removeLast()
            } else {
                bound[bound.count - 1] = last + 1
                return bound
            }
        }
        return nil
    }

    /// The least key greater than `key` itself.
    static func successor(of key: [UInt8]) -> [UInt8] {
        key + [0]
    }

    /// Reads the trailing 16-byte identifier of an index-entry key.
    static func trailingID(of key: UnsafeRawBufferPointer) -> RecordID? {
        guard key.count >= 16 else { return nil }
        return RecordID(bytes: UnsafeRawBufferPointer(rebasing: key[(key.count - 16)...]))
    }

    static func readUInt64(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<8 { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }

    static func appendUInt64(_ value: UInt64, to bytes: inout [UInt8]) {
        KeyPart.appendBigEndian(value, to: &bytes)
    }
}
