#if canImport(SoukProtoC)
import SoukProtoC
#endif

/// A field's protobuf type, numbered as in `google.protobuf.FieldDescriptorProto.Type`.
public enum FieldKind: UInt8, Sendable {
    case double = 1, float, int64, uint64, int32, fixed64, fixed32, bool, string, group, message, bytes, uint32
    case enumeration, sfixed32, sfixed64, sint32, sint64

    /// The wire type of one value of this kind.
    var wireType: WireType {
        switch self {
        case .double, .fixed64, .sfixed64: .fixed64
        case .float, .fixed32, .sfixed32: .fixed32
        case .string, .bytes, .message: .lengthDelimited
        case .group: .startGroup
        default: .varint
        }
    }

    /// Scalars that a repeated field may pack into one length-delimited run.
    var isPackable: Bool { wireType != .lengthDelimited && self != .group }
}

/// The well-known types whose JSON form is not an object of their fields.
public enum WellKnownType: Sendable {
    case any, timestamp, duration, fieldMask, structValue, value, listValue
    case doubleValue, floatValue, int64Value, uint64Value, int32Value, uint32Value, boolValue, stringValue, bytesValue

    static let byName: [String: WellKnownType] = [
        "google.protobuf.Any": .any, "google.protobuf.Timestamp": .timestamp, "google.protobuf.Duration": .duration,
        "google.protobuf.FieldMask": .fieldMask, "google.protobuf.Struct": .structValue, "google.protobuf.Value": .value,
        "google.protobuf.ListValue": .listValue, "google.protobuf.DoubleValue": .doubleValue,
        "google.protobuf.FloatValue": .floatValue, "google.protobuf.Int64Value": .int64Value,
        "google.protobuf.UInt64Value": .uint64Value, "google.protobuf.Int32Value": .int32Value,
        "google.protobuf.UInt32Value": .uint32Value, "google.protobuf.BoolValue": .boolValue,
        "google.protobuf.StringValue": .stringValue, "google.protobuf.BytesValue": .bytesValue,
    ]

    var isWrapper: Bool {
        switch self {
        case .doubleValue, .floatValue, .int64Value, .uint64Value, .int32Value, .uint32Value, .boolValue, .stringValue, .bytesValue: true
        default: false
        }
    }
}

/// One field of a message type. (A class: the converters pass fields around per value, and a
/// class is one reference count where a struct of strings and arrays is several.)
public final class FieldDescriptor: Sendable {
    /// The name in the .proto file, for example `order_by`.
    public let name: String
    /// The JSON name, lowerCamelCase unless the .proto sets `json_name`, for example `orderBy`.
    public let jsonName: String
    public let number: Int32
    public let kind: FieldKind
    public let isRepeated: Bool
    /// A repeated scalar written as one packed run (proto3's default).
    public let isPacked: Bool
    /// Declared `optional` in proto3 (its presence is tracked in a synthetic oneof).
    public let isProto3Optional: Bool
    /// The index in `MessageDescriptor.oneofs` of the real (not synthetic) oneof it belongs to.
    public let oneofIndex: Int?
    /// Whether a default value is still written (message fields, oneof members, `optional`, proto2).
    public let hasPresence: Bool
    /// The full name of a message or enum field's type, for example `souk.v1.Money`.
    public let typeName: String
    /// Whether this is a map field (a repeated field of a map-entry message type).
    public let isMap: Bool
    /// The index of the field's message type in the registry, or -1.
    let messageIndex: Int
    /// The index of the field's enum type in the registry, or -1.
    let enumIndex: Int
    /// `"jsonName"` and `"name"`, quoted and escaped, for the writer.
    let jsonKey: [UInt8]
    let protoKey: [UInt8]

