// # SoukGRPCClient
//
// A gRPC client on nghttp2: the transport under Souk's Swift client library, the `souk` CLI and
// `souk-load`. It speaks to any gRPC server (Souk's, grpcio, grpc-go, ...).
//
// ```swift
// let channel = try GRPCChannel(target: .init(host: "localhost", port: 8443, tls: HTTP2ClientTLS()))
// let reply = try await channel.unary(
//     "/grpc.testing.TestService/UnaryCall", GRPCTesting.SimpleRequest(responseSize: 10),
//     as: GRPCTesting.SimpleResponse.self, options: CallOptions(timeout: .seconds(2)))
// try await channel.serverStreaming("/pkg.Service/Watch", request) { call in
//     for try await event in call.responses(as: Event.self) { ... }
// }
// await channel.close()
// ```
//
// Supports:
// - HTTP/2 through `SoukHTTP2`'s nghttp2 client sessions: cleartext with prior knowledge, or TLS
//   1.2+ with ALPN `h2`, trusting the system roots or given CA certificates, with host name
//   verification; flow control with backpressure on the caller's reading; the server's
//   SETTINGS_MAX_CONCURRENT_STREAMS respected; optional keepalive PINGs.
// - One connection multiplexing every call, another made when the streams run out (up to
//   `Configuration.maxConnections`); a connection that got GOAWAY takes no new calls, and calls
//   it refused (REFUSED_STREAM) are retried once on another stream when nothing but their single
//   request had been sent.
// - Unary, client-streaming, server-streaming and bidirectional calls as async functions;
//   response streams are `AsyncSequence`s; messages are the project's `ProtoMessage` wrappers or
//   raw protobuf bytes in `ByteBuffer`s (to call any method by name).
// - Request metadata (ASCII and `-bin`), response headers and trailers; deadlines (`grpc-timeout`
//   plus a local timer that resets the stream and ends the call DEADLINE_EXCEEDED); cancelling
//   the caller's task resets the stream (CANCELLED); gzip request compression, gzip responses.
// - Errors as SoukGRPC's `RPCError`: code, message, and the ErrorInfo, BadRequest field
//   violations, RetryInfo and LocalizedMessage of `grpc-status-details-bin`, with the trailers.
// - Reconnection with gRPC's exponential connection backoff (1 s, ×1.6, ±20 %, at most 120 s;
//   `ConnectionBackoff`); while the target is unreachable calls fail UNAVAILABLE at once, unless
//   `CallOptions.waitForReady` makes them wait for the next connection.
// - Cost per call: the caller's task and hops onto the channel's event loop, no task of its own;
//   request headers prepared once per method; messages framed in place (no copy beyond framing).
//
// Not supported: name resolution beyond the host's addresses (no DNS SRV, no load balancing
// across several servers: one target per channel), retries and hedging of the service-config
// kind, client certificates (mutual TLS), compression other than gzip, unix sockets, proxies.
// A channel's connections all live on one event loop: for more cores, use several channels.

import Dispatch
import NIOCore
import NIOPosix
import SoukGRPC
import SoukHTTP2
import SoukTracing
import SoukMessages
import Synchronization

/// Where a channel connects.
public struct GRPCTarget: Sendable {
    /// A host name or an IP address.
    public var host: String
    public var port: Int
    /// TLS settings; nil speaks cleartext HTTP/2 with prior knowledge.
    public var tls: HTTP2ClientTLS?

    public init(host: String, port: Int, tls: HTTP2ClientTLS? = nil) {
        self.host = host
        self.port = port
        self.tls = tls
    }

    /// `:authority`: host and port, an IPv6 address in brackets.
    var authority: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// Options of one call.
public struct CallOptions: Sendable {
    /// The call's deadline, from its start; sent as `grpc-timeout` and enforced locally.
    public var timeout: Duration?
    /// Custom request metadata. Keys ending in `-bin` carry bytes.
    public var metadata: Metadata
    /// Wait for a connection while the target is unreachable instead of failing UNAVAILABLE at once.
    public var waitForReady: Bool
    /// Compress the request messages with this algorithm (`grpc-encoding`); nil or identity sends
    /// them as they are.
    public var compression: CompressionAlgorithm?
    /// How many times this call was sent before: sent as `grpc-previous-rpc-attempts` when above
    /// 0, as gRPC's retries do, so that the server can tell a retry from new load.
    public var previousAttempts: Int

