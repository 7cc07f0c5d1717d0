/// The store's own header in front of every record payload.
///
/// Layout (big-endian): format(1) = 1, version(8), created µs(8), updated µs(8), CRC-32C(4) of the
/// other header bytes and the payload, then the payload (opaque bytes from the record codec).
/// The checksum lets a damaged value fail with a clear message instead of decoding garbage.
struct Envelope: Equatable {
    static let format: UInt8 = 1
    static let headerSize = 29

    var version: UInt64
    var createdAt: StoreTime
    var updatedAt: StoreTime

    /// Starts a value: writes the header with a zero checksum; `seal` fills it in after the payload is appended.
    func beginValue(payloadCapacity: Int = 64) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Envelope.headerSize + payloadCapacity)
        bytes.append(Envelope.format)
        KeySpace.appendUInt64(version, to: &bytes)
        KeySpace.appendUInt64(UInt64(bitPattern: createdAt.microsecondsSinceEpoch), to: &bytes)
        KeySpace.appendUInt64(UInt64(bitPattern: updatedAt.microsecondsSinceEpoch), to: &bytes)
        bytes.append(contentsOf: [0, 0, 0, 0])
        return bytes
    }

    /// Computes and stores the checksum of a value made by `beginValue` plus its payload.
    static func seal(_ bytes: inout [UInt8]) {
        let crc = bytes.withUnsafeBytes { checksum(of: $0) }
        bytes[25] = UInt8(truncatingIfNeeded: crc >> 24)
        bytes[26] = UInt8(truncatingIfNeeded: crc >> 16)
        bytes[27] = UInt8(truncatingIfNeeded: crc >> 8)
        bytes[28] = UInt8(truncatingIfNeeded: crc)
    }

    private static func checksum(of value: UnsafeRawBufferPointer) -> UInt32 {
        let header = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: value[0..<25]))
        return CRC32C.checksum(UnsafeRawBufferPointer(rebasing: value[headerSize...]), seed: header)
    }

    /// Reads the header of a stored value and returns it with the payload bytes (a view into `value`).
    static func open(_ value: UnsafeRawBufferPointer) throws(EnvelopeError) -> (Envelope, UnsafeRawBufferPointer) {
        guard value.count >= headerSize else { throw .truncated(byteCount: value.count) }
        guard value[0] == format else { throw .unknownFormat(value[0]) }
        let stored = UInt32(value[25]) << 24 | UInt32(value[26]) << 16 | UInt32(value[27]) << 8 | UInt32(value[28])
        guard stored == checksum(of: value) else { throw .checksumMismatch }
        let envelope = Envelope(
            version: KeySpace.readUInt64(value, at: 1),
            createdAt: StoreTime(microsecondsSinceEpoch: Int64(bitPattern: KeySpace.readUInt64(value, at: 9))),
            updatedAt: StoreTime(microsecondsSinceEpoch: Int64(bitPattern: KeySpace.readUInt64(value, at: 17)))
        )
        return (envelope, UnsafeRawBufferPointer(rebasing: value[headerSize...]))
    }
}

/// Why a stored value is not a valid envelope.
enum EnvelopeError: Error, CustomStringConvertible {
    case truncated(byteCount: Int)
    case unknownFormat(UInt8)
    case checksumMismatch

    var description: String {
        switch self {
        case .truncated(let n): "value truncated: \(n) bytes, shorter than the \(Envelope.headerSize)-byte header"
        case .unknownFormat(let f): "unknown envelope format \(f)"
        case .checksumMismatch: "checksum mismatch (value damaged)"
        }
    }
}