    init(
        name: String, jsonName: String, number: Int32, kind: FieldKind, isRepeated: Bool, isPacked: Bool, isProto3Optional: Bool,
        oneofIndex: Int?, hasPresence: Bool, typeName: String, isMap: Bool, messageIndex: Int, enumIndex: Int
    ) {
        self.name = name
        self.jsonName = jsonName
        self.number = number
        self.kind = kind
        self.isRepeated = isRepeated
        self.isPacked = isPacked
        self.isProto3Optional = isProto3Optional
        self.oneofIndex = oneofIndex
        self.hasPresence = hasPresence
        self.typeName = typeName
        self.isMap = isMap
        self.messageIndex = messageIndex
        self.enumIndex = enumIndex
        jsonKey = quotedKey(jsonName)
        protoKey = quotedKey(name)
    }
}

/// One message type.
public final class MessageDescriptor: Sendable {
    /// The full name, for example `souk.v1.ListProductsRequest`.
    public let fullName: String
    /// The fields in ascending number order.
    public let fields: [FieldDescriptor]
    /// The names of the real oneofs (synthetic oneofs of proto3 `optional` left out).
    public let oneofs: [String]
    /// A map field's entry type (`key` = 1, `value` = 2).
    public let isMapEntry: Bool
    public let wellKnownType: WellKnownType?
    /// Field indexes by number, dense for small numbers (-1 where there is none).
    let denseIndex: [Int32]
    let sparseIndex: [Int32: Int]
    /// Field indexes by JSON name and by proto name.
    let nameIndex: [String: Int]

    init(
        fullName: String, fields: [FieldDescriptor], oneofs: [String], isMapEntry: Bool, wellKnownType: WellKnownType?,
        denseIndex: [Int32], sparseIndex: [Int32: Int], nameIndex: [String: Int]
    ) {
        self.fullName = fullName
        self.fields = fields
        self.oneofs = oneofs
        self.isMapEntry = isMapEntry
        self.wellKnownType = wellKnownType
        self.denseIndex = denseIndex
        self.sparseIndex = sparseIndex
        self.nameIndex = nameIndex
    }

    /// The field with a number.
    @inline(__always)
    func fieldIndex(number: Int32) -> Int? {
        if number < denseIndex.count {
            let index = Int(denseIndex[Int(number)])
            return index < 0 ? nil : index
        }
        return sparseIndex[number]
    }

    /// The field with a JSON name or proto name.
    public func field(named name: String) -> FieldDescriptor? {
        nameIndex[name].map { fields[$0] }
    }
}

/// One enum type.
public final class EnumDescriptor: Sendable {
    public let fullName: String
    /// The values in declaration order.
    public let values: [(name: String, number: Int32)]
    let numbers: [String: Int32]
    let names: [Int32: String]
    /// google.protobuf.NullValue, written as JSON null.
    let isNullValue: Bool

    init(fullName: String, values: [(name: String, number: Int32)], numbers: [String: Int32], names: [Int32: String]) {
        self.fullName = fullName
        self.values = values
        self.numbers = numbers
        self.names = names
        isNullValue = fullName == "google.protobuf.NullValue"
    }

    public func name(of number: Int32) -> String? { names[number] }
    public func number(of name: String) -> Int32? { numbers[name] }
}

/// One RPC method.
public struct MethodDescriptor: Sendable {
    public let name: String
    /// The HTTP/2 path, for example `/souk.v1.Catalog/ListProducts`.
    public let path: String
    public let inputType: String
    public let outputType: String
    public let clientStreaming: Bool
    public let serverStreaming: Bool
}

/// One service.
public struct ServiceDescriptor: Sendable {
    public let fullName: String
    public let methods: [MethodDescriptor]
}

/// Why a descriptor set could not be loaded.
public struct DescriptorError: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { "invalid descriptor set: \(reason)" }
}

/// The message, enum and service types of a serialized `google.protobuf.FileDescriptorSet`,
/// indexed by full name, with the well-known types the JSON mapping needs added when the set
/// lacks them.
public final class DescriptorRegistry: Sendable {
    let messages: [MessageDescriptor]
    let enums: [EnumDescriptor]
    let messageIndexes: [String: Int]
    let enumIndexes: [String: Int]
    /// Every service, in file order.
    public let services: [ServiceDescriptor]
    let serviceIndexes: [String: Int]
    /// Every method by its HTTP/2 path (`/souk.v1.Catalog/ListProducts`): the JSON edge looks one
    /// up on every call.
    let methodsByPath: [String: MethodDescriptor]

