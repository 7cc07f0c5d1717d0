import NIOCore
import SoukGRPC
import SoukMessages
import SoukStandardServices
import Synchronization
import Testing

@Suite struct InteropTestServiceTests {
    typealias SimpleRequest = GRPCTesting.SimpleRequest
    typealias SimpleResponse = GRPCTesting.SimpleResponse
    typealias OutputRequest = GRPCTesting.StreamingOutputCallRequest
    typealias OutputResponse = GRPCTesting.StreamingOutputCallResponse
    typealias InputRequest = GRPCTesting.StreamingInputCallRequest
    typealias InputResponse = GRPCTesting.StreamingInputCallResponse

    let call = CallHarness(service: InteropTestService())

    static func zeros(_ count: Int) -> GRPCTesting.Payload {
        GRPCTesting.Payload(body: [UInt8](repeating: 0, count: count))
    }

    @Test func declaresEveryTestServiceMethod() {
        let service = InteropTestService()
        #expect(service.serviceName == "grpc.testing.TestService")
        #expect(service.methods.map(\.name) == [
            "EmptyCall", "UnaryCall", "CacheableUnaryCall", "StreamingOutputCall", "StreamingInputCall",
            "FullDuplexCall", "HalfDuplexCall", "UnimplementedCall",
        ])
    }

    @Test func emptyCall() async throws {
        #expect(try await call.unary("EmptyCall", GRPCTesting.Empty(), as: GRPCTesting.Empty.self) == GRPCTesting.Empty())
    }

    @Test func largeUnary() async throws {
        let request = SimpleRequest(responseSize: 314_159, payload: Self.zeros(271_828))
        let context = call.context("UnaryCall")
        let response = try await call.unary("UnaryCall", request, context: context, as: SimpleResponse.self)
        #expect(response.payload == Self.zeros(314_159))
        #expect(context.compressResponse == nil)
    }

    /// Sizes in turn, repeated and changing, small and over the shared-body limit: each response
    /// carries exactly the zeros asked for.
    @Test func responsesOfChangingSizesCarryTheSizeAskedFor() async throws {
        for size in [1_024, 1_024, 0, 7, 1_024, 2_000_000, 2_000_000, 1_024, 65_536] {
            let response = try await call.unary(
                "UnaryCall", SimpleRequest(responseSize: Int32(size)), as: SimpleResponse.self)
            #expect(response.payload == Self.zeros(size))
        }
    }

    @Test(arguments: [true, false])
    func serverCompressedUnarySetsTheResponseCompression(compress: Bool) async throws {
        let context = call.context("UnaryCall")
        let request = SimpleRequest(responseSize: 10, responseCompressed: .init(value: compress))
        _ = try await call.unary("UnaryCall", request, context: context, as: SimpleResponse.self)
        #expect(context.compressResponse == compress)
    }

    @Test(arguments: [
        (expect: true as Bool?, compressed: true, accepted: true),
        (expect: true, compressed: false, accepted: false),
        (expect: false, compressed: false, accepted: true),
        (expect: false, compressed: true, accepted: false),
        (expect: nil, compressed: true, accepted: true),
        (expect: nil, compressed: false, accepted: true),
    ])
    func clientCompressedUnaryChecksTheRequestCompression(expect: Bool?, compressed: Bool, accepted: Bool) async throws {
        let request = SimpleRequest(responseSize: 1, payload: Self.zeros(5), expectCompressed: expect.map { .init(value: $0) })
        let context = call.context("UnaryCall", compressed: compressed)
        if accepted {
            _ = try await call.unary("UnaryCall", request, context: context, as: SimpleResponse.self)
        } else {
            let error = await #expect(throws: RPCError.self) {
                _ = try await call.unary("UnaryCall", request, context: context, as: SimpleResponse.self)
            }
            #expect(error?.code == .invalidArgument)
        }
    }

    @Test func statusCodeAndMessageAreEchoed() async throws {
        let request = SimpleRequest(responseStatus: .init(code: 2, message: "test status message"))
        await #expect(throws: RPCError(.unknown, "test status message")) {
            _ = try await call.unary("UnaryCall", request, as: SimpleResponse.self)
        }
        let notFound = SimpleRequest(responseStatus: .init(code: 5, message: "✗ nope"))
        await #expect(throws: RPCError(.notFound, "✗ nope")) {
            _ = try await call.unary("UnaryCall", notFound, as: SimpleResponse.self)
        }
        // A requested OK is just a normal response.
        let ok = SimpleRequest(responseSize: 3, responseStatus: .init(code: 0, message: "fine"))
        #expect(try await call.unary("UnaryCall", ok, as: SimpleResponse.self).payload == Self.zeros(3))
    }

    @Test func unsupportedRequestsAreInvalidArguments() async throws {
        for request in [SimpleRequest(responseType: .unrecognized(1)), SimpleRequest(responseSize: -1)] {
            let error = await #expect(throws: RPCError.self) {
                _ = try await call.unary("UnaryCall", request, as: SimpleResponse.self)
            }
            #expect(error?.code == .invalidArgument)
        }
    }

    @Test func customMetadataIsEchoed() async throws {
        var metadata = Metadata([("x-grpc-test-echo-initial", "test_initial_metadata_value"), ("other", "x")])
        metadata.add("x-grpc-test-echo-trailing-bin", bytes: [0xab, 0xab, 0xab])
        for method in ["UnaryCall", "FullDuplexCall"] {
            let context = call.context(method, metadata: metadata)
            if method == "UnaryCall" {
                _ = try await call.unary(method, SimpleRequest(responseSize: 314_159, payload: Self.zeros(271_828)), context: context, as: SimpleResponse.self)
            } else {
                let sent: [Sent<OutputResponse>] = try await call.bidirectional(
                    method, [OutputRequest(responseParameters: [.init(size: 314_159)], payload: Self.zeros(271_828))], context: context)
                #expect(sent.count == 1)
            }
            #expect(context.responseHeaders["x-grpc-test-echo-initial"] == "test_initial_metadata_value")
            #expect(context.responseHeaders.count == 1)
            #expect(context.responseTrailers.binaryValues("x-grpc-test-echo-trailing-bin") == [[0xab, 0xab, 0xab]])
        }
    }

    @Test func serverStreaming() async throws {
        let sizes: [Int32] = [31415, 9, 2653, 58979]
        let request = OutputRequest(responseParameters: sizes.map { .init(size: $0) })
        let sent = try await call.serverStreaming("StreamingOutputCall", request, as: OutputResponse.self)
        #expect(sent.map { $0.message.payload?.body.count } == sizes.map { Int($0) })
        #expect(sent.allSatisfy { $0.message.payload?.body.allSatisfy { $0 == 0 } == true && $0.compress == nil })
    }

    @Test func serverCompressedStreamingChoosesPerMessage() async throws {
        let request = OutputRequest(responseParameters: [
            .init(size: 31415, compressed: .init(value: true)), .init(size: 92653, compressed: .init(value: false)),
            .init(size: 1, intervalUs: 10),
        ])
        let sent = try await call.serverStreaming("StreamingOutputCall", request, as: OutputResponse.self)
        #expect(sent.map(\.compress) == [true, false, nil])
        #expect(sent.map { $0.message.payload?.body.count } == [31415, 92653, 1])
    }

    @Test func serverStreamingEchoesAStatusBeforeAnyResponse() async throws {
        let request = OutputRequest(responseParameters: [.init(size: 1)], responseStatus: .init(code: 9, message: "stop"))
        let sink = Sink<OutputResponse>()
        guard case .serverStreaming(let handler) = try call.method("StreamingOutputCall").handler else { return }
        await #expect(throws: RPCError(.failedPrecondition, "stop")) {
            try await handler(ByteBuffer(bytes: request.encoded()), sink.writer, call.context("StreamingOutputCall"))
        }
        #expect(sink.sent.isEmpty)
    }

    @Test func clientStreamingAddsUpThePayloads() async throws {
        let requests = [27182, 8, 1828, 45904].map { InputRequest(payload: Self.zeros($0)) }
        let response = try await call.clientStreaming("StreamingInputCall", requests, as: InputResponse.self)
        #expect(response.aggregatedPayloadSize == 74922)
        #expect(try await call.clientStreaming("StreamingInputCall", [InputRequest](), as: InputResponse.self).aggregatedPayloadSize == 0)
    }

    @Test func clientCompressedStreamingChecksEachMessage() async throws {
        let probe = [InputRequest(payload: Self.zeros(27182), expectCompressed: .init(value: true))]
        let error = await #expect(throws: RPCError.self) {
            _ = try await call.clientStreaming("StreamingInputCall", probe, context: call.context("StreamingInputCall", compressed: false), as: InputResponse.self)
        }
        #expect(error?.code == .invalidArgument)
        let accepted = try await call.clientStreaming(
            "StreamingInputCall", probe, context: call.context("StreamingInputCall", compressed: true), as: InputResponse.self)
        #expect(accepted.aggregatedPayloadSize == 27182)
    }

    @Test func fullDuplexAnswersEachRequestAsItArrives() async throws {
        let (requests, requester) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        let (replies, replier) = AsyncStream.makeStream(of: Int.self)
        let sink = Sink<OutputResponse> { replier.yield($0.message.payload?.body.count ?? -1) }
        guard case .bidirectionalStreaming(let handler) = try call.method("FullDuplexCall").handler else { return }
        let running = Task { try await handler(RPCReader(requests), sink.writer, call.context("FullDuplexCall")) }

        var received = replies.makeAsyncIterator()
        // ping_pong: each reply arrives before the next request is sent.
        for (requestSize, responseSize) in [(27182, 31415), (8, 9), (1828, 2653), (45904, 58979)] {
            let request = OutputRequest(responseParameters: [.init(size: Int32(responseSize))], payload: Self.zeros(requestSize))
            requester.yield(ByteBuffer(bytes: request.encoded()))
            #expect(await received.next() == responseSize)
        }
        requester.finish()
        try await running.value
        #expect(sink.sent.count == 4)
    }

    @Test func fullDuplexWithoutRequestsSendsNothing() async throws {
        let sent: [Sent<OutputResponse>] = try await call.bidirectional("FullDuplexCall", [OutputRequest]())
        #expect(sent.isEmpty)
    }

    @Test func fullDuplexEchoesAStatusAndStops() async throws {
        let requests = [
            OutputRequest(responseParameters: [.init(size: 1)]),
            OutputRequest(responseParameters: [.init(size: 2)], responseStatus: .init(code: 2, message: "test status message")),
            OutputRequest(responseParameters: [.init(size: 3)]),
        ]
        let sink = Sink<OutputResponse>()
        await #expect(throws: RPCError(.unknown, "test status message")) {
            _ = try await call.bidirectional("FullDuplexCall", requests, sink: sink)
        }
        #expect(sink.sent.map { $0.message.payload?.body.count } == [1])
    }

    @Test func halfDuplexAnswersOnlyAfterTheClientHalfCloses() async throws {
        let (requests, requester) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        let halfClosed = Mutex(false)
        let sink = Sink<OutputResponse> { _ in
            #expect(halfClosed.withLock { $0 }, "a response was sent before the client half-closed")
        }
        guard case .bidirectionalStreaming(let handler) = try call.method("HalfDuplexCall").handler else { return }
        let running = Task { try await handler(RPCReader(requests), sink.writer, call.context("HalfDuplexCall")) }
        for size: Int32 in [5, 6, 7] {
            requester.yield(ByteBuffer(bytes: OutputRequest(responseParameters: [.init(size: size)]).encoded()))
        }
        halfClosed.withLock { $0 = true }
        requester.finish()
        try await running.value
        #expect(sink.sent.map { $0.message.payload?.body.count } == [5, 6, 7])
    }

    @Test func unimplementedCallsAreUnimplemented() async throws {
        for service in [InteropTestService() as any RPCService, UnimplementedService()] {
            let error = await #expect(throws: RPCError.self) {
                _ = try await CallHarness(service: service).unary("UnimplementedCall", GRPCTesting.Empty(), as: GRPCTesting.Empty.self)
            }
            #expect(error?.code == .unimplemented)
        }
        #expect(UnimplementedService().serviceName == "grpc.testing.UnimplementedService")
    }
}
