import SoukAccess
import SoukMessages
import SoukStore

/// The bytes of a stored record: fields written in a fixed order, each length-prefixed where
/// needed. Records start with a format byte; a reader given an older, shorter record gets
/// defaults for the fields added since (`isAtEnd`), so fields are only ever appended.
package struct RecordWriter {
    package var bytes: [UInt8]

    /// Takes over `bytes` (without copying) and appends the format byte; hand the bytes back with `finish`.
    package init(taking bytes: inout [UInt8], format: UInt8 = 1) {
        self.bytes = []
        swap(&self.bytes, &bytes)
        self.bytes.append(format)
    }

    /// Moves the written bytes back into `bytes`.
    package mutating func finish(into bytes: inout [UInt8]) {
        swap(&self.bytes, &bytes)
    }

    package mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    package mutating func int(_ value: Int64) { varint(UInt64(bitPattern: value)) }
    package mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    package mutating func time(_ value: StoreTime) { int(value.microsecondsSinceEpoch) }
    package mutating func id(_ value: RecordID) { value.appendBytes(to: &bytes) }

    package mutating func data(_ value: some Collection<UInt8>) {
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    package mutating func string(_ value: String) { data(value.utf8) }

    package mutating func message<M: ProtoMessage>(_ value: M) {
        value.withEncodedBytes { data($0) }
    }

    package mutating func list<T>(_ values: [T], _ write: (inout RecordWriter, T) -> Void) {
        varint(UInt64(values.count))
        for value in values { write(&self, value) }
    }
}

/// Reads what `RecordWriter` wrote, in the same order.
package struct RecordReader {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    /// The record's format byte.
    package let format: UInt8

    package init(_ bytes: UnsafeRawBufferPointer) throws {
        guard let format = bytes.first else { throw RecordCodingError("empty record") }
        self.bytes = bytes
        self.format = format
        position = 1
    }

    package var isAtEnd: Bool { position >= bytes.count }

    package mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            guard position < bytes.count else { throw RecordCodingError("truncated number") }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 { return value }
        }
        throw RecordCodingError("number too long")
    }

    package mutating func int() throws -> Int64 { Int64(bitPattern: try varint()) }

    package mutating func bool() throws -> Bool {
        guard position < bytes.count else { throw RecordCodingError("truncated flag") }
        defer { position += 1 }
        return bytes[position] != 0
    }

    package mutating func time() throws -> StoreTime { StoreTime(microsecondsSinceEpoch: try int()) }

    package mutating func id() throws -> RecordID {
        guard bytes.count - position >= 16 else { throw RecordCodingError("truncated identifier") }
        defer { position += 16 }
        return RecordID(bytes: UnsafeRawBufferPointer(rebasing: bytes[position..<position + 16]))!
    }

    package mutating func data() throws -> UnsafeRawBufferPointer {
        let count = try varint()
        guard count <= UInt64(bytes.count - position) else { throw RecordCodingError("truncated field") }
        defer { position += Int(count) }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<position + Int(count)])
    }

    package mutating func bytesValue() throws -> [UInt8] { Array(try data()) }

    package mutating func string() throws -> String {
        let data = try data()
        guard let string = String(validating: data, as: UTF8.self) else { throw RecordCodingError("text is not UTF-8") }
        return string
    }

    package mutating func message<M: ProtoMessage>(_ type: M.Type) throws -> M {
        try M(decoding: try data())
    }

    package mutating func list<T>(_ read: (inout RecordReader) throws -> T) throws -> [T] {
        let count = try varint()
        guard count <= UInt64(bytes.count - position) else { throw RecordCodingError("list longer than the record") }
        var values: [T] = []
        values.reserveCapacity(Int(count))
        for _ in 0..<count { values.append(try read(&self)) }
        return values
    }
}

/// A stored record that cannot be read.
package struct RecordCodingError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// A record codec from a pair of functions over `RecordWriter` and `RecordReader`.
package struct FieldCodec<Value>: RecordCodec {
    package let write: @Sendable (Value, inout RecordWriter) -> Void
    package let read: @Sendable (inout RecordReader) throws -> Value

    package init(write: @escaping @Sendable (Value, inout RecordWriter) -> Void, read: @escaping @Sendable (inout RecordReader) throws -> Value) {
        self.write = write
        self.read = read
    }

    package func encode(_ value: Value, into bytes: inout [UInt8]) throws {
        var writer = RecordWriter(taking: &bytes)
        write(value, &writer)
        writer.finish(into: &bytes)
    }

    package func decode(_ bytes: UnsafeRawBufferPointer) throws -> Value {
        var reader = try RecordReader(bytes)
        return try read(&reader)
    }
}

extension FieldCodec {
    /// The codec of a record that is its marketplace's id and one message, in that order (every
    /// `MarketRecord` table: audit entries, mail, saved addresses, payments, ...).
    package static func marketplaceMessage<M: ProtoMessage>(
        _ type: M.Type, split: @escaping @Sendable (Value) -> (marketplaceID: String, message: M),
        make: @escaping @Sendable (String, M) -> Value
    ) -> FieldCodec<Value> {
        FieldCodec(
            write: { value, writer in
                let (marketplaceID, message) = split(value)
                writer.string(marketplaceID)
                writer.message(message)
            },
            read: { reader in make(try reader.string(), try reader.message(M.self)) })
    }
}

/// A record codec for a protobuf message stored as it is (idempotent responses, marketplaces).
package struct MessageCodec<M: ProtoMessage>: RecordCodec {
    package init() {}

    package func encode(_ value: M, into bytes: inout [UInt8]) throws {
        value.withEncodedBytes { bytes.append(contentsOf: $0) }
    }

    package func decode(_ bytes: UnsafeRawBufferPointer) throws -> M {
        try M(decoding: bytes)
    }
}
