import NIOCore
import NIOHTTP1

/// A connection's handler for its protocol, reachable for a graceful shutdown once it is known.
protocol ServedConnection: AnyObject {
    /// Stops taking requests: finishes those in flight, then closes.
    func beginGracefulShutdown()
}

/// Where a connection's protocol handler is kept once chosen; touched only on its event loop.
final class ConnectionSlot {
    var handler: (any ServedConnection)?
    /// A shutdown asked before the protocol was known: applied as soon as it is.
    var shutdownRequested = false

    func set(_ handler: any ServedConnection) {
        self.handler = handler
        if shutdownRequested { handler.beginGracefulShutdown() }
    }

    func beginGracefulShutdown() {
        shutdownRequested = true
        handler?.beginGracefulShutdown()
    }
}

/// Reads a new connection's first bytes and sets it up for HTTP/2 when they are the HTTP/2
/// connection preface (RFC 9113 §3.4), and for HTTP/1.1 otherwise, so that one port serves gRPC
/// clients and browsers (gRPC-Web, JSON, plain GETs) alike. Removes itself once it has decided.
final class ProtocolDetector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    private let makeHTTP2: () -> any ChannelHandler & ServedConnection
    private let makeHTTP1: () -> HTTP1ConnectionHandler
    private let slot: ConnectionSlot
    private let timeout: TimeAmount
    private var received: ByteBuffer?
    private var timer: Scheduled<Void>?
    private var decided = false

    init(
        slot: ConnectionSlot,
        timeout: TimeAmount,
        http2: @escaping () -> any ChannelHandler & ServedConnection,
        http1: @escaping () -> HTTP1ConnectionHandler
    ) {
        self.slot = slot
        self.timeout = timeout
        self.makeHTTP2 = http2
        self.makeHTTP1 = http1
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // A connection that never says anything is closed as an HTTP/2 one that never sends its preface.
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: timeout) { [weak self] in
            guard let self, !self.decided else { return }
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if received == nil {
            received = bytes
        } else {
            received!.writeBuffer(&bytes)
        }
        let buffered = received!
        let count = min(buffered.readableBytes, Self.preface.count)
        let prefix = buffered.getBytes(at: buffered.readerIndex, length: count) ?? []
        if prefix[...] == Self.preface[..<count] {
            if count == Self.preface.count { decide(context, http2: true) }
        } else {
            decide(context, http2: false)
        }
    }

    private func decide(_ context: ChannelHandlerContext, http2: Bool) {
        decided = true
        let pipeline = context.pipeline.syncOperations
        do {
            if http2 {
                let handler = makeHTTP2()
                try pipeline.addHandler(handler, position: .after(self))
                slot.set(handler)
            } else {
                let handler = makeHTTP1()
                // Requests are answered one at a time, in order (pipelined requests wait).
                try pipeline.addHandlers(
                    [HTTPResponseEncoder(), ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)),
                     HTTPServerPipelineHandler(), handler],
                    position: .after(self))
                slot.set(handler)
            }
        } catch {
            context.close(promise: nil)
            return
        }
        // The bytes read so far go on to the new handlers before this one leaves.
        if let bytes = received.take() { context.fireChannelRead(wrapInboundOut(bytes)) }
        pipeline.removeHandler(context: context, promise: nil)
    }
}
