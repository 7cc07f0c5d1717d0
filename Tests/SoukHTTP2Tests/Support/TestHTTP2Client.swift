import CNGHTTP2
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
@testable import SoukHTTP2

/// A request for `TestHTTP2Client`. With no body and no trailers, END_STREAM rides on HEADERS.
struct TestRequest: Sendable {
    var path: String
    var headers: [HTTP2Header] = []
    var body: [UInt8] = []
    var trailers: [HTTP2Header] = []
}

/// What the client received on one stream.
struct TestResponse: Sendable {
    var headers: [HTTP2Header] = []
    var body: [UInt8] = []
    var trailers: [HTTP2Header] = []
    /// The stream's close error code when it was not NO_ERROR (for example 7 for REFUSED_STREAM).
    var resetCode: UInt32?

    var status: String? { headers.first { $0.name == ":status" }?.value }

    func trailer(_ name: String) -> String? { trailers.first { $0.name == name }?.value }
}

struct ConnectionClosed: Error {}

/// An HTTP/2 client for tests: nghttp2's client session over a NIO socket (cleartext or TLS).
final class TestHTTP2Client: Sendable {
    let channel: any Channel
    private let handler: NIOLoopBound<ClientSessionHandler>

    private init(channel: any Channel, handler: NIOLoopBound<ClientSessionHandler>) {
        self.channel = channel
        self.handler = handler
    }

    static func connect(to address: SocketAddress, tls: NIOSSLContext? = nil) async throws -> TestHTTP2Client {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: nil))
                    }
                    try channel.pipeline.syncOperations.addHandler(ClientSessionHandler(scheme: tls == nil ? "http" : "https"))
                }
            }
            .connect(to: address).get()
        let handler = try await channel.eventLoop.submit {
            NIOLoopBound(try channel.pipeline.syncOperations.handler(type: ClientSessionHandler.self), eventLoop: channel.eventLoop)
        }.get()
        return TestHTTP2Client(channel: channel, handler: handler)
    }

    /// Starts a request; returns its stream ID and its eventual response.
    func start(_ request: TestRequest) async throws -> (streamID: Int32, response: EventLoopFuture<TestResponse>) {
        let handler = self.handler
        return try await channel.eventLoop.submit {
            let promise = handler.eventLoop.makePromise(of: TestResponse.self)
            let id = handler.value.start(request, promise: promise)
            return (id, promise.futureResult)
        }.get()
    }

    func send(_ request: TestRequest) async throws -> TestResponse {
        try await start(request).response.get()
    }

    func reset(streamID: Int32, errorCode: UInt32) async throws {
        let handler = self.handler
        try await channel.eventLoop.submit { handler.value.reset(streamID: streamID, errorCode: errorCode) }.get()
    }

    /// The ALPN protocol the TLS handshake settled on (nil for cleartext or none).
    func negotiatedProtocol() async throws -> String? {
        let handler = self.handler
        return try await channel.eventLoop.submit { handler.value.negotiatedProtocol }.get()
    }

    /// Error codes of the GOAWAY frames received so far.
    func goAwayCodes() async throws -> [UInt32] {
        let handler = self.handler
        return try await channel.eventLoop.submit { handler.value.goAwayCodes }.get()
    }

    var isClosed: Bool { !channel.isActive }

    func close() async {
        try? await channel.close()
    }
}

/// Owns one nghttp2 client session; touched only on its event loop.
private final class ClientSessionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    final class Stream {
        let request: TestRequest
        var sent = 0
        var response = TestResponse()
        let promise: EventLoopPromise<TestResponse>

