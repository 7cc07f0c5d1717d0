import SoukGRPC
import SoukMessages

/// `grpc.reflection.v1.ServerReflection` or `grpc.reflection.v1alpha.ServerReflection`: tells
/// clients such as grpcurl which services the server offers and the proto files defining them.
///
/// Each request on the stream gets one response, in order. A request that cannot be answered
/// gets an `ErrorResponse` (NOT_FOUND for an unknown file, symbol, type or extension) and the
/// stream goes on, as the protocol specifies.
public struct ReflectionService: RPCService {
    /// The protocol version a `ReflectionService` speaks.
    public enum Version: Sendable, CaseIterable {
        case v1
        case v1alpha
    }

    public let version: Version
    public let serviceName: String
    private let answerer: ReflectionAnswerer

    /// - Parameters:
    ///   - registeredServices: the fully-qualified names of every service the server registered
    ///     (reflection's own included); list_services answers with these, in this order.
    ///   - descriptorSet: the proto files to describe; by default every file under Proto/.
    public init(version: Version, registeredServices: [String], descriptorSet: DescriptorSet = .embedded) {
        self.version = version
        switch version {
        case .v1: serviceName = "grpc.reflection.v1.ServerReflection"
        case .v1alpha: serviceName = "grpc.reflection.v1alpha.ServerReflection"
        }
        var seen: Set<String> = []
        answerer = ReflectionAnswerer(services: registeredServices.filter { seen.insert($0).inserted }, descriptorSet: descriptorSet)
    }

    /// One service per protocol version, both answering the same way.
    public static func allVersions(registeredServices: [String], descriptorSet: DescriptorSet = .embedded) -> [ReflectionService] {
        Version.allCases.map { ReflectionService(version: $0, registeredServices: registeredServices, descriptorSet: descriptorSet) }
    }

    /// The names of both versions' services, for a server to include in `registeredServices`.
    public static let serviceNames = ["grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"]

    public var methods: [RPCMethod] {
        switch version {
        case .v1: [method(GRPCReflection.V1.self)]
        case .v1alpha: [method(GRPCReflection.V1Alpha.self)]
        }
    }

    private func method<V: GRPCReflection.Version>(_ version: V.Type) -> RPCMethod {
        let answerer = self.answerer
        return .bidirectionalStreaming("ServerReflectionInfo") {
            (requests: RPCReader<GRPCReflection.ServerReflectionRequest<V>>, responses: RPCWriter<GRPCReflection.ServerReflectionResponse<V>>, _) in
            for try await request in requests {
                try await responses.write(GRPCReflection.ServerReflectionResponse(
                    validHost: request.host, originalRequest: request, messageResponse: answerer.answer(request.messageRequest)))
            }
        }
    }
}

/// The version-independent part of reflection: answers one request from the descriptor set.
struct ReflectionAnswerer: Sendable {
    let services: [String]
    let descriptorSet: DescriptorSet

    func answer<V>(_ request: GRPCReflection.ServerReflectionRequest<V>.MessageRequest?) -> GRPCReflection.ServerReflectionResponse<V>.MessageResponse {
        switch request {
        case .listServices:
            return .listServicesResponse(.init(services: services.map { .init(name: $0) }))
        case .fileByFilename(let name):
            return files(named: name, notFound: "file \"\(name)\" not found")
        case .fileContainingSymbol(let symbol):
            guard let name = descriptorSet.fileName(containingSymbol: symbol) else {
                return error(.notFound, "symbol \"\(symbol)\" not found")
            }
            return files(named: name, notFound: "symbol \"\(symbol)\" not found")
        case .fileContainingExtension(let request):
            guard let name = descriptorSet.fileName(containingExtension: request.extensionNumber, of: request.containingType) else {
                return error(.notFound, "extension \(request.extensionNumber) of \"\(request.containingType)\" not found")
            }
            return files(named: name, notFound: "extension \(request.extensionNumber) of \"\(request.containingType)\" not found")
        case .allExtensionNumbersOfType(let type):
            guard let numbers = descriptorSet.extensionNumbers(of: type) else {
                return error(.notFound, "message type \"\(type)\" not found")
            }
            return .allExtensionNumbersResponse(.init(baseTypeName: type, extensionNumbers: numbers))
        case nil:
            return error(.invalidArgument, "the request sets none of the message_request fields")
        }
    }

    /// A file and its transitive dependencies.
    private func files<V>(named name: String, notFound: String) -> GRPCReflection.ServerReflectionResponse<V>.MessageResponse {
        guard let files = descriptorSet.serializedFileWithDependencies(named: name) else {
            return error(.notFound, notFound)
        }
        return .fileDescriptorResponse(.init(fileDescriptorProtos: files))
    }

    private func error<V>(_ code: StatusCode, _ message: String) -> GRPCReflection.ServerReflectionResponse<V>.MessageResponse {
        .errorResponse(.init(errorCode: Int32(code.rawValue), errorMessage: message))
    }
}
