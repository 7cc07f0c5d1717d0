import NIOCore
import SoukGRPC
import SoukGRPCClient
import SoukMessages
import Testing

/// gRPC's interoperability test cases (grpc/grpc doc/interop-test-descriptions.md), client side,
/// against Souk's own TestService.
@Suite("gRPC client: interop test cases")
struct InteropTests {
    typealias T = GRPCTesting

    @Test func emptyUnary() async throws {
        try await withServerAndChannel { _, channel in
            let response = try await channel.unary(TestService.empty, T.Empty(), as: T.Empty.self)
            #expect(response.message == T.Empty())
        }
    }

    @Test func largeUnary() async throws {
        try await withServerAndChannel { _, channel in
            let request = T.SimpleRequest(responseSize: 314_159, payload: zeros(271_828))
            let response = try await channel.unary(TestService.unary, request, as: T.SimpleResponse.self)
            #expect(response.message.payload == zeros(314_159))
        }
    }

    @Test func clientCompressedUnary() async throws {
        try await withServerAndChannel { _, channel in
            // The probe: an uncompressed request that claims compression is refused.
            let probe = T.SimpleRequest(responseSize: 314_159, payload: zeros(271_828), expectCompressed: T.BoolValue(value: true))
            await expectStatus(.invalidArgument) {
                _ = try await channel.unary(TestService.unary, probe, as: T.SimpleResponse.self)
            }
            let compressed = try await channel.unary(
                TestService.unary, probe, as: T.SimpleResponse.self, options: CallOptions(compression: .gzip))
            #expect(compressed.message.payload == zeros(314_159))
            let plain = T.SimpleRequest(responseSize: 314_159, payload: zeros(271_828), expectCompressed: T.BoolValue(value: false))
            let uncompressed = try await channel.unary(TestService.unary, plain, as: T.SimpleResponse.self)
            #expect(uncompressed.message.payload == zeros(314_159))
        }
    }

    @Test func serverCompressedUnary() async throws {
        try await withServerAndChannel { _, channel in
            for compressed in [true, false] {
                let request = T.SimpleRequest(
                    responseSize: 314_159, payload: zeros(271_828), responseCompressed: T.BoolValue(value: compressed))
                let response = try await channel.unary(TestService.unary, request, as: T.SimpleResponse.self)
                #expect(response.message.payload == zeros(314_159))
            }
        }
    }

    @Test func clientStreaming() async throws {
        try await withServerAndChannel { _, channel in
            let response = try await channel.clientStreaming(TestService.streamingInput, as: T.StreamingInputCallResponse.self) { call in
                for size in [27182, 8, 1828, 45904] {
                    try await call.send(T.StreamingInputCallRequest(payload: zeros(size)))
                }
            }
            #expect(response.message.aggregatedPayloadSize == 74922)
        }
    }

    @Test func serverStreaming() async throws {
        try await withServerAndChannel { _, channel in
            let sizes = [31415, 9, 2653, 58979]
            let request = T.StreamingOutputCallRequest(responseParameters: sizes.map { T.ResponseParameters(size: Int32($0)) })
            let received = try await channel.serverStreaming(TestService.streamingOutput, request) { call in
                var received: [Int] = []
                for try await response in call.responses(as: T.StreamingOutputCallResponse.self) {
                    received.append(response.payload?.body.count ?? -1)
                }
                return received
            }
            #expect(received == sizes)
        }
    }

    @Test func pingPong() async throws {
        try await withServerAndChannel { _, channel in
            let exchanges = [(31415, 27182), (9, 8), (2653, 1828), (58979, 45904)]
            try await channel.withCall(TestService.fullDuplex) { call in
                var responses = call.responses(as: T.StreamingOutputCallResponse.self).makeAsyncIterator()
                for (responseSize, requestSize) in exchanges {
                    try await call.send(T.StreamingOutputCallRequest(
                        responseParameters: [T.ResponseParameters(size: Int32(responseSize))], payload: zeros(requestSize)))
                    let response = try await responses.next()
                    #expect(response?.payload == zeros(responseSize))
                }
                call.finishSending()
                #expect(try await responses.next() == nil)
            }
        }
    }

    @Test func emptyStream() async throws {
        try await withServerAndChannel { _, channel in
            let count = try await channel.withCall(TestService.fullDuplex) { call in
                call.finishSending()
                var count = 0
                for try await _ in call.responses { count += 1 }
                return count
            }
            #expect(count == 0)
        }
    }

