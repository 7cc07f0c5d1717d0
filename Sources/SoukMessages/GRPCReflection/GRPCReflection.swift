import CProtobufC
import SoukProtoC

/// Swift types for the gRPC server reflection protocol, `grpc.reflection.v1` and `grpc.reflection.v1alpha`.
///
/// The two versions have the same messages with the same field numbers, so they are the same
/// bytes on the wire: one Swift type serves both, generic over the version only for its proto
/// name, and both are packed with the v1 protobuf-c code (`wireLayoutsMatch()` checks that the
/// two generated descriptors agree field by field).
public enum GRPCReflection {
    /// A version of the reflection protocol.
    public protocol Version: Sendable {
        /// The proto package, for example `grpc.reflection.v1`.
        static var package: String { get }
    }

    /// `grpc.reflection.v1`.
    public enum V1: Version {
        public static var package: String { "grpc.reflection.v1" }
    }

    /// `grpc.reflection.v1alpha`, the version older clients (and grpcurl) still use.
    public enum V1Alpha: Version {
        public static var package: String { "grpc.reflection.v1alpha" }
    }

    /// `ServerReflectionRequest`: one question about the server's schema.
    public struct ServerReflectionRequest<V: Version>: Sendable, Hashable {
        /// The question (the `message_request` oneof).
        public enum MessageRequest: Sendable, Hashable {
            case fileByFilename(String)
            case fileContainingSymbol(String)
            case fileContainingExtension(ExtensionRequest)
            case allExtensionNumbersOfType(String)
            case listServices(String)
        }

        public var host: String
        /// nil when the client set none of the oneof's fields.
        public var messageRequest: MessageRequest?

        public init(host: String = "", messageRequest: MessageRequest? = nil) {
            self.host = host
            self.messageRequest = messageRequest
        }
    }

    /// `ServerReflectionResponse`: the answer to one request.
    public struct ServerReflectionResponse<V: Version>: Sendable, Hashable {
        /// The answer (the `message_response` oneof).
        public enum MessageResponse: Sendable, Hashable {
            case fileDescriptorResponse(FileDescriptorResponse)
            case allExtensionNumbersResponse(ExtensionNumberResponse)
            case listServicesResponse(ListServiceResponse)
            case errorResponse(ErrorResponse)
        }

        public var validHost: String
        public var originalRequest: ServerReflectionRequest<V>?
        public var messageResponse: MessageResponse?

        public init(validHost: String = "", originalRequest: ServerReflectionRequest<V>? = nil, messageResponse: MessageResponse? = nil) {
            self.validHost = validHost
            self.originalRequest = originalRequest
            self.messageResponse = messageResponse
        }
    }

    /// `ExtensionRequest`: a message type and one of its extension numbers.
    public struct ExtensionRequest: Sendable, Hashable {
        public var containingType: String
        public var extensionNumber: Int32

        public init(containingType: String = "", extensionNumber: Int32 = 0) {
            self.containingType = containingType
            self.extensionNumber = extensionNumber
        }
    }

    /// `FileDescriptorResponse`: serialized `google.protobuf.FileDescriptorProto`s.
    public struct FileDescriptorResponse: Sendable, Hashable {
        public var fileDescriptorProtos: [[UInt8]]

        public init(fileDescriptorProtos: [[UInt8]] = []) {
            self.fileDescriptorProtos = fileDescriptorProtos
        }
    }

    /// `ExtensionNumberResponse`: the extension numbers of one message type.
    public struct ExtensionNumberResponse: Sendable, Hashable {
        public var baseTypeName: String
        public var extensionNumbers: [Int32]

        public init(baseTypeName: String = "", extensionNumbers: [Int32] = []) {
            self.baseTypeName = baseTypeName
            self.extensionNumbers = extensionNumbers
        }
    }

    /// `ListServiceResponse`: the registered services.
    public struct ListServiceResponse: Sendable, Hashable {
        public var services: [ServiceResponse]

        public init(services: [ServiceResponse] = []) {
            self.services = services
        }
    }

    /// `ServiceResponse`: one service, by fully-qualified name.
    public struct ServiceResponse: Sendable, Hashable {
        public var name: String

        public init(name: String = "") {
            self.name = name
        }
    }

    /// `ErrorResponse`: a gRPC status code and message for a request that could not be answered.
    public struct ErrorResponse: Sendable, Hashable {
        public var errorCode: Int32
        public var errorMessage: String