    #if canImport(SoukProtoC)
    /// Every message type of the set built into this binary by `scripts/generate` (Generated/souk.desc).
    public static let embedded: DescriptorRegistry = {
        let bytes = UnsafeRawBufferPointer(start: souk_descriptor_set_bytes(), count: souk_descriptor_set_length())
        do {
            return try DescriptorRegistry(serialized: bytes)
        } catch {
            fatalError("the embedded descriptor set is corrupt; run scripts/generate: \(error)")
        }
    }()
    #endif

    /// Loads a serialized FileDescriptorSet.
    public convenience init(serialized bytes: [UInt8]) throws(DescriptorError) {
        try self.init(sets: [bytes])
    }

    /// Loads several serialized FileDescriptorSets; a file seen twice is read once.
    public convenience init(sets: [[UInt8]]) throws(DescriptorError) {
        var files: [RawFile] = []
        for set in sets {
            do {
                try withBytes(set) { (raw: UnsafeRawBufferPointer) throws(WireError) in files += try RawFile.parseSet(raw) }
            } catch {
                throw DescriptorError(reason: error.reason)
            }
        }
        try self.init(files: files)
    }

    public convenience init(serialized bytes: UnsafeRawBufferPointer) throws(DescriptorError) {
        let files: [RawFile]
        do {
            files = try RawFile.parseSet(bytes)
        } catch {
            throw DescriptorError(reason: error.reason)
        }
        try self.init(files: files)
    }

