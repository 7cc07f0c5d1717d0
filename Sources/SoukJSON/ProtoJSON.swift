/// SoukJSON: the proto3 JSON mapping (https://protobuf.dev/programming-guides/json/) for any
/// message type of a descriptor set, with no generated code per message.
///
/// `DescriptorRegistry` reads a serialized `google.protobuf.FileDescriptorSet` with a small
/// protobuf reader of its own (`DescriptorRegistry.embedded` is Generated/souk.desc, the set the
/// server also answers reflection from) and indexes messages, fields, enums, maps, oneofs,
/// services and methods. `ProtoJSON` converts between protobuf bytes and JSON text for a message
/// type named by its full name:
///
///     let json = try ProtoJSON().json(fromBinary: bytes, messageType: "souk.v1.ListProductsResponse")
///     let bytes = try ProtoJSON().binary(fromJSON: #"{"pageSize": 20}"#, messageType: "souk.v1.ListProductsRequest")
///
/// The rules, as protobuf's own runtimes apply them:
/// - Fields are written under their lowerCamelCase JSON name (or the proto name on request);
///   both names are read. Fields at their default value are left out unless they track presence
///   (message fields, oneof members, proto3 `optional`).
/// - 64-bit integers are written as strings; numbers and strings are read for every integer.
///   Enums are written by name (a number when the value is unknown) and read by name or number.
///   Bytes are standard base64, read standard or URL-safe, padded or not. Floats may be "NaN",
///   "Infinity" and "-Infinity".
/// - Well-known types: Timestamp as RFC 3339 in UTC, Duration as "1.5s", FieldMask as
///   comma-separated lowerCamel paths, wrappers as their plain value, Struct/Value/ListValue as
///   any JSON, NullValue as null, Any as an object with "@type" (its type resolved in the registry).
/// - Unknown fields in protobuf bytes are skipped; unknown JSON fields are an error unless
///   `JSONDecodingOptions.ignoreUnknownFields` (which also skips unknown enum names).
/// - Errors are `ProtoJSONError`s naming the path of the bad field in proto names
///   (`items[2].quantity: expected an integer, got a string`), ready to become a field violation.
///
/// Speed: protobuf bytes are read in place (each message scanned once, its fields written in
/// number order) and JSON is parsed by a reader of its own into a light tree; neither direction
/// goes through Foundation.
public struct ProtoJSON: Sendable {
    public let registry: DescriptorRegistry

    public init(registry: DescriptorRegistry) {
        self.registry = registry
    }

    #if canImport(SoukProtoC)
    /// The mapping for every message type of Generated/souk.desc.
    public init() {
        self.init(registry: .embedded)
    }
    #endif

    /// Protobuf bytes of `messageType` as JSON text (UTF-8).
    public func json(fromBinary bytes: UnsafeRawBufferPointer, messageType: String, options: JSONEncodingOptions = .init()) throws(ProtoJSONError) -> [UInt8] {
        guard let index = registry.messageIndexes[messageType] else { throw ProtoJSONError(path: "", reason: "unknown message type \(messageType)") }
        var encoder = BinaryToJSON(registry: registry, options: options)
        encoder.writer.bytes.reserveCapacity(bytes.count * 2 + 16)
        try encoder.message(index, bytes, 0..<bytes.count)
        return encoder.writer.bytes
    }

    public func json(fromBinary bytes: [UInt8], messageType: String, options: JSONEncodingOptions = .init()) throws(ProtoJSONError) -> [UInt8] {
        try withBytes(bytes) { (raw: UnsafeRawBufferPointer) throws(ProtoJSONError) in try json(fromBinary: raw, messageType: messageType, options: options) }
    }

    /// Protobuf bytes of `messageType` as a JSON string.
    public func jsonString(fromBinary bytes: [UInt8], messageType: String, options: JSONEncodingOptions = .init()) throws(ProtoJSONError) -> String {
        String(decoding: try json(fromBinary: bytes, messageType: messageType, options: options), as: UTF8.self)
    }

    /// JSON text (UTF-8) of `messageType` as protobuf bytes.
    public func binary(fromJSON json: UnsafeRawBufferPointer, messageType: String, options: JSONDecodingOptions = .init()) throws(ProtoJSONError) -> [UInt8] {
        guard let index = registry.messageIndexes[messageType] else { throw ProtoJSONError(path: "", reason: "unknown message type \(messageType)") }
        let value: JSONValue
        do {
            value = try JSONParser.parse(json, maxDepth: options.maxDepth)
        } catch {
            throw ProtoJSONError(path: "", reason: "invalid JSON at byte \(error.offset): \(error.reason)")
        }
        var decoder = JSONToBinary(registry: registry, options: options)
        var writer = WireWriter()
        try decoder.message(index, value, into: &writer)
        return writer.bytes
    }

    public func binary(fromJSON json: [UInt8], messageType: String, options: JSONDecodingOptions = .init()) throws(ProtoJSONError) -> [UInt8] {
        try withBytes(json) { (raw: UnsafeRawBufferPointer) throws(ProtoJSONError) in try binary(fromJSON: raw, messageType: messageType, options: options) }
    }

    public func binary(fromJSON json: String, messageType: String, options: JSONDecodingOptions = .init()) throws(ProtoJSONError) -> [UInt8] {
        try binary(fromJSON: Array(json.utf8), messageType: messageType, options: options)
    }
}

/// How protobuf bytes are written as JSON.
public struct JSONEncodingOptions: Sendable {
    /// Indented by two spaces, one member per line (for people); compact otherwise.
    public var pretty: Bool
    /// Fields under their proto names (`order_by`) instead of their JSON names (`orderBy`).
    public var useProtoNames: Bool

    public init(pretty: Bool = false, useProtoNames: Bool = false) {
        self.pretty = pretty
        self.useProtoNames = useProtoNames
    }
}

/// How JSON is read into protobuf bytes.
public struct JSONDecodingOptions: Sendable {
    /// Skip JSON members that name no field, and enum names that name no value.
    public var ignoreUnknownFields: Bool
    /// The deepest nesting of JSON objects and arrays accepted.
    public var maxDepth: Int

    public init(ignoreUnknownFields: Bool = false, maxDepth: Int = 100) {
        self.ignoreUnknownFields = ignoreUnknownFields
        self.maxDepth = maxDepth
    }
}

/// Why a message could not be converted: the path of the field in proto names (empty for the
/// message itself) and what was wrong with it.
public struct ProtoJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// For example `items[2].quantity` or `labels["color"]`.
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

/// One step of the path to the field being converted, rendered only when an error needs it.
enum PathComponent {
    case field(String)
    case descriptor(FieldDescriptor)
    case index(Int)
    case key(String)

    static func render(_ components: [PathComponent]) -> String {
        var text = ""
        for component in components {
            switch component {
            case .field(let name): text += text.isEmpty ? name : "." + name
            case .descriptor(let field): text += text.isEmpty ? field.name : "." + field.name
            case .index(let i): text += "[\(i)]"
            case .key(let key): text += "[\"\(key)\"]"
            }
        }
        return text
    }
}
