/// A protobuf message as a Swift value type, packed and unpacked by protobuf-c.
///
/// Every wrapper in this module conforms: it copies the fields of the unpacked C struct into
/// Swift values and frees the struct before returning, and builds a temporary C struct to pack.
public protocol ProtoMessage: Sendable, Equatable {
    /// The fully-qualified protobuf name, for example `grpc.health.v1.HealthCheckRequest`.
    static var protoName: String { get }

    /// Unpacks the protobuf wire format. Throws `ProtoDecodingError` when the bytes are not a valid message.
    init(decoding bytes: UnsafeRawBufferPointer) throws

    /// Packs the message and hands the bytes to `body`; they are valid only during the call.
    func withEncodedBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R

    /// Hands `body` the packed size and a function that packs the message into memory of at least
    /// that size (valid only during the call). Packing straight into its destination spares the
    /// copy that `withEncodedBytes` makes. Not generic, so that a call through the protocol (once
    /// per response) needs no generic metadata at run time.
    func withPacker(_ body: (_ packedSize: Int, _ pack: (UnsafeMutableRawPointer) -> Void) -> Void)
}

extension ProtoMessage {
    /// Unpacks a message from an array of bytes.
    public init(decoding bytes: [UInt8]) throws {
        self = try bytes.withUnsafeBytes { try Self(decoding: $0) }
    }

    /// Packs through `withEncodedBytes`, copying once.
    public func withPacker(_ body: (_ packedSize: Int, _ pack: (UnsafeMutableRawPointer) -> Void) -> Void) {
        withEncodedBytes { bytes in
            body(bytes.count) { destination in
                if let base = bytes.baseAddress { destination.copyMemory(from: base, byteCount: bytes.count) }
            }
        }
    }

    /// The packed wire format as an array.
    public func encoded() -> [UInt8] {
        withEncodedBytes { Array($0) }
    }
}

/// Why bytes could not be unpacked into a message.
public struct ProtoDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message type that was being unpacked.
    public var messageType: String
    /// What was wrong, for example "not valid protobuf" or "field name is not valid UTF-8".
    public var reason: String

    public init(messageType: String, reason: String) {
        self.messageType = messageType
        self.reason = reason
    }

    public var description: String { "cannot decode \(messageType): \(reason)" }
}
