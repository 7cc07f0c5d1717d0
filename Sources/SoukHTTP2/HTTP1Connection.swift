import NIOCore
import NIOHTTP1

/// Serves HTTP/1.1 requests through the same router as HTTP/2 streams: each request becomes a
/// stream (`:method`, `:path`, `:scheme`, `:authority` and the other fields lower-cased), and the
/// stream's response goes out as an HTTP/1.1 response, chunked when it has a body. Browsers reach a
/// cleartext server only this way (they never speak h2c). `HTTPServerPipelineHandler`, in front of
/// this handler, holds pipelined requests back until the previous response has ended, so one
/// request is served at a time. Touched only on the connection's event loop.
final class HTTP1ConnectionHandler: ChannelInboundHandler, ServedConnection {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let router: any HTTP2StreamRouter
    private let scheme: String
    private let idleTimeout: TimeAmount
    private var context: ChannelHandlerContext?
    private var current: HTTP1ResponseStream?
    private var nextStreamID: Int32 = 1
    /// Armed while the connection is open; when due, it closes an idle connection or re-arms for
    /// the end of the current idle spell (a timer per request would cost a schedule and a cancel
    /// on every request).
    private var idleTimer: Scheduled<Void>?
    /// When the last response ended (or the connection opened).
    private var idleSince = NIODeadline.now()
    private var draining = false
    private var flushScheduled = false

    init(router: any HTTP2StreamRouter, secure: Bool, idleTimeout: TimeAmount) {
        self.router = router
        self.scheme = secure ? "https" : "http"
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        idleSince = .now()
        armIdleTimer(at: idleSince + idleTimeout)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleTimer?.cancel()
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let stream = HTTP1ResponseStream(
                streamID: nextStreamID, connection: self, context: context,
                keepAlive: head.isKeepAlive && !draining)
            nextStreamID &+= 2
            current = stream
            stream.handler = router.openStream(stream, headers: Self.fields(of: head, scheme: scheme), endStream: false)
        case .body(let body):
            current?.handler?.receiveData(body, endStream: false)
        case .end:
            current?.handler?.receiveData(ByteBuffer(), endStream: true)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        current?.close(.connectionClosed)
        current = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A request that is not HTTP/1.1 (the decoder failed): nothing sensible can follow on it.
        context.close(promise: nil)
    }

    func beginGracefulShutdown() {
        draining = true
        if current == nil { context?.close(promise: nil) }
    }

    /// Flushes once the event loop's current work is done, so that a response's head, body and
    /// end written in one go leave in one write.
    fileprivate func scheduleFlush() {
        guard !flushScheduled, let context else { return }
        flushScheduled = true
        context.eventLoop.assumeIsolatedUnsafeUnchecked().execute { [self] in
            flushScheduled = false
            self.context?.flush()
        }
    }

    /// The response of `stream` has ended.
    fileprivate func responseEnded(_ stream: HTTP1ResponseStream) {
        guard current === stream else { return }
        current = nil
        if draining || !stream.keepAlive {
            // What the response wrote goes out before the connection closes.
            context?.flush()
            context?.close(promise: nil)
        } else {
            idleSince = .now()
        }
    }

    private func armIdleTimer(at deadline: NIODeadline) {
        guard let context else { return }
        idleTimer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) { [weak self] in
            guard let self else { return }
            // Busy, or idle for less than the timeout: look again when it would run out.
            let due = self.current == nil ? self.idleSince + self.idleTimeout : .now() + self.idleTimeout
            if due <= .now() {
                self.context?.close(promise: nil)
            } else {
                self.armIdleTimer(at: due)
            }
        }
    }

    /// The request head as the header fields of an HTTP/2 request.
    static func fields(of head: HTTPRequestHead, scheme: String) -> [HTTP2Header] {
        var fields = [
            HTTP2Header(":method", head.method.rawValue),
            HTTP2Header(":path", head.uri),
            HTTP2Header(":scheme", scheme),
        ]
        if let host = head.headers.first(name: "host") { fields.append(HTTP2Header(":authority", host)) }
        for (name, value) in head.headers {
            let name = name.lowercasedFieldName
            // Connection-specific fields have no HTTP/2 counterpart (RFC 9113 §8.2.2).
            switch name {
            case "host", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade": continue
            default: fields.append(HTTP2Header(name, value))
            }
        }
        return fields
    }
}

