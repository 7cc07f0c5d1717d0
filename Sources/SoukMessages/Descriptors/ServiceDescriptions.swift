import CProtobufC
import SoukProtoC

/// One RPC as the descriptor set declares it: names, call shape and its source comment.
public struct MethodDescription: Sendable, Equatable {
    /// The fully-qualified service name, for example `souk.v1.Orders`.
    public var service: String
    /// The method name, for example `CancelOrder`.
    public var name: String
    /// Fully-qualified request and response message names (without protoc's leading dot).
    public var inputType: String
    public var outputType: String
    public var clientStreaming: Bool
    public var serverStreaming: Bool
    /// The comment above the `rpc` line, as protoc keeps it (lines without the `//`); empty when
    /// the descriptor set was built without `--include_source_info`.
    public var leadingComments: String

    public init(
        service: String, name: String, inputType: String, outputType: String, clientStreaming: Bool, serverStreaming: Bool,
        leadingComments: String
    ) {
        self.service = service
        self.name = name
        self.inputType = inputType
        self.outputType = outputType
        self.clientStreaming = clientStreaming
        self.serverStreaming = serverStreaming
        self.leadingComments = leadingComments
    }

    /// `service/method`, as logged and as error messages name a method.
    public var fullName: String { "\(service)/\(name)" }
}

extension DescriptorSet {
    /// Every method of every service of `package` (for example `souk.v1`), in declaration order.
    public func methods(inPackage package: String) throws -> [MethodDescription] {
        var methods: [MethodDescription] = []
        for fileName in fileNames {
            guard let bytes = serializedFile(named: fileName) else { continue }
            let file = try bytes.withUnsafeBytes {
                try unpackMessage(ServiceFileSummary.self, named: "google.protobuf.FileDescriptorProto", $0)
            }
            guard file.package == package else { continue }
            var comments: [[Int32]: String] = [:]
            for location in file.locations where !location.leadingComments.isEmpty {
                comments[location.path] = location.leadingComments
            }
            for (serviceIndex, service) in file.services.enumerated() {
                let serviceName = package.isEmpty ? service.name : "\(package).\(service.name)"
                for (methodIndex, method) in service.methods.enumerated() {
                    // SourceCodeInfo paths: FileDescriptorProto.service = 6, ServiceDescriptorProto.method = 2.
                    let path: [Int32] = [6, Int32(serviceIndex), 2, Int32(methodIndex)]
                    methods.append(MethodDescription(
                        service: serviceName, name: method.name,
                        inputType: Self.typeName(method.inputType), outputType: Self.typeName(method.outputType),
                        clientStreaming: method.clientStreaming, serverStreaming: method.serverStreaming,
                        leadingComments: comments[path] ?? ""))
                }
            }
        }
        return methods
    }

    private static func typeName(_ name: String) -> String {
        name.hasPrefix(".") ? String(name.dropFirst()) : name
    }
}

/// A `FileDescriptorProto` read for its services and source comments.
private struct ServiceFileSummary: CStructReadable {
    var package: String
    var services: [ServiceMethodsSummary]
    var locations: [LocationSummary]

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__FileDescriptorProto>) {
        google__protobuf__file_descriptor_proto__init(c)
    }

    init(c: Google__Protobuf__FileDescriptorProto) throws {
        package = try Unpacked.string(c.package, "package")
        services = try Unpacked.messages(c.n_service, c.service, "service")
        if let info = c.source_code_info {
            locations = try Unpacked.messages(info.pointee.n_location, info.pointee.location, "source_code_info.location")
        } else {
            locations = []
        }
    }
}

/// A `ServiceDescriptorProto` with its methods in full.
private struct ServiceMethodsSummary: CStructReadable {
    var name: String
    var methods: [MethodSummary]

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__ServiceDescriptorProto>) {
        google__protobuf__service_descriptor_proto__init(c)
    }

    init(c: Google__Protobuf__ServiceDescriptorProto) throws {
        name = try Unpacked.string(c.name, "name")
        methods = try Unpacked.messages(c.n_method, c.method, "method")
    }
}

/// A `MethodDescriptorProto`.
private struct MethodSummary: CStructReadable {
    var name: String
    var inputType: String
    var outputType: String
    var clientStreaming: Bool
    var serverStreaming: Bool

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__MethodDescriptorProto>) {
        google__protobuf__method_descriptor_proto__init(c)
    }

    init(c: Google__Protobuf__MethodDescriptorProto) throws {
        name = try Unpacked.string(c.name, "name")
        inputType = try Unpacked.string(c.input_type, "input_type")
        outputType = try Unpacked.string(c.output_type, "output_type")
        clientStreaming = c.client_streaming != 0
        serverStreaming = c.server_streaming != 0
    }
}

/// A `SourceCodeInfo.Location`: the element's path and the comment above it.
private struct LocationSummary: CStructReadable {
    var path: [Int32]
    var leadingComments: String

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__SourceCodeInfo__Location>) {
        google__protobuf__source_code_info__location__init(c)
    }

    init(c: Google__Protobuf__SourceCodeInfo__Location) throws {
        path = Unpacked.values(c.n_path, c.path)
        leadingComments = try Unpacked.string(c.leading_comments, "leading_comments")
    }
}