    init(files: [RawFile]) throws(DescriptorError) {
        var seenFiles: Set<String> = []
        var flatMessages: [(fullName: String, raw: RawMessage, proto2: Bool)] = []
        var flatEnums: [(fullName: String, raw: RawEnum)] = []
        var rawServices: [(fullName: String, raw: RawService)] = []
        func flatten(_ message: RawMessage, scope: String, proto2: Bool) {
            let name = scope + message.name
            flatMessages.append((name, message, proto2))
            for nested in message.nested { flatten(nested, scope: name + ".", proto2: proto2) }
            for e in message.enums { flatEnums.append((name + "." + e.name, e)) }
        }
        for file in files + WellKnownFallback.files where seenFiles.insert(file.name).inserted {
            let scope = file.package.isEmpty ? "" : file.package + "."
            let proto2 = file.syntax != "proto3" && file.syntax != "editions"
            for message in file.messages { flatten(message, scope: scope, proto2: proto2) }
            for e in file.enums { flatEnums.append((scope + e.name, e)) }
            for s in file.services { rawServices.append((scope + s.name, s)) }
        }
        var messageIndexes: [String: Int] = [:]
        for (i, m) in flatMessages.enumerated() where messageIndexes[m.fullName] == nil { messageIndexes[m.fullName] = i }
        var enumIndexes: [String: Int] = [:]
        for (i, e) in flatEnums.enumerated() where enumIndexes[e.fullName] == nil { enumIndexes[e.fullName] = i }

        enums = flatEnums.map { fullName, raw in
            var numbers: [String: Int32] = [:]
            var names: [Int32: String] = [:]
            for value in raw.values {
                numbers[value.name] = value.number
                if names[value.number] == nil { names[value.number] = value.name }
            }
            return EnumDescriptor(fullName: fullName, values: raw.values, numbers: numbers, names: names)
        }
        var messages: [MessageDescriptor] = []
        messages.reserveCapacity(flatMessages.count)
        for (fullName, raw, proto2) in flatMessages {
            // Synthetic oneofs (one per proto3 `optional` field) are not oneofs for JSON.
            var realOneof: [Int: Int] = [:]
            var oneofNames: [String] = []
            for (i, name) in raw.oneofs.enumerated() {
                let members = raw.fields.filter { $0.oneofIndex == i }
                if members.count == 1 && members[0].proto3Optional { continue }
                realOneof[i] = oneofNames.count
                oneofNames.append(name)
            }
            var fields: [FieldDescriptor] = []
            for f in raw.fields.sorted(by: { $0.number < $1.number }) {
                guard let kind = FieldKind(rawValue: UInt8(clamping: f.type)) else {
                    throw DescriptorError(reason: "\(fullName).\(f.name) has unknown type \(f.type)")
                }
                let repeated = f.label == 3
                let typeName = f.typeName.hasPrefix(".") ? String(f.typeName.dropFirst()) : f.typeName
                let oneof = f.oneofIndex.flatMap { realOneof[$0] }
                let jsonName = f.jsonName ?? lowerCamel(f.name)
                var messageIndex = -1
                var enumIndex = -1
                var isMap = false
                if kind == .message || kind == .group {
                    guard let index = messageIndexes[typeName] else {
                        throw DescriptorError(reason: "\(fullName).\(f.name) has unknown type \(typeName)")
                    }
                    messageIndex = index
                    isMap = repeated && flatMessages[index].raw.mapEntry
                } else if kind == .enumeration {
                    guard let index = enumIndexes[typeName] else {
                        throw DescriptorError(reason: "\(fullName).\(f.name) has unknown type \(typeName)")
                    }
                    enumIndex = index
                }
                fields.append(FieldDescriptor(
                    name: f.name, jsonName: jsonName, number: f.number, kind: kind, isRepeated: repeated,
                    isPacked: repeated && kind.isPackable && (f.packed ?? !proto2),
                    isProto3Optional: f.proto3Optional, oneofIndex: oneof,
                    hasPresence: !repeated && (kind == .message || kind == .group || oneof != nil || f.proto3Optional || proto2),
                    typeName: typeName, isMap: isMap, messageIndex: messageIndex, enumIndex: enumIndex))
            }
            let maxNumber = fields.last.map { Int($0.number) } ?? 0
            var dense = [Int32](repeating: -1, count: min(maxNumber, 256) + 1)
            var sparse: [Int32: Int] = [:]
            var names: [String: Int] = [:]
            for (i, field) in fields.enumerated() {
                if Int(field.number) < dense.count { dense[Int(field.number)] = Int32(i) } else { sparse[field.number] = i }
                names[field.name] = i
                names[field.jsonName] = i
            }
            messages.append(MessageDescriptor(
                fullName: fullName, fields: fields, oneofs: oneofNames, isMapEntry: raw.mapEntry,
                wellKnownType: WellKnownType.byName[fullName], denseIndex: dense, sparseIndex: sparse, nameIndex: names))
        }
        self.messages = messages
        self.messageIndexes = messageIndexes
        self.enumIndexes = enumIndexes
        var serviceIndexes: [String: Int] = [:]
        services = rawServices.map { fullName, raw in
            ServiceDescriptor(fullName: fullName, methods: raw.methods.map { m in
                MethodDescriptor(
                    name: m.name, path: "/\(fullName)/\(m.name)",
                    inputType: m.inputType.hasPrefix(".") ? String(m.inputType.dropFirst()) : m.inputType,
                    outputType: m.outputType.hasPrefix(".") ? String(m.outputType.dropFirst()) : m.outputType,
                    clientStreaming: m.clientStreaming, serverStreaming: m.serverStreaming)
            })
        }
        for (i, s) in services.enumerated() where serviceIndexes[s.fullName] == nil { serviceIndexes[s.fullName] = i }
        self.serviceIndexes = serviceIndexes
        var methodsByPath: [String: MethodDescriptor] = [:]
        for method in services.lazy.flatMap(\.methods) where methodsByPath[method.path] == nil { methodsByPath[method.path] = method }
        self.methodsByPath = methodsByPath
    }

    /// A message type by full name, for example `souk.v1.Product`.
    public func message(named fullName: String) -> MessageDescriptor? {
        messageIndexes[fullName].map { messages[$0] }
    }

    /// An enum type by full name.
    public func enumType(named fullName: String) -> EnumDescriptor? {
        enumIndexes[fullName].map { enums[$0] }
    }

    /// The message type of a message field (for a map field, its entry type: key = 1, value = 2).
    public func messageType(of field: FieldDescriptor) -> MessageDescriptor? {
        field.messageIndex >= 0 ? messages[field.messageIndex] : nil
    }

