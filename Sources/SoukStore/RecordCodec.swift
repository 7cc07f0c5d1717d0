/// Turns a table's values into bytes and back; the store never looks inside the bytes.
///
/// A codec for protobuf messages is a few lines: `encode` appends the packed message
/// (`value.withEncodedBytes { bytes.append(contentsOf: $0) }`) and `decode` unpacks it.
public protocol RecordCodec<Value>: Sendable {
    associatedtype Value

    /// Appends the encoding of `value` to `bytes` (which already holds the store's header).
    func encode(_ value: Value, into bytes: inout [UInt8]) throws

    /// Decodes a value from bytes that are valid only during the call. Throws when they are not a valid value.
    func decode(_ bytes: UnsafeRawBufferPointer) throws -> Value
}

/// A record as stored: the value plus the store's envelope (identifier, version, timestamps).
public struct StoredRecord<Value> {
    public let id: RecordID
    /// Starts at 1 and grows by one with every update; updates that carry another version fail.
    public let version: UInt64
    public let createdAt: StoreTime
    public let updatedAt: StoreTime
    public var value: Value

    public init(id: RecordID, version: UInt64, createdAt: StoreTime, updatedAt: StoreTime, value: Value) {
        self.id = id
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.value = value
    }
}

extension StoredRecord: Sendable where Value: Sendable {}
extension StoredRecord: Equatable where Value: Equatable {}
