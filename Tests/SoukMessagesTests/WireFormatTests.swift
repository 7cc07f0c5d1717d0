import Testing
@testable import SoukMessages

/// Packs and unpacks a message, checking the round trip gives the same value.
func roundTrip<M: ProtoMessage>(_ message: M) throws -> [UInt8] {
    let bytes = message.encoded()
    #expect(try M(decoding: bytes) == message)
    return bytes
}

@Suite struct DefaultsTests {
    @Test func defaultMessagesEncodeToZeroBytes() throws {
        #expect(try roundTrip(GRPCTesting.Empty()).isEmpty)
        #expect(try roundTrip(GRPCTesting.SimpleRequest()).isEmpty)
        #expect(try roundTrip(GRPCTesting.SimpleResponse()).isEmpty)
        #expect(try roundTrip(GRPCTesting.StreamingOutputCallRequest()).isEmpty)
        #expect(try roundTrip(GRPCHealth.HealthCheckRequest()).isEmpty)
        #expect(try roundTrip(GRPCHealth.HealthCheckResponse()).isEmpty)
        #expect(try roundTrip(GoogleRPC.Status()).isEmpty)
        #expect(try roundTrip(GoogleRPC.BadRequest()).isEmpty)
        #expect(try roundTrip(GoogleProtobuf.AnyMessage()).isEmpty)
        #expect(try roundTrip(GoogleProtobuf.Empty()).isEmpty)
        #expect(try roundTrip(Timestamp(seconds: 0)).isEmpty)
        #expect(try roundTrip(GRPCReflection.ServerReflectionRequest<GRPCReflection.V1>()).isEmpty)
        #expect(try roundTrip(GRPCReflection.ServerReflectionResponse<GRPCReflection.V1Alpha>()).isEmpty)
    }

    @Test func zeroBytesDecodeToDefaults() throws {
        #expect(try GRPCTesting.SimpleRequest(decoding: []) == GRPCTesting.SimpleRequest())
        #expect(try GoogleRPC.Status(decoding: []) == GoogleRPC.Status())
        #expect(try GRPCHealth.HealthCheckResponse(decoding: []).status == .unknown)
    }

    @Test func presentButDefaultNestedMessageStaysPresent() throws {
        // expect_compressed { value: false } differs from no expect_compressed at all.
        let request = GRPCTesting.SimpleRequest(expectCompressed: .init(value: false))
        let bytes = try roundTrip(request)
        #expect(bytes == [0x42, 0x00])
        #expect(try GRPCTesting.SimpleRequest(decoding: bytes).expectCompressed == GRPCTesting.BoolValue(value: false))
    }
}

@Suite struct FieldPatternTests {
    @Test func scalarsStringsBytesAndNestedMessages() throws {
        let request = GRPCTesting.SimpleRequest(
            responseType: .compressable, responseSize: 314_159,
            payload: .init(body: [0, 1, 2, 255]), fillUsername: true, fillOauthScope: true,
            responseCompressed: .init(value: true), responseStatus: .init(code: 2, message: "test status message ✓"),
            expectCompressed: .init(value: true), fillServerID: true, fillGrpclbRouteType: true
        )
        _ = try roundTrip(request)
        _ = try roundTrip(GRPCTesting.SimpleResponse(
            payload: .init(body: [7]), username: "u", oauthScope: "s", serverID: "id", grpclbRouteType: .backend, hostname: "h"))
        _ = try roundTrip(GRPCTesting.StreamingInputCallRequest(payload: .init(body: [1]), expectCompressed: .init(value: true)))
        _ = try roundTrip(GRPCTesting.StreamingInputCallResponse(aggregatedPayloadSize: 74_922))
        _ = try roundTrip(GRPCTesting.StreamingOutputCallResponse(payload: .init(body: [9, 9])))
        _ = try roundTrip(GRPCTesting.EchoStatus(code: -1, message: ""))
        _ = try roundTrip(GRPCHealth.HealthCheckRequest(service: "souk.v1.Orders"))
    }