    /// The enum type of an enum field.
    public func enumType(of field: FieldDescriptor) -> EnumDescriptor? {
        field.enumIndex >= 0 ? enums[field.enumIndex] : nil
    }

    /// A service by full name, for example `souk.v1.Catalog`.
    public func service(named fullName: String) -> ServiceDescriptor? {
        serviceIndexes[fullName].map { services[$0] }
    }

    /// A method by `souk.v1.Catalog/ListProducts`, `/souk.v1.Catalog/ListProducts` or `souk.v1.Catalog.ListProducts`.
    public func method(named name: String) -> MethodDescriptor? {
        if let method = methodsByPath[name] { return method }
        var name = Substring(name)
        if name.hasPrefix("/") { name = name.dropFirst() }
        let split = name.lastIndex(of: "/") ?? name.lastIndex(of: ".")
        guard let split else { return nil }
        let service = String(name[..<split])
        let method = name[name.index(after: split)...]
        return self.service(named: service)?.methods.first { $0.name == method }
    }

    /// Every message type's full name, in file order.
    public var messageNames: [String] { messages.map(\.fullName) }
}

/// protoc's default JSON name: underscores dropped, the letter after each capitalised.
func lowerCamel(_ name: String) -> String {
    var result = ""
    var upperNext = false
    for c in name {
        if c == "_" {
            upperNext = true
        } else if upperNext {
            result += c.uppercased()
            upperNext = false
        } else {
            result.append(c)
        }
    }
    return result
}

func quotedKey(_ name: String) -> [UInt8] {
    var writer = JSONWriter(pretty: false)
    writer.string(name)
    return writer.bytes
}

// MARK: Parsing descriptor.proto by hand

struct RawField {
    var name = "", number: Int32 = 0, label: Int = 1, type: Int = 0, typeName = ""
    var jsonName: String?, packed: Bool?, oneofIndex: Int?, proto3Optional = false
}

struct RawMessage {
    var name = ""
    var fields: [RawField] = []
    var nested: [RawMessage] = []
    var enums: [RawEnum] = []
    var oneofs: [String] = []
    var mapEntry = false
}

struct RawEnum {
    var name = ""
    var values: [(name: String, number: Int32)] = []
}

struct RawMethod {
    var name = "", inputType = "", outputType = "", clientStreaming = false, serverStreaming = false
}

struct RawService {
    var name = ""
    var methods: [RawMethod] = []
}

struct RawFile {
    var name = "", package = "", syntax = ""
    var messages: [RawMessage] = []
    var enums: [RawEnum] = []
    var services: [RawService] = []

    /// The files of a FileDescriptorSet (field 1).
    static func parseSet(_ bytes: UnsafeRawBufferPointer) throws(WireError) -> [RawFile] {
        var files: [RawFile] = []
        try forEachField(bytes, 0..<bytes.count) { (reader, number, wireType) throws(WireError) in
            if number == 1 && wireType == .lengthDelimited {
                files.append(try RawFile(bytes, try reader.lengthDelimited()))
            } else {
                try reader.skip(wireType, number: number)
            }
        }
        return files
    }

    init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) throws(WireError) {
        try forEachField(bytes, range) { (reader, number, wireType) throws(WireError) in
            switch (number, wireType) {
            case (1, .lengthDelimited): name = try reader.text()
            case (2, .lengthDelimited): package = try reader.text()
            case (4, .lengthDelimited): messages.append(try RawMessage(bytes, try reader.lengthDelimited()))
            case (5, .lengthDelimited): enums.append(try RawEnum(bytes, try reader.lengthDelimited()))
            case (6, .lengthDelimited): services.append(try RawService(bytes, try reader.lengthDelimited()))
            case (12, .lengthDelimited): syntax = try reader.text()
            default: try reader.skip(wireType, number: number)
            }
        }
    }

    init(name: String, package: String, messages: [RawMessage], enums: [RawEnum] = []) {
        self.name = name
        self.package = package
        syntax = "proto3"
        self.messages = messages
        self.enums = enums
    }
}