        public init(errorCode: Int32 = 0, errorMessage: String = "") {
            self.errorCode = errorCode
            self.errorMessage = errorMessage
        }
    }
}

// MARK: - protobuf-c mirrors (v1 C code for both versions; see the type's documentation)

extension GRPCReflection.ServerReflectionRequest: CProtoMessage {
    public static var protoName: String { "\(V.package).ServerReflectionRequest" }

    static func cInit(_ c: UnsafeMutablePointer<Grpc__Reflection__V1__ServerReflectionRequest>) {
        grpc__reflection__v1__server_reflection_request__init(c)
    }

    init(c: Grpc__Reflection__V1__ServerReflectionRequest) throws {
        host = try Unpacked.string(c.host, "host")
        switch c.message_request_case {
        case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_BY_FILENAME:
            messageRequest = .fileByFilename(try Unpacked.string(c.file_by_filename, "file_by_filename"))
        case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_CONTAINING_SYMBOL:
            messageRequest = .fileContainingSymbol(try Unpacked.string(c.file_containing_symbol, "file_containing_symbol"))
        case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_CONTAINING_EXTENSION:
            let request: GRPCReflection.ExtensionRequest? = try Unpacked.message(c.file_containing_extension, "file_containing_extension")
            messageRequest = .fileContainingExtension(request ?? .init())
        case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_ALL_EXTENSION_NUMBERS_OF_TYPE:
            messageRequest = .allExtensionNumbersOfType(try Unpacked.string(c.all_extension_numbers_of_type, "all_extension_numbers_of_type"))
        case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_LIST_SERVICES:
            messageRequest = .listServices(try Unpacked.string(c.list_services, "list_services"))
        default:
            messageRequest = nil
        }
    }

    func fill(_ c: inout Grpc__Reflection__V1__ServerReflectionRequest, _ arena: inout EncodingArena) {
        c.host = arena.string(host)
        switch messageRequest {
        case .fileByFilename(let name):
            c.message_request_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_BY_FILENAME
            c.file_by_filename = arena.string(name)
        case .fileContainingSymbol(let symbol):
            c.message_request_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_CONTAINING_SYMBOL
            c.file_containing_symbol = arena.string(symbol)
        case .fileContainingExtension(let request):
            c.message_request_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_CONTAINING_EXTENSION
            c.file_containing_extension = arena.message(request)
        case .allExtensionNumbersOfType(let type):
            c.message_request_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_ALL_EXTENSION_NUMBERS_OF_TYPE
            c.all_extension_numbers_of_type = arena.string(type)
        case .listServices(let value):
            c.message_request_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_LIST_SERVICES
            c.list_services = arena.string(value)
        case nil:
            break
        }
    }
}

extension GRPCReflection.ServerReflectionResponse: CProtoMessage {
    public static var protoName: String { "\(V.package).ServerReflectionResponse" }

    static func cInit(_ c: UnsafeMutablePointer<Grpc__Reflection__V1__ServerReflectionResponse>) {
        grpc__reflection__v1__server_reflection_response__init(c)
    }

    init(c: Grpc__Reflection__V1__ServerReflectionResponse) throws {
        validHost = try Unpacked.string(c.valid_host, "valid_host")
        originalRequest = try Unpacked.message(c.original_request, "original_request")
        switch c.message_response_case {
        case GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_FILE_DESCRIPTOR_RESPONSE:
            let response: GRPCReflection.FileDescriptorResponse? = try Unpacked.message(c.file_descriptor_response, "file_descriptor_response")
            messageResponse = .fileDescriptorResponse(response ?? .init())
        case GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_ALL_EXTENSION_NUMBERS_RESPONSE:
            let response: GRPCReflection.ExtensionNumberResponse? = try Unpacked.message(c.all_extension_numbers_response, "all_extension_numbers_response")
            messageResponse = .allExtensionNumbersResponse(response ?? .init())
        case GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_LIST_SERVICES_RESPONSE:
            let response: GRPCReflection.ListServiceResponse? = try Unpacked.message(c.list_services_response, "list_services_response")
            messageResponse = .listServicesResponse(response ?? .init())
        case GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_ERROR_RESPONSE:
            let response: GRPCReflection.ErrorResponse? = try Unpacked.message(c.error_response, "error_response")
            messageResponse = .errorResponse(response ?? .init())
        default:
            messageResponse = nil
        }
    }