/// One HTTP/1.1 request seen as a stream: its response is written to the connection.
final class HTTP1ResponseStream: HTTP2ResponseStream {
    let streamID: Int32
    let eventLoop: any EventLoop
    let remoteAddress: SocketAddress?
    let keepAlive: Bool
    var handler: (any HTTP2StreamHandler)?

    private weak var connection: HTTP1ConnectionHandler?
    private let context: ChannelHandlerContext
    private var headersSent = false
    private var ended = false
    private var queuedBytes = 0
    private var queuedWrites = 0

    fileprivate init(streamID: Int32, connection: HTTP1ConnectionHandler, context: ChannelHandlerContext, keepAlive: Bool) {
        self.streamID = streamID
        self.connection = connection
        self.context = context
        self.eventLoop = context.eventLoop
        self.remoteAddress = context.channel.remoteAddress
        self.keepAlive = keepAlive
    }

    func sendHeaders(_ headers: [HTTP2Header], endStream: Bool) {
        guard !headersSent, !ended else { return }
        headersSent = true
        var status = HTTPResponseStatus.ok
        var fields = HTTPHeaders()
        for header in headers {
            if header.name == ":status" {
                status = HTTPResponseStatus(statusCode: Int(header.value) ?? 500)
            } else if !header.name.hasPrefix(":") {
                fields.add(name: header.name, value: header.value)
            }
        }
        if !keepAlive { fields.replaceOrAdd(name: "connection", value: "close") }
        if endStream, !fields.contains(name: "content-length") { fields.add(name: "content-length", value: "0") }  // HEAD keeps its length
        context.write(NIOAny(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: fields))), promise: nil)
        if endStream {
            end(trailers: [])
        } else {
            connection?.scheduleFlush()
        }
    }

    func sendData(_ data: ByteBuffer, promise: EventLoopPromise<Void>?) {
        guard headersSent, !ended else {
            promise?.fail(ended ? HTTP2StreamWriteError.streamClosed : HTTP2StreamWriteError.invalidOrder)
            return
        }
        let count = data.readableBytes
        queuedBytes += count
        queuedWrites += 1
        let written = eventLoop.makePromise(of: Void.self)
        written.futureResult.hop(to: eventLoop).whenComplete { [self] result in
            queuedBytes -= count
            queuedWrites -= 1
            promise?.completeWith(result)
        }
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(data))), promise: written)
        connection?.scheduleFlush()
    }

    func sendTrailers(_ trailers: [HTTP2Header]) {
        guard headersSent, !ended else { return }
        end(trailers: trailers)
    }

    /// HTTP/1.1 cannot end one request alone: the connection closes.
    func reset(errorCode: UInt32) {
        guard !ended else { return }
        context.close(promise: nil)
    }

    /// No flow control per request in HTTP/1.1: the connection's reads pace the body.
    func consumed(_ byteCount: Int) {}

    var queuedByteCount: Int { queuedBytes }
    var queuedWriteCount: Int { queuedWrites }

    private func end(trailers: [HTTP2Header]) {
        var fields: HTTPHeaders?
        if !trailers.isEmpty {
            fields = HTTPHeaders(trailers.map { ($0.name, $0.value) })
        }
        context.write(NIOAny(HTTPServerResponsePart.end(fields)), promise: nil)
        connection?.scheduleFlush()
        close(.completed)
    }

    /// The exchange is over: the handler hears why, and later calls are ignored.
    func close(_ reason: HTTP2StreamCloseReason) {
        guard !ended else { return }
        ended = true
        let handler = self.handler
        self.handler = nil
        handler?.streamClosed(reason)
        connection?.responseEnded(self)
    }
}
