import SoukGRPC
import SoukMessages
import Synchronization

/// `grpc.testing.TestService`, the server side of gRPC's interoperability tests
/// (grpc/grpc doc/interop-test-descriptions.md, "Server"): payloads of zeros of the requested
/// sizes, echoed status codes and metadata, compression checks and per-message compression.
///
/// The unary methods do no I/O, so they run synchronously on the event loop (`synchronousUnary`).
///
/// Not implemented: filling the username, OAuth scope, server id, hostname and gRPCLB route
/// (no authentication or load balancing in the test server); CacheableUnaryCall answers like UnaryCall.
public struct InteropTestService: RPCService {
    public let serviceName = "grpc.testing.TestService"

    /// Echoed from the request headers into the response headers.
    static let echoInitialKey = "x-grpc-test-echo-initial"
    /// Echoed from the request headers into the trailers.
    static let echoTrailingKey = "x-grpc-test-echo-trailing-bin"

    public init() {}

    public var methods: [RPCMethod] {
        [
            .synchronousUnary("EmptyCall") { (_: GRPCTesting.Empty, context) in
                Self.echoMetadata(context)
                return GRPCTesting.Empty()
            },
            .synchronousUnary("UnaryCall", Self.unaryCall),
            .synchronousUnary("CacheableUnaryCall", Self.unaryCall),
            .serverStreaming("StreamingOutputCall") { (request: GRPCTesting.StreamingOutputCallRequest, writer, context) in
                Self.echoMetadata(context)
                try await Self.respond(to: request, writer)
            },
            .clientStreaming("StreamingInputCall", Self.streamingInputCall),
            .bidirectionalStreaming("FullDuplexCall") { (requests: RPCReader<GRPCTesting.StreamingOutputCallRequest>, writer, context) in
                Self.echoMetadata(context)
                for try await request in requests {
                    try await Self.respond(to: request, writer)
                }
            },
            .bidirectionalStreaming("HalfDuplexCall") { (requests: RPCReader<GRPCTesting.StreamingOutputCallRequest>, writer, context) in
                Self.echoMetadata(context)
                var buffered: [GRPCTesting.StreamingOutputCallRequest] = []
                for try await request in requests { buffered.append(request) }
                for request in buffered {
                    try await Self.respond(to: request, writer)
                }
            },
            .synchronousUnary("UnimplementedCall") { (_: GRPCTesting.Empty, _) -> GRPCTesting.Empty in
                throw RPCError(.unimplemented, "grpc.testing.TestService/UnimplementedCall is not implemented")
            },
        ]
    }

    @Sendable static func unaryCall(_ request: GRPCTesting.SimpleRequest, _ context: ServerContext) throws -> GRPCTesting.SimpleResponse {
        echoMetadata(context)
        if let compressed = request.responseCompressed {
            context.compressResponse = compressed.value
        }
        try checkCompression(expected: request.expectCompressed, context)
        let payload = try payload(type: request.responseType, size: request.responseSize)
        try throwEchoStatus(request.responseStatus)
        return GRPCTesting.SimpleResponse(payload: payload)
    }

    @Sendable nonisolated(nonsending) static func streamingInputCall(
        _ requests: RPCReader<GRPCTesting.StreamingInputCallRequest>, _ context: ServerContext
    ) async throws -> GRPCTesting.StreamingInputCallResponse {
        echoMetadata(context)
        var total = 0
        for try await request in requests {
            try checkCompression(expected: request.expectCompressed, context)
            total += request.payload?.body.count ?? 0
        }
        return GRPCTesting.StreamingInputCallResponse(aggregatedPayloadSize: Int32(clamping: total))
    }

    /// Ends the call with the requested status, if any, before anything is sent for this request.
    /// A requested OK (code 0) does not end the call.
    static func throwEchoStatus(_ status: GRPCTesting.EchoStatus?) throws {
        guard let status, status.code != 0 else { return }
        throw RPCError(StatusCode(rawValue: Int(status.code)) ?? .unknown, status.message)
    }

    /// One response per ResponseParameters, each after its interval, compressed as asked.
    nonisolated(nonsending) static func respond(to request: GRPCTesting.StreamingOutputCallRequest, _ writer: RPCWriter<GRPCTesting.StreamingOutputCallResponse>) async throws {
        try throwEchoStatus(request.responseStatus)
        for parameters in request.responseParameters {
            if parameters.intervalUs > 0 {
                try await Task.sleep(for: .microseconds(parameters.intervalUs))
            }
            let payload = try payload(type: request.responseType, size: parameters.size)
            try await writer.write(GRPCTesting.StreamingOutputCallResponse(payload: payload), compress: parameters.compressed?.value)
        }
    }

    /// A payload of `size` zero bytes; INVALID_ARGUMENT for a type or size the server cannot make.
    static func payload(type: GRPCTesting.PayloadType, size: Int32) throws -> GRPCTesting.Payload {
        guard type == .compressable else {
            throw RPCError(.invalidArgument, "unsupported response_type \(type.rawValue)")
        }
        guard size >= 0 else {
            throw RPCError(.invalidArgument, "negative response size \(size)")
        }
        return GRPCTesting.Payload(type: .compressable, body: zeroBody(count: Int(size)))
    }

    /// The body of the latest payload size asked for, shared by the calls that ask for the same size:
    /// the bytes are immutable, so a run of equal requests (as from a load generator) does not
    /// allocate and clear a body per call. Bodies over `sharedZeroBodyLimit` are made per call.
    private static let lastZeroBody = Mutex<[UInt8]>([])
    private static let sharedZeroBodyLimit = 1 << 20

    static func zeroBody(count: Int) -> [UInt8] {
        guard count <= sharedZeroBodyLimit else { return [UInt8](repeating: 0, count: count) }
        return lastZeroBody.withLock { last in
            if last.count != count { last = [UInt8](repeating: 0, count: count) }
            return last
        }
    }

    /// INVALID_ARGUMENT when the request's compression differs from what the client said it sent
    /// (no expect_compressed field: no expectation, so a client compressing by default still works).
    static func checkCompression(expected: GRPCTesting.BoolValue?, _ context: ServerContext) throws {
        guard let expected = expected?.value else { return }
        guard expected == context.requestWasCompressed else {
            throw RPCError.invalidArgument(
                field: "expect_compressed",
                expected ? "expected a compressed request" : "expected an uncompressed request"
            )
        }
    }

    /// Copies the echo headers into the response headers and trailers.
    static func echoMetadata(_ context: ServerContext) {
        if let initial = context.requestMetadata[echoInitialKey] {
            var headers = context.responseHeaders
            headers.add(echoInitialKey, initial)
            context.responseHeaders = headers
        }
        let trailing = context.requestMetadata.binaryValues(echoTrailingKey)
        if !trailing.isEmpty {
            var trailers = context.responseTrailers
            for value in trailing { trailers.add(echoTrailingKey, bytes: value) }
            context.responseTrailers = trailers
        }
    }
}

/// `grpc.testing.UnimplementedService`: a service whose every method answers UNIMPLEMENTED.
public struct UnimplementedService: RPCService {
    public let serviceName = "grpc.testing.UnimplementedService"

    public init() {}

    public var methods: [RPCMethod] {
        [
            .unary("UnimplementedCall") { (_: GRPCTesting.Empty, _) -> GRPCTesting.Empty in
                throw RPCError(.unimplemented, "grpc.testing.UnimplementedService/UnimplementedCall is not implemented")
            },
        ]
    }
}