    func fill(_ c: inout Grpc__Reflection__V1__ServerReflectionResponse, _ arena: inout EncodingArena) {
        c.valid_host = arena.string(validHost)
        c.original_request = arena.message(originalRequest)
        switch messageResponse {
        case .fileDescriptorResponse(let response):
            c.message_response_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_FILE_DESCRIPTOR_RESPONSE
            c.file_descriptor_response = arena.message(response)
        case .allExtensionNumbersResponse(let response):
            c.message_response_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_ALL_EXTENSION_NUMBERS_RESPONSE
            c.all_extension_numbers_response = arena.message(response)
        case .listServicesResponse(let response):
            c.message_response_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_LIST_SERVICES_RESPONSE
            c.list_services_response = arena.message(response)
        case .errorResponse(let response):
            c.message_response_case = GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_ERROR_RESPONSE
            c.error_response = arena.message(response)
        case nil:
            break
        }
    }
}

extension GRPCReflection.ExtensionRequest: CStructConvertible {
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Reflection__V1__ExtensionRequest>) {
        grpc__reflection__v1__extension_request__init(c)
    }

    init(c: Grpc__Reflection__V1__ExtensionRequest) throws {
        containingType = try Unpacked.string(c.containing_type, "containing_type")
        extensionNumber = c.extension_number
    }

    func fill(_ c: inout Grpc__Reflection__V1__ExtensionRequest, _ arena: inout EncodingArena) {
        c.containing_type = arena.string(containingType)
        c.extension_number = extensionNumber
    }
}

extension GRPCReflection.FileDescriptorResponse: CStructConvertible {
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Reflection__V1__FileDescriptorResponse>) {
        grpc__reflection__v1__file_descriptor_response__init(c)
    }

    init(c: Grpc__Reflection__V1__FileDescriptorResponse) throws {
        fileDescriptorProtos = Unpacked.bytesList(c.n_file_descriptor_proto, c.file_descriptor_proto)
    }

    func fill(_ c: inout Grpc__Reflection__V1__FileDescriptorResponse, _ arena: inout EncodingArena) {
        c.n_file_descriptor_proto = fileDescriptorProtos.count
        c.file_descriptor_proto = arena.bytesList(fileDescriptorProtos)
    }
}

extension GRPCReflection.ExtensionNumberResponse: CStructConvertible {
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Reflection__V1__ExtensionNumberResponse>) {
        grpc__reflection__v1__extension_number_response__init(c)
    }

    init(c: Grpc__Reflection__V1__ExtensionNumberResponse) throws {
        baseTypeName = try Unpacked.string(c.base_type_name, "base_type_name")
        extensionNumbers = Unpacked.values(c.n_extension_number, c.extension_number)
    }

    func fill(_ c: inout Grpc__Reflection__V1__ExtensionNumberResponse, _ arena: inout EncodingArena) {
        c.base_type_name = arena.string(baseTypeName)
        c.n_extension_number = extensionNumbers.count
        c.extension_number = arena.values(extensionNumbers)
    }
}

extension GRPCReflection.ListServiceResponse: CStructConvertible {
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Reflection__V1__ListServiceResponse>) {
        grpc__reflection__v1__list_service_response__init(c)
    }

    init(c: Grpc__Reflection__V1__ListServiceResponse) throws {
        services = try Unpacked.messages(c.n_service, c.service, "service")
    }

    func fill(_ c: inout Grpc__Reflection__V1__ListServiceResponse, _ arena: inout EncodingArena) {
        c.n_service = services.count
        c.service = arena.messages(services)
    }
}

extension GRPCReflection.ServiceResponse: CStructConvertible {
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Reflection__V1__ServiceResponse>) {
        grpc__reflection__v1__service_response__init(c)
    }

    init(c: Grpc__Reflection__V1__ServiceResponse) throws {
        name = try Unpacked.string(c.name, "name")
    }

    func fill(_ c: inout Grpc__Reflection__V1__ServiceResponse, _ arena: inout EncodingArena) {
        c.name = arena.string(name)
    }
}