    @Test func largeBytesFieldsAreUnpackedIntoTheirOwnArrays() throws {
        // From LargeBlocks.threshold on, protobuf-c unpacks the field into an array the wrapper takes.
        for count in [LargeBlocks.threshold - 1, LargeBlocks.threshold, LargeBlocks.threshold + 1, 200_000] {
            let body = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
            let bytes = GRPCTesting.SimpleRequest(responseSize: 7, payload: .init(body: body)).encoded()
            var decoded = try GRPCTesting.SimpleRequest(decoding: bytes)
            #expect(decoded.payload?.body == body)
            #expect(decoded.responseSize == 7)
            // The array outlives the unpacked C message and is the wrapper's to change.
            decoded.payload?.body[count - 1] ^= 0xFF
            #expect(decoded.payload?.body.last == body[count - 1] ^ 0xFF)
            #expect(try GRPCTesting.SimpleRequest(decoding: bytes).payload?.body == body)
        }
        // Several large blocks in one message (a repeated bytes field), and a large one beside small ones.
        let files = [[UInt8](repeating: 1, count: 20_000), [2, 3], [UInt8](repeating: 4, count: 70_000)]
        let response = GRPCReflection.ServerReflectionResponse<GRPCReflection.V1>(
            messageResponse: .fileDescriptorResponse(.init(fileDescriptorProtos: files)))
        _ = try roundTrip(response)
    }

    @Test func aMessageCutInsideALargeBytesFieldIsRefused() {
        // protobuf-c frees what it unpacked so far, the large block included.
        let bytes = GRPCTesting.SimpleRequest(payload: .init(body: [UInt8](repeating: 9, count: 40_000))).encoded()
        #expect(throws: ProtoDecodingError.self) { try GRPCTesting.SimpleRequest(decoding: Array(bytes.dropLast(10))) }
        let trailingGarbage = bytes + [0xFF]
        #expect(throws: ProtoDecodingError.self) { try GRPCTesting.SimpleRequest(decoding: trailingGarbage) }
    }

    @Test func bytesFieldsAroundTheBorrowThresholdPackTheirOwnBytes() throws {
        // Below the threshold the arena copies the bytes; from it on, the C field points into the array.
        for count in [EncodingArena.borrowThreshold - 1, EncodingArena.borrowThreshold, 70_000] {
            let body = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            var response = GRPCTesting.SimpleResponse(payload: .init(body: body), username: "u")
            let bytes = try roundTrip(response)
            #expect(bytes.count > count)
            #expect(bytes.firstRange(of: body) != nil)
            // Changing the message afterwards gives it new storage; the packed bytes follow the value.
            response.payload?.body[0] ^= 0xFF
            #expect(try GRPCTesting.SimpleResponse(decoding: response.encoded()).payload?.body.first == body[0] ^ 0xFF)
        }
    }

    @Test func repeatedFields() throws {
        let request = GRPCTesting.StreamingOutputCallRequest(
            responseParameters: [.init(size: 31415), .init(size: 9, intervalUs: 10, compressed: .init(value: false)), .init()],
            payload: .init(body: Array(repeating: 0, count: 10)), responseStatus: .init(code: 0, message: "ok")
        )
        let decoded = try GRPCTesting.StreamingOutputCallRequest(decoding: roundTrip(request))
        #expect(decoded.responseParameters.count == 3)
        #expect(decoded.responseParameters[2] == GRPCTesting.ResponseParameters())

        _ = try roundTrip(GRPCReflection.ExtensionNumberResponse.wrapped(baseTypeName: "a.B", numbers: [1, 100, -5]))
        _ = try roundTrip(GoogleProtobuf.FieldMask(paths: ["display_name", "address.city", ""]))
    }

    @Test func emptyRepeatedFieldsAndEmptyElements() throws {
        #expect(try roundTrip(GoogleProtobuf.FieldMask(paths: [])).isEmpty)
        #expect(try roundTrip(GoogleRPC.BadRequest(fieldViolations: [])).isEmpty)
        // An empty element of a repeated field is still an element.
        let files = GRPCReflection.ServerReflectionResponse<GRPCReflection.V1>(
            messageResponse: .fileDescriptorResponse(.init(fileDescriptorProtos: [[], [1, 2], []])))
        let decoded = try GRPCReflection.ServerReflectionResponse<GRPCReflection.V1>(decoding: roundTrip(files))
        guard case .fileDescriptorResponse(let response) = decoded.messageResponse else {
            Issue.record("expected a file descriptor response")
            return
        }
        #expect(response.fileDescriptorProtos == [[], [1, 2], []])
    }