extension RawMessage {
    init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) throws(WireError) {
        try forEachField(bytes, range) { (reader, number, wireType) throws(WireError) in
            switch (number, wireType) {
            case (1, .lengthDelimited): name = try reader.text()
            case (2, .lengthDelimited): fields.append(try RawField(bytes, try reader.lengthDelimited()))
            case (3, .lengthDelimited): nested.append(try RawMessage(bytes, try reader.lengthDelimited()))
            case (4, .lengthDelimited): enums.append(try RawEnum(bytes, try reader.lengthDelimited()))
            case (7, .lengthDelimited):
                try forEachField(bytes, try reader.lengthDelimited()) { (options, number, wireType) throws(WireError) in
                    if number == 7 && wireType == .varint { mapEntry = try options.varint() != 0 } else { try options.skip(wireType, number: number) }
                }
            case (8, .lengthDelimited):
                var oneofName = ""
                try forEachField(bytes, try reader.lengthDelimited()) { (oneof, number, wireType) throws(WireError) in
                    if number == 1 && wireType == .lengthDelimited { oneofName = try oneof.text() } else { try oneof.skip(wireType, number: number) }
                }
                oneofs.append(oneofName)
            default: try reader.skip(wireType, number: number)
            }
        }
    }
}

extension RawField {
    init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) throws(WireError) {
        try forEachField(bytes, range) { (reader, number, wireType) throws(WireError) in
            switch (number, wireType) {
            case (1, .lengthDelimited): name = try reader.text()
            case (3, .varint): self.number = Int32(truncatingIfNeeded: try reader.varint())
            case (4, .varint): label = Int(truncatingIfNeeded: try reader.varint())
            case (5, .varint): type = Int(truncatingIfNeeded: try reader.varint())
            case (6, .lengthDelimited): typeName = try reader.text()
            case (8, .lengthDelimited):
                try forEachField(bytes, try reader.lengthDelimited()) { (options, number, wireType) throws(WireError) in
                    if number == 2 && wireType == .varint { packed = try options.varint() != 0 } else { try options.skip(wireType, number: number) }
                }
            case (9, .varint): oneofIndex = Int(truncatingIfNeeded: try reader.varint())
            case (10, .lengthDelimited): jsonName = try reader.text()
            case (17, .varint): proto3Optional = try reader.varint() != 0
            default: try reader.skip(wireType, number: number)
            }
        }
    }

    init(_ name: String, _ number: Int32, _ kind: FieldKind, repeated: Bool = false, type: String = "", oneof: Int? = nil) {
        self.name = name
        self.number = number
        label = repeated ? 3 : 1
        self.type = Int(kind.rawValue)
        typeName = type
        oneofIndex = oneof
    }
}

extension RawEnum {
    init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) throws(WireError) {
        try forEachField(bytes, range) { (reader, number, wireType) throws(WireError) in
            switch (number, wireType) {
            case (1, .lengthDelimited): name = try reader.text()
            case (2, .lengthDelimited):
                var valueName = ""
                var valueNumber: Int32 = 0
                try forEachField(bytes, try reader.lengthDelimited()) { (value, number, wireType) throws(WireError) in
                    switch (number, wireType) {
                    case (1, .lengthDelimited): valueName = try value.text()
                    case (2, .varint): valueNumber = Int32(truncatingIfNeeded: try value.varint())
                    default: try value.skip(wireType, number: number)
                    }
                }
                values.append((valueName, valueNumber))
            default: try reader.skip(wireType, number: number)
            }
        }
    }
}

extension RawService {
    init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) throws(WireError) {
        try forEachField(bytes, range) { (reader, number, wireType) throws(WireError) in
            switch (number, wireType) {
            case (1, .lengthDelimited): name = try reader.text()
            case (2, .lengthDelimited):
                var method = RawMethod()
                try forEachField(bytes, try reader.lengthDelimited()) { (m, number, wireType) throws(WireError) in
                    switch (number, wireType) {
                    case (1, .lengthDelimited): method.name = try m.text()
                    case (2, .lengthDelimited): method.inputType = try m.text()
                    case (3, .lengthDelimited): method.outputType = try m.text()
                    case (5, .varint): method.clientStreaming = try m.varint() != 0
                    case (6, .varint): method.serverStreaming = try m.varint() != 0
                    default: try m.skip(wireType, number: number)
                    }
                }
                methods.append(method)
            default: try reader.skip(wireType, number: number)
            }
        }
    }
}