    public init(
        timeout: Duration? = nil, metadata: Metadata = Metadata(), waitForReady: Bool = false,
        compression: CompressionAlgorithm? = nil, previousAttempts: Int = 0
    ) {
        self.timeout = timeout
        self.metadata = metadata
        self.waitForReady = waitForReady
        self.compression = compression
        self.previousAttempts = previousAttempts
    }
}

/// The answer of a unary or client-streaming call, with its metadata.
public struct ClientResponse<Message: Sendable>: Sendable {
    /// The response message.
    public var message: Message
    /// The response headers' custom metadata.
    public var headers: Metadata
    /// The trailers' custom metadata.
    public var trailers: Metadata
}

/// A gRPC channel: calls to one target over a pool of HTTP/2 connections (see the module's doc).
///
/// Sendable: call it from any task. Close it with `close()` when done.
public final class GRPCChannel: Sendable {
    /// Settings of the channel's connections and calls.
    public struct Configuration: Sendable {
        /// HTTP/2 settings of each connection.
        public var http2 = HTTP2ClientConfiguration()
        /// The delays between connection attempts.
        public var backoff = ConnectionBackoff()
        /// How many connections may be open at once (more when the servers' stream limits are reached).
        public var maxConnections = 8
        /// The largest response message accepted (after decompression); larger ends the call
        /// RESOURCE_EXHAUSTED.
        public var maxReceiveMessageSize = 4 * 1024 * 1024
        /// The `user-agent` sent with every call.
        public var userAgent = "souk-grpc-swift/1"

        public init() {}
    }

    /// Where the channel connects.
    public let target: GRPCTarget
    /// The channel's settings.
    public let configuration: Configuration
    /// The event loop the channel's connections run on.
    public let eventLoop: any EventLoop
    private let pool: ConnectionPool
    private let scheme: String
    /// The prepared request headers of each method called, by path.
    private let methods = Mutex<[String: MethodHeaders]>([:])

    /// The request headers of one method, built once: plain, and announcing gzip.
    struct MethodHeaders: Sendable {
        let plain: [HTTP2Header]
        let gzip: [HTTP2Header]
    }

    public init(target: GRPCTarget, configuration: Configuration = Configuration(), eventLoop: (any EventLoop)? = nil) {
        self.target = target
        self.configuration = configuration
        self.eventLoop = eventLoop ?? MultiThreadedEventLoopGroup.singleton.next()
        self.scheme = target.tls == nil ? "http" : "https"
        self.pool = ConnectionPool(
            eventLoop: self.eventLoop, host: target.host, port: target.port, tls: target.tls, http2: configuration.http2,
            backoff: configuration.backoff, maxConnections: configuration.maxConnections)
    }

    /// Closes every connection (calls still running fail UNAVAILABLE) and waits until they are closed.
    public func close() async {
        let pool = self.pool
        try? await eventLoop.flatSubmit { pool.shutdown() }.get()
    }

    /// How many connections the channel has open (including ones going away).
    public var connectionCount: Int {
        get async {
            let pool = self.pool
            return (try? await eventLoop.submit { pool.connectionCount }.get()) ?? 0
        }
    }

    /// How many of those connections take new calls (not closing after a GOAWAY).
    public var acceptingConnectionCount: Int {
        get async {
            let pool = self.pool
            return (try? await eventLoop.submit { pool.acceptingConnectionCount }.get()) ?? 0
        }
    }

    // MARK: Calls over raw bytes

    /// A unary call: `request` is the packed request message (protobuf bytes, without the gRPC prefix).
    public func unary(_ path: String, request: ByteBuffer, options: CallOptions = CallOptions()) async throws -> ClientResponse<ByteBuffer> {
        let core = try makeCall(path, options: options, initialMessage: request)
        await withTaskCancellationHandler {
            await core.startAndWaitForEnd()
        } onCancel: {
            core.cancel()
        }
        return try core.singleResponse()
    }

    /// A unary call that blocks the calling thread until the call ends, for callers outside Swift
    /// concurrency (the store's writer threads on etcd): the event loop wakes the thread itself,
    /// with no task in between. Never call it on an event loop: it would wait for itself. The
    /// call's deadline (`options.timeout`) bounds the wait.
    public func unaryBlocking(_ path: String, request: ByteBuffer, options: CallOptions = CallOptions()) throws -> ClientResponse<ByteBuffer> {
        guard !eventLoop.inEventLoop else {
            throw RPCError(.internalError, "a blocking call of \(path) on the channel's own event loop would wait for itself")
        }
        let core = try makeCall(path, options: options, initialMessage: request)
        let done = DispatchSemaphore(value: 0)
        core.startAndSignalAtEnd(done)
        done.wait()
        return try core.singleResponse()
    }