        init(request: TestRequest, promise: EventLoopPromise<TestResponse>) {
            self.request = request
            self.promise = promise
        }
    }

    private let scheme: String
    private var session: OpaquePointer?
    private var context: ChannelHandlerContext?
    private var streams: [Int32: Stream] = [:]
    private let headerBlock = NGHTTP2HeaderBlock()
    private(set) var goAwayCodes: [UInt32] = []
    private(set) var negotiatedProtocol: String?

    init(scheme: String) {
        self.scheme = scheme
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_header_callback(callbacks, clientOnHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, clientOnData)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, clientOnStreamClose)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, clientOnFrame)
        let rv = nghttp2_session_client_new(&session, callbacks, Unmanaged.passUnretained(self).toOpaque())
        precondition(rv == 0, "nghttp2_session_client_new failed")
        nghttp2_submit_settings(session, 0, nil, 0)
    }

    func channelActive(context: ChannelHandlerContext) {
        flush()
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        tearDown()
    }

    func channelInactive(context: ChannelHandlerContext) {
        tearDown()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted(let negotiated) = event as? TLSUserEvent {
            negotiatedProtocol = negotiated
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func tearDown() {
        let open = streams
        streams.removeAll()
        for stream in open.values { stream.promise.fail(ConnectionClosed()) }
        if let session {
            nghttp2_session_del(session)
            self.session = nil
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session else { return }
        let buffer = unwrapInboundIn(data)
        let rv = buffer.withUnsafeReadableBytes { bytes in
            nghttp2_session_mem_recv(session, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        if rv < 0 {
            context.close(promise: nil)
            return
        }
        flush()
    }

    func start(_ request: TestRequest, promise: EventLoopPromise<TestResponse>) -> Int32 {
        guard let session else {
            promise.fail(ConnectionClosed())
            return -1
        }
        let headers = [
            HTTP2Header(":method", "POST"), HTTP2Header(":scheme", scheme),
            HTTP2Header(":path", request.path), HTTP2Header(":authority", "localhost"),
        ] + request.headers
        let hasBody = !request.body.isEmpty || !request.trailers.isEmpty
        let id = headerBlock.withNameValues(headers) { fields, count -> Int32 in
            guard hasBody else { return nghttp2_submit_request(session, nil, fields, count, nil, nil) }
            var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: clientReadBody)
            return nghttp2_submit_request(session, nil, fields, count, &provider, nil)
        }
        guard id > 0 else {
            promise.fail(NGHTTP2Error("nghttp2_submit_request", code: id))
            return id
        }
        streams[id] = Stream(request: request, promise: promise)
        flush()
        return id
    }

    func reset(streamID: Int32, errorCode: UInt32) {
        guard let session else { return }
        nghttp2_submit_rst_stream(session, 0, streamID, errorCode)
        flush()
    }

    private func flush() {
        guard let session, let context else { return }
        var out = context.channel.allocator.buffer(capacity: 1024)
        while true {
            var chunk: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &chunk)
            if count <= 0 { break }
            out.writeBytes(UnsafeRawBufferPointer(start: chunk, count: count))
        }
        if out.readableBytes > 0 {
            context.writeAndFlush(wrapOutboundOut(out), promise: nil)
        }
    }

    // Callbacks.

    fileprivate func header(_ frame: UnsafePointer<nghttp2_frame>, _ header: HTTP2Header) {
        guard let stream = streams[frame.pointee.hd.stream_id] else { return }
        if frame.pointee.headers.cat == NGHTTP2_HCAT_RESPONSE {
            stream.response.headers.append(header)
        } else {
            stream.response.trailers.append(header)
        }
    }

    fileprivate func data(streamID: Int32, _ bytes: UnsafeRawBufferPointer) {
        streams[streamID]?.response.body.append(contentsOf: bytes)
    }

    fileprivate func closed(streamID: Int32, errorCode: UInt32) {
        guard let stream = streams.removeValue(forKey: streamID) else { return }
        stream.response.resetCode = errorCode == 0 ? nil : errorCode
        stream.promise.succeed(stream.response)
    }

    fileprivate func frame(_ frame: UnsafePointer<nghttp2_frame>) {
        if frame.pointee.hd.type == UInt8(NGHTTP2_GOAWAY.rawValue) {
            goAwayCodes.append(frame.pointee.goaway.error_code)
        }
    }

    fileprivate func readBody(streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, length: Int, flags: inout UInt32) -> Int {
        guard let stream = streams[streamID], let session else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        let count = min(length, stream.request.body.count - stream.sent)
        stream.request.body.withUnsafeBufferPointer { body in
            buffer.update(from: body.baseAddress! + stream.sent, count: count)
        }
        stream.sent += count
        if stream.sent == stream.request.body.count {
            flags |= NGHTTP2_DATA_FLAG_EOF.rawValue
            if !stream.request.trailers.isEmpty {
                flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
                headerBlock.withNameValues(stream.request.trailers) { fields, count in
                    _ = nghttp2_submit_trailer(session, streamID, fields, count)
                }
            }
        }
        return count
    }

    static func from(_ userData: UnsafeMutableRawPointer?) -> ClientSessionHandler {
        Unmanaged<ClientSessionHandler>.fromOpaque(userData!).takeUnretainedValue()
    }
}

private let clientOnHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, _, userData in
    ClientSessionHandler.from(userData).header(
        frame!,
        HTTP2Header(
            String(decoding: UnsafeBufferPointer(start: name!, count: nameLength), as: UTF8.self),
            String(decoding: UnsafeBufferPointer(start: value!, count: valueLength), as: UTF8.self)))
    return 0
}

private let clientOnData: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, length, userData in
    ClientSessionHandler.from(userData).data(streamID: streamID, UnsafeRawBufferPointer(start: data, count: length))
    return 0
}

private let clientOnStreamClose: nghttp2_on_stream_close_callback = { _, streamID, errorCode, userData in
    ClientSessionHandler.from(userData).closed(streamID: streamID, errorCode: errorCode)
    return 0
}

private let clientOnFrame: nghttp2_on_frame_recv_callback = { _, frame, userData in
    ClientSessionHandler.from(userData).frame(frame!)
    return 0
}

private let clientReadBody: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, userData in
    ClientSessionHandler.from(userData).readBody(streamID: streamID, into: buffer!, length: length, flags: &flags!.pointee)
}
