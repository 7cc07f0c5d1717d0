import CProtobufC

// How a message gets its Swift wrapper (see GRPCHealth.swift for a small complete example):
//
// 1. A public Swift value type with one stored property per field: `String` for string, `[UInt8]`
//    for bytes, `Int32`/`Int64`/`UInt32`/`UInt64`/`Bool`/`Double`/`Float` for scalars, a
//    `ProtoEnum` for enums, an Optional for a message field, an array for a repeated field, an
//    enum with associated values (Optional) for a oneof, `Timestamp` and `Duration` for the
//    well-known time types, an Optional scalar for a `google.protobuf.*Value` wrapper, a
//    Dictionary for a `map<string, string>`.
// 2. A `CProtoMessage` conformance (or only `CStructConvertible` for a part that is never sent
//    alone): `cInit` calls the generated init function; `init(c:)` reads each field with
//    `Unpacked.*` (passing the proto field name, so errors can name it); `fill` writes each field
//    with the arena (`arena.string`, `arena.bytes`, `arena.message`, `arena.messages`,
//    `arena.values`, `arena.duration`, `arena.wrapped`, `arena.map`, `enumValue.cValue()`), and
//    sets the `n_` count of each repeated field and the `_case` of each oneof.
// Packing, unpacking, freeing and error reporting then come from the protocol extensions below.
// protoc-c 1.4 does not support proto3 `optional`: give a scalar presence with a wrapper type.

/// A Swift value read out of one protobuf-c generated struct. C types never leave this module,
/// so the protocol is internal.
protocol CStructReadable {
    /// The protobuf-c struct, for example `Grpc__Health__V1__HealthCheckRequest`.
    associatedtype CStruct

    /// Calls the generated `…__init` function: sets the descriptor and the field defaults.
    static func cInit(_ c: UnsafeMutablePointer<CStruct>)

    /// Copies the fields out of an unpacked struct. Throws `FieldError` for content protobuf-c
    /// accepts but a Swift value cannot hold (for example a string that is not UTF-8).
    init(c: CStruct) throws
}

/// A Swift value that mirrors one protobuf-c generated struct both ways.
protocol CStructConvertible: CStructReadable {
    /// Sets the fields of a struct that `cInit` initialised; every pointer stored comes from `arena`.
    func fill(_ c: inout CStruct, _ arena: inout EncodingArena)
}

/// A message wrapper packed and unpacked by protobuf-c through its `CStructConvertible` mirror.
/// Conforming gives the `ProtoMessage` requirements for free.
protocol CProtoMessage: ProtoMessage, CStructConvertible {}

extension CStructReadable {
    /// The protobuf-c descriptor of `CStruct`, read from a freshly initialised struct (the
    /// generated init functions are the only Swift-visible way to the descriptor's address).
    static var cDescriptor: UnsafePointer<ProtobufCMessageDescriptor> {
        withUnsafeTemporaryAllocation(of: CStruct.self, capacity: 1) { buffer in
            let c = buffer.baseAddress!
            cInit(c)
            return UnsafeRawPointer(c).assumingMemoryBound(to: ProtobufCMessage.self).pointee.descriptor
        }
    }
}

extension CProtoMessage {
    public init(decoding bytes: UnsafeRawBufferPointer) throws {
        self = try unpackMessage(Self.self, named: Self.protoName, bytes)
    }

    public func withEncodedBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try packMessage(self, body)
    }

    public func withPacker(_ body: (_ packedSize: Int, _ pack: (UnsafeMutableRawPointer) -> Void) -> Void) {
        EncodingArena.with { arena in
            let c = UnsafeMutableRawPointer(arena.cStruct(self)).assumingMemoryBound(to: ProtobufCMessage.self)
            let size = protobuf_c_message_get_packed_size(c)
            body(size) { destination in
                pack(c, size: size, into: destination.assumingMemoryBound(to: UInt8.self))
            }
        }
    }
}

/// Builds the C struct of `message` in an arena, packs it and hands the bytes to `body`.
func packMessage<M: CStructConvertible, R>(_ message: M, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try EncodingArena.with { arena in
        let c = arena.cStruct(message)
        return try withPackedBytes(UnsafeMutableRawPointer(c).assumingMemoryBound(to: ProtobufCMessage.self), body)
    }
}