    /// A call of any shape, open while `body` runs: it sends with `call.send`, half-closes with
    /// `call.finishSending()` and reads `call.responses`. A call still running when `body` returns
    /// or throws is cancelled (RST_STREAM), as is the call when the task is cancelled.
    public func withCall<Result>(
        _ path: String, options: CallOptions = CallOptions(), isolation: isolated (any Actor)? = #isolation,
        _ body: (ClientCall) async throws -> Result
    ) async throws -> Result {
        try await run(try makeCall(path, options: options, initialMessage: nil), body)
    }

    /// A server-streaming call: `request` goes out at once; `body` reads `call.responses`.
    public func serverStreaming<Result>(
        _ path: String, request: ByteBuffer, options: CallOptions = CallOptions(), isolation: isolated (any Actor)? = #isolation,
        _ body: (ClientCall) async throws -> Result
    ) async throws -> Result {
        try await run(try makeCall(path, options: options, initialMessage: request), body)
    }

    /// A client-streaming call: `body` sends the requests; the call half-closes when it returns,
    /// and its single response is returned.
    public func clientStreaming(
        _ path: String, options: CallOptions = CallOptions(), isolation: isolated (any Actor)? = #isolation,
        _ body: (ClientCall) async throws -> Void
    ) async throws -> ClientResponse<ByteBuffer> {
        let core = try makeCall(path, options: options, initialMessage: nil)
        return try await run(core) { call in
            try await body(call)
            call.finishSending()
            _ = await core.result()
            return try core.singleResponse()
        }
    }

    private func run<Result>(
        _ core: CallCore, isolation: isolated (any Actor)? = #isolation, _ body: (ClientCall) async throws -> Result
    ) async throws -> Result {
        core.start()
        let call = ClientCall(core: core)
        return try await withTaskCancellationHandler {
            do {
                let result = try await body(call)
                core.cancel()
                return result
            } catch {
                core.cancel()
                throw error
            }
        } onCancel: {
            core.cancel()
        }
    }

    private func makeCall(_ path: String, options: CallOptions, initialMessage: ByteBuffer?) throws -> CallCore {
        let path = path.hasPrefix("/") ? path : "/" + path
        let prepared = headers(for: path)
        let gzip = options.compression == .gzip
        var headers = gzip ? prepared.gzip : prepared.plain
        if let timeout = options.timeout {
            headers.append(HTTP2Header("grpc-timeout", GRPCTimeout(rounding: timeout).headerValue))
        }
        if options.previousAttempts > 0 {
            headers.append(HTTP2Header("grpc-previous-rpc-attempts", String(options.previousAttempts)))
        }
        // A call made while serving a traced call continues its trace.
        if let span = Tracing.current, options.metadata["traceparent"] == nil {
            headers.append(HTTP2Header("traceparent", span.context.traceparent))
        }
        if !options.metadata.isEmpty {
            let rejected = MetadataHeaders.append(options.metadata, to: &headers)
            if !rejected.isEmpty {
                throw RPCError(.internalError, "invalid request metadata: \(rejected.joined(separator: ", "))")
            }
        }
        let compressor = gzip ? try GzipCompressor() : nil
        let framed = try initialMessage.map { try ClientCall.frame($0, compressor: compressor) }
        return CallCore(
            pool: pool, path: path, requestHeaders: headers, initialMessage: framed, waitForReady: options.waitForReady,
            timeout: options.timeout, maxReceiveMessageSize: configuration.maxReceiveMessageSize, compressor: compressor)
    }

    private func headers(for path: String) -> MethodHeaders {
        if let prepared = methods.withLock({ $0[path] }) { return prepared }
        let plain = [
            HTTP2Header(":method", "POST"), HTTP2Header(":scheme", scheme), HTTP2Header(":path", path),
            HTTP2Header(":authority", target.authority), HTTP2Header("content-type", "application/grpc"),
            HTTP2Header("te", "trailers"), HTTP2Header("user-agent", configuration.userAgent),
            HTTP2Header("grpc-accept-encoding", CompressionAlgorithm.acceptEncodingHeaderValue),
        ]
        let prepared = MethodHeaders(plain: plain, gzip: plain + [HTTP2Header("grpc-encoding", "gzip")])
        methods.withLock { $0[path] = prepared }
        return prepared
    }
}

// MARK: Typed calls

extension GRPCChannel {
    /// A unary call over the project's message wrappers.
    public func unary<Request: ProtoMessage, Response: ProtoMessage>(
        _ path: String, _ request: Request, as: Response.Type = Response.self, options: CallOptions = CallOptions()
    ) async throws -> ClientResponse<Response> {
        let response = try await unary(path, request: encode(request), options: options)
        return ClientResponse(message: try ClientCall.decode(Response.self, response.message), headers: response.headers, trailers: response.trailers)
    }