    @Test func largeBytesAndManyStringsOutgrowTheScratchSpace() throws {
        let large = GRPCTesting.SimpleResponse(payload: .init(body: Array(repeating: 0, count: 314_159)))
        // payload: tag, 3-byte length, then body: tag, 3-byte length, 314159 bytes.
        #expect(try roundTrip(large).count == 1 + 3 + 1 + 3 + 314_159)
        let services = (0..<1000).map { GRPCReflection.ServiceResponse(name: "souk.v1.Service\($0)") }
        _ = try roundTrip(GRPCReflection.ServerReflectionResponse<GRPCReflection.V1>(
            validHost: "localhost", messageResponse: .listServicesResponse(.init(services: services))))
    }

    @Test func unknownFieldsAreSkipped() throws {
        // service = "a", then unknown field 99 (varint 150), then unknown field 100 (bytes "xy").
        let bytes: [UInt8] = [0x0a, 0x01, 0x61, 0x98, 0x06, 0x96, 0x01, 0xa2, 0x06, 0x02, 0x78, 0x79]
        #expect(try GRPCHealth.HealthCheckRequest(decoding: bytes).service == "a")
        #expect(try GRPCTesting.Empty(decoding: bytes) == GRPCTesting.Empty())
    }

    @Test func enumsKeepUnknownValues() throws {
        #expect(GRPCHealth.HealthCheckResponse.ServingStatus(rawValue: 3) == .serviceUnknown)
        for status in [GRPCHealth.HealthCheckResponse.ServingStatus.unknown, .serving, .notServing, .serviceUnknown] {
            _ = try roundTrip(GRPCHealth.HealthCheckResponse(status: status))
        }
        // status = 7 (not a ServingStatus this build knows), and a negative enum value.
        let decoded = try GRPCHealth.HealthCheckResponse(decoding: [0x08, 0x07])
        #expect(decoded.status == .unrecognized(7))
        #expect(decoded.encoded() == [0x08, 0x07])
        let payload = GRPCTesting.Payload(type: .unrecognized(-2), body: [])
        #expect(try GRPCTesting.Payload(decoding: roundTrip(payload)).type == .unrecognized(-2))
    }

    @Test func oneofs() throws {
        typealias Request = GRPCReflection.ServerReflectionRequest<GRPCReflection.V1>
        let cases: [Request.MessageRequest] = [
            .fileByFilename("grpc/health/v1/health.proto"), .fileContainingSymbol("grpc.health.v1.Health"),
            .fileContainingExtension(.init(containingType: "a.B", extensionNumber: 100)),
            .fileContainingExtension(.init()), .allExtensionNumbersOfType("a.B"), .listServices("*"),
        ]
        for messageRequest in cases {
            _ = try roundTrip(Request(host: "h", messageRequest: messageRequest))
        }
        // A oneof member holding its default value is still set, and is sent.
        #expect(try roundTrip(Request(messageRequest: .listServices(""))) == [0x3a, 0x00])
        #expect(try roundTrip(Request(messageRequest: .fileByFilename(""))) == [0x1a, 0x00])

        typealias Response = GRPCReflection.ServerReflectionResponse<GRPCReflection.V1>
        let responses: [Response.MessageResponse] = [
            .fileDescriptorResponse(.init(fileDescriptorProtos: [[1, 2, 3]])),
            .allExtensionNumbersResponse(.init(baseTypeName: "a.B", extensionNumbers: [5])),
            .listServicesResponse(.init(services: [.init(name: "a.S")])),
            .listServicesResponse(.init()),
            .errorResponse(.init(errorCode: 5, errorMessage: "not found")),
        ]
        for messageResponse in responses {
            _ = try roundTrip(Response(validHost: "h", originalRequest: Request(messageRequest: .listServices("")), messageResponse: messageResponse))
        }
    }

