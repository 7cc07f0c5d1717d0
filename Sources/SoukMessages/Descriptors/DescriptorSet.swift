import SoukProtoC

/// The proto files a server was built from (a serialized `google.protobuf.FileDescriptorSet`),
/// indexed to answer server reflection: files by name, the file declaring a symbol or an
/// extension, and each file's dependencies. Files are handed out as their original serialized
/// `FileDescriptorProto` bytes.
public struct DescriptorSet: Sendable {
    private struct File: Sendable {
        var serialized: [UInt8]
        var dependencies: [String]
    }

    private var files: [String: File] = [:]
    /// Every fully-qualified symbol (package, message, field, enum, enum value, service, method,
    /// extension) and the file declaring it.
    private var symbols: [String: String] = [:]
    /// Extension numbers by the fully-qualified name of the message they extend, with their files.
    private var extensions: [String: [Int32: String]] = [:]
    private var messageTypes: Set<String> = []

    /// Every file's name, in the set's order.
    public private(set) var fileNames: [String] = []
    /// Every service's fully-qualified name, in file order.
    public private(set) var serviceNames: [String] = []

    /// The descriptor set built into this binary by `scripts/generate` (every file under Proto/ and its imports).
    public static let embedded: DescriptorSet = {
        let bytes = Array(UnsafeBufferPointer(start: souk_descriptor_set_bytes(), count: souk_descriptor_set_length()))
        do {
            return try DescriptorSet(serialized: bytes)
        } catch {
            fatalError("the embedded descriptor set is corrupt; run scripts/generate: \(error)")
        }
    }()

    /// Parses a serialized `google.protobuf.FileDescriptorSet`.
    public init(serialized bytes: [UInt8]) throws {
        for range in try Self.fileRanges(bytes) {
            let serialized = Array(bytes[range])
            let file = try serialized.withUnsafeBytes {
                try unpackMessage(FileSummary.self, named: "google.protobuf.FileDescriptorProto", $0)
            }
            add(file, serialized: serialized)
        }
    }

    /// The serialized `FileDescriptorProto` of a file, for example `grpc/health/v1/health.proto`.
    public func serializedFile(named name: String) -> [UInt8]? {
        files[name]?.serialized
    }

    /// The name of the file declaring a fully-qualified symbol, for example `grpc.health.v1.Health.Check`.
    public func fileName(containingSymbol symbol: String) -> String? {
        symbols[symbol]
    }

    /// The name of the file declaring extension `number` of message type `type` (fully qualified).
    public func fileName(containingExtension number: Int32, of type: String) -> String? {
        extensions[type]?[number]
    }

    /// The extension numbers of a fully-qualified message type, in ascending order; nil for an unknown type.
    public func extensionNumbers(of type: String) -> [Int32]? {
        guard messageTypes.contains(type) else { return nil }
        return (extensions[type]?.keys).map { $0.sorted() } ?? []
    }

    /// The serialized file followed by every file it depends on, directly or not, each once;
    /// nil when there is no such file.
    public func serializedFileWithDependencies(named name: String) -> [[UInt8]]? {
        guard files[name] != nil else { return nil }
        var result: [[UInt8]] = []
        var seen: Set<String> = [name]
        var queue = [name]
        while !queue.isEmpty {
            let next = queue.removeFirst()
            guard let file = files[next] else { continue }
            result.append(file.serialized)
            for dependency in file.dependencies where seen.insert(dependency).inserted {
                queue.append(dependency)
            }
        }
        return result
    }

    // MARK: Building the index

    private mutating func add(_ file: FileSummary, serialized: [UInt8]) {
        guard files[file.name] == nil else { return }
        fileNames.append(file.name)
        files[file.name] = File(serialized: serialized, dependencies: file.dependencies)
        let prefix = file.package.isEmpty ? "" : file.package + "."
        if !file.package.isEmpty {
            // A package is a symbol too; the first file declaring it answers for it.
            declare(file.package, in: file.name)
        }
        for message in file.messages { addMessage(message, scope: prefix, file: file.name) }
        for enumType in file.enums { addEnum(enumType, scope: prefix, file: file.name) }
        for service in file.services {
            let serviceName = prefix + service.name
            serviceNames.append(serviceName)
            declare(serviceName, in: file.name)
            for method in service.methods { declare(serviceName + "." + method, in: file.name) }
        }
        for field in file.extensions { addExtension(field, scope: prefix, file: file.name) }
    }

    private mutating func addMessage(_ message: MessageSummary, scope: String, file: String) {
        let name = scope + message.name
        declare(name, in: file)
        messageTypes.insert(name)
        for field in message.fields { declare(name + "." + field.name, in: file) }
        for nested in message.nested { addMessage(nested, scope: name + ".", file: file) }
        for enumType in message.enums { addEnum(enumType, scope: name + ".", file: file) }
        for field in message.extensions { addExtension(field, scope: name + ".", file: file) }
    }

    /// Enum values are scoped like their enum's siblings, as protobuf's name resolution has it.
    private mutating func addEnum(_ enumType: EnumSummary, scope: String, file: String) {
        declare(scope + enumType.name, in: file)
        for value in enumType.values { declare(scope + value, in: file) }
    }

    private mutating func addExtension(_ field: FieldSummary, scope: String, file: String) {
        declare(scope + field.name, in: file)
        let extendee = field.extendee.hasPrefix(".") ? String(field.extendee.dropFirst()) : field.extendee
        extensions[extendee, default: [:]][field.number] = file
    }

    private mutating func declare(_ symbol: String, in file: String) {
        if symbols[symbol] == nil { symbols[symbol] = file }
    }

    /// The byte ranges of the `file` entries (field 1) of a serialized FileDescriptorSet, so each
    /// file can be handed out exactly as protoc wrote it.
    private static func fileRanges(_ bytes: [UInt8]) throws -> [Range<Int>] {
        var reader = WireReader(bytes: bytes)
        var ranges: [Range<Int>] = []
        while !reader.isAtEnd {
            let tag = try reader.varint()
            switch (tag >> 3, tag & 7) {
            case (1, 2):
                let length = try reader.length()
                ranges.append(reader.position..<reader.position + length)
                reader.position += length
            case (_, 0): _ = try reader.varint()
            case (_, 1): try reader.skip(8)
            case (_, 2): try reader.skip(reader.length())
            case (_, 5): try reader.skip(4)
            default: throw reader.error("unsupported wire type \(tag & 7)")
            }
        }
        return ranges
    }
}

/// Just enough of the protobuf wire format to find the files of a FileDescriptorSet.
private struct WireReader {
    let bytes: [UInt8]
    var position = 0

    var isAtEnd: Bool { position >= bytes.count }

    func error(_ reason: String) -> ProtoDecodingError {
        ProtoDecodingError(messageType: "google.protobuf.FileDescriptorSet", reason: reason)
    }

    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            guard position < bytes.count else { throw error("truncated varint") }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7f) << UInt64(shift)
            if byte & 0x80 == 0 { return value }
        }
        throw error("varint too long")
    }

    mutating func length() throws -> Int {
        let length = try varint()
        guard length <= UInt64(bytes.count - position) else { throw error("truncated field") }
        return Int(length)
    }

    mutating func skip(_ count: Int) throws {
        guard count <= bytes.count - position else { throw error("truncated field") }
        position += count
    }
}