    /// `unaryBlocking` over the project's message wrappers.
    public func unaryBlocking<Request: ProtoMessage, Response: ProtoMessage>(
        _ path: String, _ request: Request, as: Response.Type = Response.self, options: CallOptions = CallOptions()
    ) throws -> ClientResponse<Response> {
        let response = try unaryBlocking(path, request: encode(request), options: options)
        return ClientResponse(message: try ClientCall.decode(Response.self, response.message), headers: response.headers, trailers: response.trailers)
    }

    /// A server-streaming call over the project's message wrappers; read with `call.responses(as:)`.
    public func serverStreaming<Request: ProtoMessage, Result>(
        _ path: String, _ request: Request, options: CallOptions = CallOptions(), isolation: isolated (any Actor)? = #isolation,
        _ body: (ClientCall) async throws -> Result
    ) async throws -> Result {
        try await serverStreaming(path, request: encode(request), options: options, body)
    }

    /// A client-streaming call whose single response is decoded as `Response`.
    public func clientStreaming<Response: ProtoMessage>(
        _ path: String, as: Response.Type, options: CallOptions = CallOptions(), isolation: isolated (any Actor)? = #isolation,
        _ body: (ClientCall) async throws -> Void
    ) async throws -> ClientResponse<Response> {
        let response = try await clientStreaming(path, options: options, body)
        return ClientResponse(message: try ClientCall.decode(Response.self, response.message), headers: response.headers, trailers: response.trailers)
    }
}

/// A call in progress (see `GRPCChannel.withCall`). Send from one task at a time, and read the
/// responses and headers from one task at a time (the same or another).
public struct ClientCall: Sendable {
    let core: CallCore

    /// Sends one packed request message; returns once the transport took it (flow control holds
    /// a fast sender back). When the call has ended, throws its error, or returns if it ended OK.
    public func send(_ message: ByteBuffer, compress: Bool = true) async throws {
        let framed = try Self.frame(message, compressor: compress ? core.compressor : nil)
        let promise = core.eventLoop.makePromise(of: Void.self)
        core.write(framed, promise: promise)
        do {
            try await promise.futureResult.get()
        } catch {
            if case .failed(let status) = await core.result() { throw status }
        }
    }

    /// Sends one request message.
    public func send<Message: ProtoMessage>(_ message: Message, compress: Bool = true) async throws {
        try await send(encode(message), compress: compress)
    }

    /// Ends the requests (half-close).
    public func finishSending() {
        core.finishSending()
    }

    /// The response headers' custom metadata (empty for a Trailers-Only answer).
    public func responseHeaders() async throws -> Metadata {
        try await core.responseHeaders()
    }

    /// The response messages as packed bytes; iteration throws the call's error.
    public var responses: ResponseMessages<ByteBuffer> {
        ResponseMessages(core: core) { $0 }
    }

    /// The response messages decoded as `Message`.
    public func responses<Message: ProtoMessage>(as: Message.Type) -> ResponseMessages<Message> {
        ResponseMessages(core: core) { try Self.decode(Message.self, $0) }
    }

    /// Waits for the end of the call: its trailers' metadata, or its error.
    public func trailers() async throws -> Metadata {
        switch await core.result() {
        case .ok(let trailers): return trailers
        case .failed(let error): throw error
        }
    }

    /// Cancels the call (CANCELLED; the stream is reset).
    public func cancel() {
        core.cancel()
    }

    /// Frames a packed message, compressed when a compressor is given.
    static func frame(_ message: ByteBuffer, compressor: GzipCompressor?) throws(RPCError) -> ByteBuffer {
        guard let compressor else { return GRPCFraming.frame(message, compressed: false) }
        return GRPCFraming.frame(try compressor.compress(message), compressed: true)
    }

    static func decode<Message: ProtoMessage>(_ type: Message.Type, _ buffer: ByteBuffer) throws -> Message {
        do {
            return try buffer.withUnsafeReadableBytes { try Message(decoding: $0) }
        } catch {
            throw RPCError(.internalError, "could not decode the response: \(error)")
        }
    }
}

/// A call's response messages, in order; the sequence ends at a successful end of the call and
/// throws the call's `RPCError` otherwise. Iterate once.
public struct ResponseMessages<Element: Sendable>: AsyncSequence, Sendable {
    let core: CallCore
    let transform: @Sendable (ByteBuffer) throws -> Element

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(core: core, transform: transform)
    }

    /// Takes the messages as they arrive; the stream's window reopens as they are taken.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let core: CallCore
        let transform: @Sendable (ByteBuffer) throws -> Element

        public mutating func next() async throws -> Element? {
            guard let message = try await core.nextMessage() else { return nil }
            return try transform(message)
        }
    }
}