private func forEachField(
    _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>,
    _ body: (inout WireReader, Int32, WireType) throws(WireError) -> Void
) throws(WireError) {
    var reader = WireReader(bytes, range: range)
    while !reader.isAtEnd {
        let (number, wireType) = try reader.tag()
        try body(&reader, number, wireType)
    }
}

extension WireReader {
    fileprivate mutating func text() throws(WireError) -> String {
        let range = try lengthDelimited()
        guard let text = string(range) else { throw WireError("a name is not valid UTF-8") }
        return text
    }
}

/// The well-known types the JSON mapping treats specially, for descriptor sets that do not
/// import them (a `google.protobuf.Any` may hold any of them).
enum WellKnownFallback {
    static let files: [RawFile] = {
        let wrappers: [(String, FieldKind)] = [
            ("DoubleValue", .double), ("FloatValue", .float), ("Int64Value", .int64), ("UInt64Value", .uint64),
            ("Int32Value", .int32), ("UInt32Value", .uint32), ("BoolValue", .bool), ("StringValue", .string), ("BytesValue", .bytes),
        ]
        var fieldsEntry = RawMessage(name: "FieldsEntry", fields: [
            RawField("key", 1, .string), RawField("value", 2, .message, type: ".google.protobuf.Value"),
        ])
        fieldsEntry.mapEntry = true
        return [
            RawFile(name: "google/protobuf/any.proto", package: "google.protobuf", messages: [
                RawMessage(name: "Any", fields: [RawField("type_url", 1, .string), RawField("value", 2, .bytes)]),
            ]),
            RawFile(name: "google/protobuf/timestamp.proto", package: "google.protobuf", messages: [
                RawMessage(name: "Timestamp", fields: [RawField("seconds", 1, .int64), RawField("nanos", 2, .int32)]),
            ]),
            RawFile(name: "google/protobuf/duration.proto", package: "google.protobuf", messages: [
                RawMessage(name: "Duration", fields: [RawField("seconds", 1, .int64), RawField("nanos", 2, .int32)]),
            ]),
            RawFile(name: "google/protobuf/field_mask.proto", package: "google.protobuf", messages: [
                RawMessage(name: "FieldMask", fields: [RawField("paths", 1, .string, repeated: true)]),
            ]),
            RawFile(name: "google/protobuf/empty.proto", package: "google.protobuf", messages: [RawMessage(name: "Empty")]),
            RawFile(name: "google/protobuf/wrappers.proto", package: "google.protobuf", messages: wrappers.map {
                RawMessage(name: $0.0, fields: [RawField("value", 1, $0.1)])
            }),
            RawFile(
                name: "google/protobuf/struct.proto", package: "google.protobuf",
                messages: [
                    RawMessage(name: "Struct", fields: [RawField("fields", 1, .message, repeated: true, type: ".google.protobuf.Struct.FieldsEntry")], nested: [fieldsEntry]),
                    RawMessage(name: "Value", fields: [
                        RawField("null_value", 1, .enumeration, type: ".google.protobuf.NullValue", oneof: 0),
                        RawField("number_value", 2, .double, oneof: 0),
                        RawField("string_value", 3, .string, oneof: 0),
                        RawField("bool_value", 4, .bool, oneof: 0),
                        RawField("struct_value", 5, .message, type: ".google.protobuf.Struct", oneof: 0),
                        RawField("list_value", 6, .message, type: ".google.protobuf.ListValue", oneof: 0),
                    ], oneofs: ["kind"]),
                    RawMessage(name: "ListValue", fields: [RawField("values", 1, .message, repeated: true, type: ".google.protobuf.Value")]),
                ],
                enums: [RawEnum(name: "NullValue", values: [("NULL_VALUE", 0)])]),
        ]
    }()
}