extension GRPCReflection.ErrorResponse: CStructConvertible {
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Reflection__V1__ErrorResponse>) {
        grpc__reflection__v1__error_response__init(c)
    }

    init(c: Grpc__Reflection__V1__ErrorResponse) throws {
        errorCode = c.error_code
        errorMessage = try Unpacked.string(c.error_message, "error_message")
    }

    func fill(_ c: inout Grpc__Reflection__V1__ErrorResponse, _ arena: inout EncodingArena) {
        c.error_code = errorCode
        c.error_message = arena.string(errorMessage)
    }
}

extension GRPCReflection {
    /// Whether the v1 and v1alpha generated descriptors describe the same wire format and the
    /// same C layout, message by message and field by field: what makes sharing the v1 code safe.
    static func wireLayoutsMatch() -> Bool {
        let pairs: [(UnsafePointer<ProtobufCMessageDescriptor>, UnsafePointer<ProtobufCMessageDescriptor>)] = descriptorPairs()
        return pairs.allSatisfy { v1, v1alpha in
            guard v1.pointee.n_fields == v1alpha.pointee.n_fields, v1.pointee.sizeof_message == v1alpha.pointee.sizeof_message else {
                return false
            }
            return (0..<Int(v1.pointee.n_fields)).allSatisfy { index in
                let a = v1.pointee.fields[index], b = v1alpha.pointee.fields[index]
                return a.id == b.id && a.label == b.label && a.type == b.type && a.offset == b.offset
                    && a.quantifier_offset == b.quantifier_offset && a.flags == b.flags
                    && String(cString: a.name) == String(cString: b.name)
            }
        }
    }

    /// The descriptors of each message in both versions, found through the generated init functions.
    private static func descriptorPairs() -> [(UnsafePointer<ProtobufCMessageDescriptor>, UnsafePointer<ProtobufCMessageDescriptor>)] {
        func descriptor<C>(_ type: C.Type, _ initialise: (UnsafeMutablePointer<C>) -> Void) -> UnsafePointer<ProtobufCMessageDescriptor> {
            withUnsafeTemporaryAllocation(of: C.self, capacity: 1) { buffer in
                initialise(buffer.baseAddress!)
                return UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: ProtobufCMessage.self).pointee.descriptor
            }
        }
        return [
            (descriptor(Grpc__Reflection__V1__ServerReflectionRequest.self, grpc__reflection__v1__server_reflection_request__init),
             descriptor(Grpc__Reflection__V1alpha__ServerReflectionRequest.self, grpc__reflection__v1alpha__server_reflection_request__init)),
            (descriptor(Grpc__Reflection__V1__ServerReflectionResponse.self, grpc__reflection__v1__server_reflection_response__init),
             descriptor(Grpc__Reflection__V1alpha__ServerReflectionResponse.self, grpc__reflection__v1alpha__server_reflection_response__init)),
            (descriptor(Grpc__Reflection__V1__ExtensionRequest.self, grpc__reflection__v1__extension_request__init),
             descriptor(Grpc__Reflection__V1alpha__ExtensionRequest.self, grpc__reflection__v1alpha__extension_request__init)),
            (descriptor(Grpc__Reflection__V1__FileDescriptorResponse.self, grpc__reflection__v1__file_descriptor_response__init),
             descriptor(Grpc__Reflection__V1alpha__FileDescriptorResponse.self, grpc__reflection__v1alpha__file_descriptor_response__init)),
            (descriptor(Grpc__Reflection__V1__ExtensionNumberResponse.self, grpc__reflection__v1__extension_number_response__init),
             descriptor(Grpc__Reflection__V1alpha__ExtensionNumberResponse.self, grpc__reflection__v1alpha__extension_number_response__init)),
            (descriptor(Grpc__Reflection__V1__ListServiceResponse.self, grpc__reflection__v1__list_service_response__init),
             descriptor(Grpc__Reflection__V1alpha__ListServiceResponse.self, grpc__reflection__v1alpha__list_service_response__init)),
            (descriptor(Grpc__Reflection__V1__ServiceResponse.self, grpc__reflection__v1__service_response__init),
             descriptor(Grpc__Reflection__V1alpha__ServiceResponse.self, grpc__reflection__v1alpha__service_response__init)),
            (descriptor(Grpc__Reflection__V1__ErrorResponse.self, grpc__reflection__v1__error_response__init),
             descriptor(Grpc__Reflection__V1alpha__ErrorResponse.self, grpc__reflection__v1alpha__error_response__init)),
        ]
    }
}