/// Unpacks `bytes` with protobuf-c and copies the result into `M`; the C message is freed before
/// returning. Large bytes fields are not copied but handed over (see `LargeBlocks`).
func unpackMessage<M: CStructReadable>(_ type: M.Type, named name: String, _ bytes: UnsafeRawBufferPointer) throws -> M {
    try LargeBlocks.withAllocator { allocator in
        let unpacked: UnsafeMutablePointer<ProtobufCMessage>?
        if let data = bytes.baseAddress, bytes.count > 0 {
            unpacked = protobuf_c_message_unpack(M.cDescriptor, allocator, bytes.count, data.assumingMemoryBound(to: UInt8.self))
        } else {
            // protobuf-c wants a data pointer even for zero bytes.
            var none: UInt8 = 0
            unpacked = protobuf_c_message_unpack(M.cDescriptor, allocator, 0, &none)
        }
        guard let unpacked else {
            throw ProtoDecodingError(messageType: name, reason: "not valid protobuf")
        }
        defer { protobuf_c_message_free_unpacked(unpacked, allocator) }
        do {
            return try M(c: UnsafeRawPointer(unpacked).assumingMemoryBound(to: M.CStruct.self).pointee)
        } catch let error as FieldError {
            throw ProtoDecodingError(messageType: name, reason: error.description)
        }
    }
}

/// Packs a C message into a temporary buffer (on the stack when small) and hands it to `body`.
func withPackedBytes<R>(_ message: UnsafePointer<ProtobufCMessage>, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    let size = protobuf_c_message_get_packed_size(message)
    return try withUnsafeTemporaryAllocation(byteCount: max(size, 1), alignment: 1) { buffer in
        pack(message, size: size, into: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
        return try body(UnsafeRawBufferPointer(start: buffer.baseAddress, count: size))
    }
}

/// Messages of at least this many packed bytes go through `protobuf_c_message_pack_to_buffer`.
let packThroughBufferThreshold = 16 * 1024

/// Packs `message` into the `size` bytes at `destination`, `size` being its packed size.
///
/// `protobuf_c_message_pack` writes a nested message after a one-byte length and moves it up when
/// its length takes more bytes, so every large payload inside a nested message was copied twice.
/// Packing through a buffer measures each nested message first and copies every byte once, but
/// makes a call per field; it pays off for large messages only.
func pack(_ message: UnsafePointer<ProtobufCMessage>, size: Int, into destination: UnsafeMutablePointer<UInt8>) {
    guard size >= packThroughBufferThreshold else {
        let written = protobuf_c_message_pack(message, destination)
        precondition(written == size, "protobuf-c packed \(written) bytes, expected \(size)")
        return
    }
    // A simple buffer over the destination: it never grows, as exactly `size` bytes arrive.
    var buffer = ProtobufCBufferSimple(
        base: ProtobufCBuffer(append: protobuf_c_buffer_simple_append),
        alloced: size, len: 0, data: destination, must_free_data: 0, allocator: nil)
    let written = withUnsafeMutablePointer(to: &buffer) { simple in
        simple.withMemoryRebound(to: ProtobufCBuffer.self, capacity: 1) { protobuf_c_message_pack_to_buffer(message, $0) }
    }
    precondition(
        written == size && buffer.len == size && buffer.data == destination,
        "protobuf-c packed \(written) bytes, expected \(size)")
}

/// Why a field of an unpacked message could not become a Swift value; `path` names the field
/// from the outermost message, for example `payload.name` or `items[2].title`.
struct FieldError: Error, CustomStringConvertible {
    var path: [String]
    var problem: String

    init(_ field: String, _ problem: String) {
        path = [field]
        self.problem = problem
    }

    /// The same error seen from the message that holds `field`.
    func inside(_ field: String) -> FieldError {
        var copy = self
        copy.path.insert(field, at: 0)
        return copy
    }

    var description: String {
        var name = ""
        for part in path {
            if !name.isEmpty && !part.hasPrefix("[") { name += "." }
            name += part
        }
        return "field \(name) \(problem)"
    }
}