    @Test func cancelAfterBegin() async throws {
        try await withServerAndChannel { _, channel in
            try await channel.withCall(TestService.streamingInput) { call in
                call.cancel()
                await expectStatus(.cancelled) { _ = try await call.trailers() }
            }
        }
    }

    @Test func cancelAfterFirstResponse() async throws {
        try await withServerAndChannel { _, channel in
            try await channel.withCall(TestService.fullDuplex) { call in
                try await call.send(T.StreamingOutputCallRequest(
                    responseParameters: [T.ResponseParameters(size: 31415)], payload: zeros(27182)))
                var responses = call.responses.makeAsyncIterator()
                #expect(try await responses.next() != nil)
                call.cancel()
                await expectStatus(.cancelled) { _ = try await responses.next() }
            }
        }
    }

    @Test func timeoutOnSleepingServer() async throws {
        try await withServerAndChannel { _, channel in
            try await channel.withCall(TestService.fullDuplex, options: CallOptions(timeout: .milliseconds(1))) { call in
                // The send may fail once the deadline passed; the call's status is what counts.
                try? await call.send(T.StreamingOutputCallRequest(payload: zeros(27182)))
                await expectStatus(.deadlineExceeded) {
                    for try await _ in call.responses {}
                }
            }
        }
    }

    @Test func customMetadata() async throws {
        try await withServerAndChannel { _, channel in
            var metadata = Metadata()
            metadata.add("x-grpc-test-echo-initial", "test_initial_metadata_value")
            metadata.add("x-grpc-test-echo-trailing-bin", bytes: [0xab, 0xab, 0xab])
            let options = CallOptions(metadata: metadata)

            let request = T.SimpleRequest(responseSize: 314_159, payload: zeros(271_828))
            let response = try await channel.unary(TestService.unary, request, as: T.SimpleResponse.self, options: options)
            #expect(response.headers["x-grpc-test-echo-initial"] == "test_initial_metadata_value")
            #expect(response.trailers.binaryValues("x-grpc-test-echo-trailing-bin") == [[0xab, 0xab, 0xab]])

            try await channel.withCall(TestService.fullDuplex, options: options) { call in
                try await call.send(T.StreamingOutputCallRequest(
                    responseParameters: [T.ResponseParameters(size: 314_159)], payload: zeros(271_828)))
                call.finishSending()
                var count = 0
                for try await _ in call.responses { count += 1 }
                #expect(count == 1)
                #expect(try await call.responseHeaders()["x-grpc-test-echo-initial"] == "test_initial_metadata_value")
                #expect(try await call.trailers().binaryValues("x-grpc-test-echo-trailing-bin") == [[0xab, 0xab, 0xab]])
            }
        }
    }

    @Test func statusCodeAndMessage() async throws {
        try await withServerAndChannel { _, channel in
            let status = T.EchoStatus(code: 2, message: "test status message")
            let error = await expectStatus(.unknown) {
                _ = try await channel.unary(TestService.unary, T.SimpleRequest(responseStatus: status), as: T.SimpleResponse.self)
            }
            #expect(error?.message == "test status message")

            try await channel.withCall(TestService.fullDuplex) { call in
                try await call.send(T.StreamingOutputCallRequest(responseStatus: status))
                call.finishSending()
                let error = await expectStatus(.unknown) { for try await _ in call.responses {} }
                #expect(error?.message == "test status message")
            }
        }
    }

    @Test func specialStatusMessage() async throws {
        try await withServerAndChannel { _, channel in
            let message = "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n"
            let error = await expectStatus(.unknown) {
                _ = try await channel.unary(
                    TestService.unary, T.SimpleRequest(responseStatus: T.EchoStatus(code: 2, message: message)), as: T.SimpleResponse.self)
            }
            #expect(error?.message == message)
        }
    }

    @Test func unimplementedMethod() async throws {
        try await withServerAndChannel { _, channel in
            await expectStatus(.unimplemented) {
                _ = try await channel.unary("/grpc.testing.TestService/UnimplementedCall", T.Empty(), as: T.Empty.self)
            }
        }
    }

    @Test func unimplementedService() async throws {
        try await withServerAndChannel { _, channel in
            await expectStatus(.unimplemented) {
                _ = try await channel.unary("/grpc.testing.UnimplementedService/UnimplementedCall", T.Empty(), as: T.Empty.self)
            }
            await expectStatus(.unimplemented) {
                _ = try await channel.unary("/no.such.Service/Method", T.Empty(), as: T.Empty.self)
            }
        }
    }
}
