/// The protobuf wire format, read over borrowed bytes and written into a growing array: what the
/// descriptor parser and both directions of the JSON mapping share.

/// Wire types of the protobuf encoding.
enum WireType: UInt8 {
    case varint = 0, fixed64 = 1, lengthDelimited = 2, startGroup = 3, endGroup = 4, fixed32 = 5
}

/// Reads protobuf fields from borrowed bytes; `fail` names what was wrong, the caller adds where.
struct WireReader {
    let base: UnsafeRawBufferPointer
    var position: Int
    let end: Int

    init(_ base: UnsafeRawBufferPointer, range: Range<Int>) {
        self.base = base
        position = range.lowerBound
        end = range.upperBound
    }

    init(_ base: UnsafeRawBufferPointer) {
        self.init(base, range: 0..<base.count)
    }

    var isAtEnd: Bool { position >= end }

    @inline(__always)
    mutating func varint() throws(WireError) -> UInt64 {
        if position < end {
            let first = base[position]
            if first < 0x80 {
                position += 1
                return UInt64(first)
            }
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw WireError("truncated varint") }
            let byte = base[position]
            position += 1
            if shift == 63 && byte > 1 { throw WireError("varint too long") }
            value |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    mutating func fixed32() throws(WireError) -> UInt32 {
        guard end - position >= 4 else { throw WireError("truncated fixed32") }
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(base[position + i]) << UInt32(8 * i) }
        position += 4
        return value
    }

    mutating func fixed64() throws(WireError) -> UInt64 {
        guard end - position >= 8 else { throw WireError("truncated fixed64") }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(base[position + i]) << UInt64(8 * i) }
        position += 8
        return value
    }

    /// A length-delimited field's payload range; the reader moves past it.
    mutating func lengthDelimited() throws(WireError) -> Range<Int> {
        let length = try varint()
        guard length <= UInt64(end - position) else { throw WireError("truncated length-delimited field") }
        let start = position
        position += Int(length)
        return start..<position
    }

    /// Reads a tag: the field number and wire type.
    @inline(__always)
    mutating func tag() throws(WireError) -> (number: Int32, wireType: WireType) {
        let tag = try varint()
        let number = tag >> 3
        guard number > 0, number <= 536_870_911 else { throw WireError("invalid field number \(number)") }
        guard let wireType = WireType(rawValue: UInt8(tag & 7)) else { throw WireError("invalid wire type \(tag & 7)") }
        return (Int32(number), wireType)
    }

    /// Moves past a field's value; a group is skipped with everything inside it.
    mutating func skip(_ wireType: WireType, number: Int32, depth: Int = 0) throws(WireError) {
        switch wireType {
        case .varint: _ = try varint()
        case .fixed64:
            guard end - position >= 8 else { throw WireError("truncated fixed64") }
            position += 8
        case .fixed32:
            guard end - position >= 4 else { throw WireError("truncated fixed32") }
            position += 4
        case .lengthDelimited: _ = try lengthDelimited()
        case .startGroup:
            guard depth < 100 else { throw WireError("groups nested too deeply") }
            while true {
                let (inner, innerType) = try tag()
                if innerType == .endGroup {
                    guard inner == number else { throw WireError("mismatched end of group") }
                    return
                }
                try skip(innerType, number: inner, depth: depth + 1)
            }
        case .endGroup: throw WireError("unexpected end of group")
        }
    }

    func string(_ range: Range<Int>) -> String? {
        let bytes = UnsafeRawBufferPointer(rebasing: base[range])
        return validUTF8(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }
}

/// What was wrong with protobuf bytes.
struct WireError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Appends protobuf fields to a byte array.
struct WireWriter {
    var bytes: [UInt8] = []

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func tag(_ number: Int32, _ wireType: WireType) {
        varint(UInt64(UInt32(number)) << 3 | UInt64(wireType.rawValue))
    }

    mutating func fixed32(_ value: UInt32) {
        for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(8 * i))) }
    }

    mutating func fixed64(_ value: UInt64) {
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * i))) }
    }

    mutating func lengthDelimited(_ number: Int32, _ payload: some Collection<UInt8>) {
        tag(number, .lengthDelimited)
        varint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    /// Writes a length-delimited field whose payload `body` appends; the length is patched in
    /// afterwards (one byte reserved, the payload moved only when it is 128 bytes or longer).
    mutating func nested<E: Error>(_ number: Int32, _ body: (inout WireWriter) throws(E) -> Void) throws(E) {
        tag(number, .lengthDelimited)
        let lengthAt = bytes.count
        bytes.append(0)
        try body(&self)
        let length = bytes.count - lengthAt - 1
        if length < 0x80 {
            bytes[lengthAt] = UInt8(length)
            return
        }
        var prefix: [UInt8] = []
        var value = UInt64(length)
        while value >= 0x80 {
            prefix.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        prefix.append(UInt8(value))
        bytes.replaceSubrange(lengthAt..<lengthAt + 1, with: prefix)
    }
}

@inline(__always) func zigZagDecode32(_ value: UInt64) -> Int32 {
    let v = UInt32(truncatingIfNeeded: value)
    return Int32(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
}

@inline(__always) func zigZagDecode64(_ value: UInt64) -> Int64 {
    Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
}

@inline(__always) func zigZagEncode32(_ value: Int32) -> UInt64 {
    UInt64(UInt32(bitPattern: (value << 1) ^ (value >> 31)))
}

@inline(__always) func zigZagEncode64(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
}

/// `Array.withUnsafeBytes` keeping the body's error type (the standard one rethrows `any Error`).
func withBytes<R, E: Error>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    let result: Result<R, E> = bytes.withUnsafeBytes { raw in Result { () throws(E) -> R in try body(raw) } }
    return try result.get()
}