    @Test func reflectionVersionsShareTheWireFormat() throws {
        #expect(GRPCReflection.wireLayoutsMatch())
        let v1 = GRPCReflection.ServerReflectionRequest<GRPCReflection.V1>(host: "x", messageRequest: .fileContainingSymbol("a.B"))
        let v1alpha = GRPCReflection.ServerReflectionRequest<GRPCReflection.V1Alpha>(host: "x", messageRequest: .fileContainingSymbol("a.B"))
        #expect(v1.encoded() == v1alpha.encoded())
        #expect(GRPCReflection.ServerReflectionRequest<GRPCReflection.V1>.protoName == "grpc.reflection.v1.ServerReflectionRequest")
        #expect(GRPCReflection.ServerReflectionResponse<GRPCReflection.V1Alpha>.protoName == "grpc.reflection.v1alpha.ServerReflectionResponse")
    }
}

@Suite struct DecodingErrorTests {
    @Test func invalidUTF8IsRefusedNamingTheField() {
        // service = "\xc3\x28" (an invalid two-byte sequence).
        #expect(throws: ProtoDecodingError(messageType: "grpc.health.v1.HealthCheckRequest", reason: "field service is not valid UTF-8")) {
            try GRPCHealth.HealthCheckRequest(decoding: [0x0a, 0x02, 0xc3, 0x28])
        }
    }

    @Test func invalidUTF8InANestedRepeatedFieldNamesThePath() {
        // details[1].type_url = "\xff"
        let bytes: [UInt8] = [0x1a, 0x00, 0x1a, 0x03, 0x0a, 0x01, 0xff]
        #expect(throws: ProtoDecodingError(messageType: "google.rpc.Status", reason: "field details[1].type_url is not valid UTF-8")) {
            try GoogleRPC.Status(decoding: bytes)
        }
        // field_violations[0].description = "\x80"
        #expect(throws: ProtoDecodingError(messageType: "google.rpc.BadRequest", reason: "field field_violations[0].description is not valid UTF-8")) {
            try GoogleRPC.BadRequest(decoding: [0x0a, 0x03, 0x12, 0x01, 0x80])
        }
        // original_request.file_by_filename = "\xed\xa0\x80" (an encoded surrogate, not allowed in UTF-8)
        #expect(throws: ProtoDecodingError(
            messageType: "grpc.reflection.v1alpha.ServerReflectionResponse", reason: "field original_request.file_by_filename is not valid UTF-8")
        ) {
            try GRPCReflection.ServerReflectionResponse<GRPCReflection.V1Alpha>(decoding: [0x12, 0x05, 0x1a, 0x03, 0xed, 0xa0, 0x80])
        }
    }

    @Test(arguments: [
        [0xff] as [UInt8],                 // a truncated varint tag
        [0x0a, 0x05, 0x61],                // a string longer than the bytes left
        [0x08],                            // a tag without its value
        [0x0b],                            // wire type 3 (a group start) where a string is expected
        [0x00, 0x01],                      // field number 0
        [0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], // an overlong length
    ])
    func garbageIsRefused(bytes: [UInt8]) {
        #expect(throws: ProtoDecodingError(messageType: "grpc.health.v1.HealthCheckRequest", reason: "not valid protobuf")) {
            try GRPCHealth.HealthCheckRequest(decoding: bytes)
        }
    }

    @Test func garbageInANestedMessageIsRefused() {
        // payload (field 3) holding a truncated string.
        #expect(throws: ProtoDecodingError.self) {
            try GRPCTesting.SimpleRequest(decoding: [0x1a, 0x02, 0x12, 0x05])
        }
    }
}

extension GRPCReflection.ExtensionNumberResponse {
    /// The response inside a v1 reflection response, so it can be packed on its own.
    static func wrapped(baseTypeName: String, numbers: [Int32]) -> GRPCReflection.ServerReflectionResponse<GRPCReflection.V1> {
        .init(messageResponse: .allExtensionNumbersResponse(.init(baseTypeName: baseTypeName, extensionNumbers: numbers)))
    }
}
