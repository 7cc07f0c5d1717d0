import NIOCore
import SoukGRPC
import SoukMessages
import SoukStandardServices
import Testing

@Suite struct ReflectionServiceTests {
    typealias Request = GRPCReflection.ServerReflectionRequest<GRPCReflection.V1>
    typealias Response = GRPCReflection.ServerReflectionResponse<GRPCReflection.V1>

    let registered = ["grpc.health.v1.Health", "grpc.testing.TestService"] + ReflectionService.serviceNames + ["grpc.health.v1.Health"]

    func ask(_ requests: [Request], version: ReflectionService.Version = .v1) async throws -> [Response] {
        let service = ReflectionService(version: version, registeredServices: registered)
        return try await CallHarness(service: service).bidirectional("ServerReflectionInfo", requests).map(\.message)
    }

    func answer(_ request: Request.MessageRequest?) async throws -> Response.MessageResponse? {
        try await ask([Request(host: "localhost", messageRequest: request)]).first?.messageResponse
    }

    @Test func namesBothVersions() {
        let services = ReflectionService.allVersions(registeredServices: [])
        #expect(services.map(\.serviceName) == ReflectionService.serviceNames)
        #expect(services.allSatisfy { $0.methods.map(\.name) == ["ServerReflectionInfo"] && $0.methods[0].kind == .bidirectionalStreaming })
    }

    @Test func listsTheRegisteredServicesOnce() async throws {
        let expected = GRPCReflection.ListServiceResponse(services: [
            .init(name: "grpc.health.v1.Health"), .init(name: "grpc.testing.TestService"),
            .init(name: "grpc.reflection.v1.ServerReflection"), .init(name: "grpc.reflection.v1alpha.ServerReflection"),
        ])
        #expect(try await answer(.listServices("")) == .listServicesResponse(expected))
    }

    @Test func answersEachRequestInOrderEchoingHostAndRequest() async throws {
        let requests = [
            Request(host: "a", messageRequest: .listServices("*")),
            Request(host: "b", messageRequest: .fileByFilename("nope.proto")),
            Request(host: "c", messageRequest: .fileContainingSymbol("grpc.health.v1.Health")),
        ]
        let responses = try await ask(requests)
        #expect(responses.map(\.validHost) == ["a", "b", "c"])
        #expect(responses.map(\.originalRequest) == requests)
    }

    @Test func fileByNameComesWithItsDependencies() async throws {
        let expected = try #require(DescriptorSet.embedded.serializedFileWithDependencies(named: "google/rpc/status.proto"))
        #expect(expected.count == 2)
        #expect(try await answer(.fileByFilename("google/rpc/status.proto")) == .fileDescriptorResponse(.init(fileDescriptorProtos: expected)))
    }

    @Test(arguments: ["grpc.health.v1.Health", "grpc.health.v1.Health.Check", "grpc.health.v1.HealthCheckResponse.ServingStatus"])
    func fileContainingSymbol(symbol: String) async throws {
        let expected = try #require(DescriptorSet.embedded.serializedFileWithDependencies(named: "grpc/health/v1/health.proto"))
        #expect(try await answer(.fileContainingSymbol(symbol)) == .fileDescriptorResponse(.init(fileDescriptorProtos: expected)))
    }

    @Test func unknownThingsAreNotFoundErrorResponses() async throws {
        let notFound = Int32(StatusCode.notFound.rawValue)
        for request: Request.MessageRequest in [
            .fileByFilename("nope.proto"), .fileContainingSymbol("souk.v1.Nope"),
            .fileContainingExtension(.init(containingType: "grpc.testing.Empty", extensionNumber: 100)),
            .allExtensionNumbersOfType("souk.v1.Nope"),
        ] {
            guard case .errorResponse(let error) = try await answer(request) else {
                Issue.record("expected an error response for \(request)")
                continue
            }
            #expect(error.errorCode == notFound)
            #expect(!error.errorMessage.isEmpty)
        }
    }

    @Test func extensionNumbersOfAKnownType() async throws {
        #expect(try await answer(.allExtensionNumbersOfType("grpc.testing.SimpleRequest"))
            == .allExtensionNumbersResponse(.init(baseTypeName: "grpc.testing.SimpleRequest", extensionNumbers: [])))
    }

    @Test func aRequestWithoutAQuestionIsInvalid() async throws {
        #expect(try await answer(nil) == .errorResponse(.init(
            errorCode: Int32(StatusCode.invalidArgument.rawValue), errorMessage: "the request sets none of the message_request fields")))
    }

    @Test func v1alphaAnswersTheSame() async throws {
        let service = ReflectionService(version: .v1alpha, registeredServices: registered)
        #expect(service.serviceName == "grpc.reflection.v1alpha.ServerReflection")
        let request = GRPCReflection.ServerReflectionRequest<GRPCReflection.V1Alpha>(messageRequest: .fileContainingSymbol("grpc.testing.TestService"))
        let sink = Sink<GRPCReflection.ServerReflectionResponse<GRPCReflection.V1Alpha>>()
        let responses = try await CallHarness(service: service).bidirectional("ServerReflectionInfo", [request], sink: sink)
        let expected = try #require(DescriptorSet.embedded.serializedFileWithDependencies(named: "grpc/testing/test.proto"))
        #expect(responses.map(\.message.messageResponse) == [.fileDescriptorResponse(.init(fileDescriptorProtos: expected))])
    }
}
