import Testing
@testable import SoukMessages

/// Bytes made by protoc from text format must decode to the expected value, and the wrappers
/// must pack that value to the very same bytes.
@Suite struct ProtocCrossCheckTests {
    func check<M: ProtoMessage>(_ value: M, text: String, file: String) throws {
        let golden = try Protoc.encode(M.protoName, text, files: [file])
        #expect(try M(decoding: golden) == value)
        #expect(value.encoded() == golden)
    }

    @Test func interopMessages() throws {
        try check(
            GRPCTesting.SimpleRequest(
                responseSize: 314_159, payload: .init(body: Array("abc".utf8)), fillUsername: true,
                responseCompressed: .init(value: true), responseStatus: .init(code: 2, message: "test status message"),
                expectCompressed: .init(value: false)),
            text: #"response_size: 314159 payload { body: "abc" } fill_username: true response_compressed { value: true } response_status { code: 2 message: "test status message" } expect_compressed { }"#,
            file: "grpc/testing/messages.proto")
        try check(
            GRPCTesting.StreamingOutputCallRequest(responseParameters: [.init(size: 31415), .init(size: 9, intervalUs: 500, compressed: .init(value: true))]),
            text: "response_parameters { size: 31415 } response_parameters { size: 9 interval_us: 500 compressed { value: true } }",
            file: "grpc/testing/messages.proto")
        try check(GRPCTesting.SimpleResponse(grpclbRouteType: .fallback, hostname: "ünïcode"),
                  text: #"grpclb_route_type: GRPCLB_ROUTE_TYPE_FALLBACK hostname: "ünïcode""#, file: "grpc/testing/messages.proto")
    }

    /// From `packThroughBufferThreshold` on, messages are packed through a buffer; a nested message
    /// whose length takes three bytes must still come out as protoc writes it.
    @Test(arguments: [packThroughBufferThreshold - 8, packThroughBufferThreshold, 70_000])
    func largeNestedMessagesPackAsProtocDoes(bodySize: Int) throws {
        let body = (0 ..< bodySize).map { UInt8(ascii: "a") + UInt8($0 % 3) }
        let value = GRPCTesting.SimpleResponse(payload: .init(body: body), username: "u", hostname: "h")
        try check(value, text: #"payload { body: "\#(String(decoding: body, as: UTF8.self))" } username: "u" hostname: "h""#,
                  file: "grpc/testing/messages.proto")
        var packed: [UInt8] = []
        value.withPacker { size, pack in
            packed = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                pack(UnsafeMutableRawPointer(buffer.baseAddress!))
                count = size
            }
        }
        #expect(packed == value.encoded())
    }

    @Test func healthMessages() throws {
        try check(GRPCHealth.HealthCheckRequest(service: "grpc.testing.TestService"),
                  text: #"service: "grpc.testing.TestService""#, file: "grpc/health/v1/health.proto")
        try check(GRPCHealth.HealthCheckResponse(status: .serviceUnknown), text: "status: SERVICE_UNKNOWN", file: "grpc/health/v1/health.proto")
    }

    @Test func reflectionMessages() throws {
        try check(GRPCReflection.ServerReflectionRequest<GRPCReflection.V1>(host: "localhost", messageRequest: .listServices("")),
                  text: #"host: "localhost" list_services: """#, file: "grpc/reflection/v1/reflection.proto")
        try check(
            GRPCReflection.ServerReflectionResponse<GRPCReflection.V1Alpha>(
                validHost: "h", originalRequest: .init(messageRequest: .fileContainingExtension(.init(containingType: "a.B", extensionNumber: 7))),
                messageResponse: .errorResponse(.init(errorCode: 5, errorMessage: "not found"))),
            text: #"valid_host: "h" original_request { file_containing_extension { containing_type: "a.B" extension_number: 7 } } error_response { error_code: 5 error_message: "not found" }"#,
            file: "grpc/reflection/v1alpha/reflection.proto")
        try check(
            GRPCReflection.ServerReflectionResponse<GRPCReflection.V1>(
                messageResponse: .allExtensionNumbersResponse(.init(baseTypeName: "a.B", extensionNumbers: [1, 2, 300]))),
            text: #"all_extension_numbers_response { base_type_name: "a.B" extension_number: [1, 2, 300] }"#,
            file: "grpc/reflection/v1/reflection.proto")
    }

    @Test func statusWithBadRequestDetail() throws {
        let text = #"""
            code: 3 message: "bad" details {
              [type.googleapis.com/google.rpc.BadRequest] { field_violations { field: "email" description: "missing" } }
            }
            """#
        // protoc needs error_details.proto loaded to expand the Any.
        let golden = try Protoc.encode("google.rpc.Status", text, files: ["google/rpc/status.proto", "google/rpc/error_details.proto"])
        let badRequest = GoogleRPC.BadRequest(fieldViolations: [.init(field: "email", description: "missing")])
        let status = GoogleRPC.Status(code: 3, message: "bad", details: [GoogleProtobuf.AnyMessage(packing: badRequest)])
        #expect(status.encoded() == golden)
    }

    @Test func wellKnownTypes() throws {
        try check(Timestamp(seconds: 1_700_000_000, nanos: 5), text: "seconds: 1700000000 nanos: 5", file: "google/protobuf/timestamp.proto")
        try check(GoogleProtobuf.FieldMask(paths: ["a.b", "c"]), text: #"paths: "a.b" paths: "c""#, file: "google/protobuf/field_mask.proto")
        try check(GoogleRPC.RetryInfo(retryDelay: .milliseconds(-2500)), text: "retry_delay { seconds: -2 nanos: -500000000 }",
                  file: "google/rpc/error_details.proto")
        try check(GoogleRPC.ErrorInfo(reason: "R", domain: "d", metadata: ["k": "v"]),
                  text: #"reason: "R" domain: "d" metadata { key: "k" value: "v" }"#, file: "google/rpc/error_details.proto")
        try check(GoogleRPC.LocalizedMessage(locale: "ar", message: "رسالة"),
                  text: #"locale: "ar" message: "رسالة""#, file: "google/rpc/error_details.proto")
    }
}
