/// One field of an index key, encoded so that byte order equals value order.
///
/// Encodings (all without type tags, since each index position always holds the same type):
/// strings and bytes escape `00` as `00 FF` and end with `00 01`, so a shorter value sorts before
/// any longer value it starts, and a key prefix can never stop in the middle of a field; signed
/// integers and timestamps are big-endian with the sign bit flipped; unsigned integers are
/// big-endian; enums are 32-bit signed values; identifiers are their 16 bytes.
public enum KeyPart: Hashable, Sendable {
    case string(String)
    case bytes([UInt8])
    case int(Int64)
    case uint(UInt64)
    case enumCase(Int32)
    case bool(Bool)
    case time(StoreTime)
    case id(RecordID)

    /// An `Int`-valued field.
    public static func int(_ value: Int) -> KeyPart { .int(Int64(value)) }

    /// An enum whose raw value is a 32-bit integer (protobuf enums) or an `Int`.
    public static func enumCase<E: RawRepresentable>(_ value: E) -> KeyPart where E.RawValue: BinaryInteger {
        .enumCase(Int32(truncatingIfNeeded: value.rawValue))
    }

    /// Appends the order-preserving encoding of this part to `key`.
    @inlinable
    public func encode(into key: inout [UInt8]) {
        switch self {
        case .string(let s):
            var s = s
            s.withUTF8 { KeyPart.appendEscaped($0, to: &key) }
        case .bytes(let b):
            b.withUnsafeBufferPointer { KeyPart.appendEscaped($0, to: &key) }
        case .int(let v):
            KeyPart.appendBigEndian(UInt64(bitPattern: v) ^ (1 << 63), to: &key)
        case .uint(let v):
            KeyPart.appendBigEndian(v, to: &key)
        case .enumCase(let v):
            let u = UInt32(bitPattern: v) ^ (1 << 31)
            key.append(UInt8(truncatingIfNeeded: u >> 24))
            key.append(UInt8(truncatingIfNeeded: u >> 16))
            key.append(UInt8(truncatingIfNeeded: u >> 8))
            key.append(UInt8(truncatingIfNeeded: u))
        case .bool(let b):
            key.append(b ? 1 : 0)
        case .time(let t):
            KeyPart.appendBigEndian(UInt64(bitPattern: t.microsecondsSinceEpoch) ^ (1 << 63), to: &key)
        case .id(let id):
            id.appendBytes(to: &key)
        }
    }

    @usableFromInline
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to key: inout [UInt8]) {
        for byte in bytes {
            key.append(byte)
            if byte == 0 { key.append(0xFF) }
        }
        key.append(0)
        key.append(1)
    }

    @usableFromInline
    static func appendBigEndian(_ value: UInt64, to key: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) {
            key.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}

extension KeyPart: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension KeyPart: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension Array where Element == KeyPart {
    /// The concatenated order-preserving encoding of the parts.
    func encoded(into key: inout [UInt8]) {
        for part in self { part.encode(into: &key) }
    }
}
