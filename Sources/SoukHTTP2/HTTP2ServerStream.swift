import CNGHTTP2
import NIOCore

/// One request stream of a connection: it collects the request for the handler above and serves
/// the response to nghttp2. Touched only on the connection's event loop.
///
/// Close reasons: NO_ERROR after both sides ended is `.completed`; a RST_STREAM from the client is
/// `.resetByPeer(code)`; a reset sent by this side (by `reset(errorCode:)`, or by nghttp2 because the
/// client broke the protocol on this stream) is also reported as `.resetByPeer` with the code sent,
/// since the seam has no separate case and a handler that called `reset` already knows why.
final class HTTP2ServerStream: HTTP2ResponseStream, StreamIdentified {
    let streamID: Int32
    let eventLoop: any EventLoop
    let remoteAddress: SocketAddress?

    /// The connection while the stream is open; nil once closed, which makes every later call a no-op.
    private var connection: HTTP2ConnectionHandler?

    // Request side.
    /// The layer above; set once the request header block is complete.
    var handler: (any HTTP2StreamHandler)?
    /// The request header block went over the limit; the request is answered 431 and never routed.
    var requestRefused = false
    /// The latest part of the DATA frame being received, not yet handed on (nghttp2 may hand a frame
    /// over in several parts).
    private var frameData: ByteBuffer?
    /// The error code of a RST_STREAM received from the client.
    var peerResetCode: UInt32?
    /// Request DATA bytes received and not yet reported with `consumed`; they keep the receive
    /// windows shut until then.
    private var unconsumedBytes = 0

    // Response side.
    private var headersSent = false
    /// The response's headers are out (or queued): the server answered the request.
    var responseStarted: Bool { headersSent }
    /// The end of the response is queued (trailers, or a headers-only response).
    private var endQueued = false
    private var trailers: [HTTP2Header] = []
    private var outbound = PendingWrites()
    private var outboundBytes = 0
    /// nghttp2 holds the DATA provider back (we answered NGHTTP2_ERR_DEFERRED); resume it on new data.
    private var dataDeferred = false
    /// Some bytes of the first queued write have gone out.
    private var firstWriteStarted = false
    /// The trailers went out on their own (`sendTrailersNow`): the DATA provider sends nothing more.
    private var trailersSentDirectly = false

    private typealias PendingWrite = HTTP2PendingWrite
    private typealias PendingWrites = HTTP2PendingWrites

    init(streamID: Int32, connection: HTTP2ConnectionHandler) {
        self.streamID = streamID
        self.connection = connection
        self.eventLoop = connection.eventLoop
        self.remoteAddress = connection.remoteAddress
    }

    // MARK: HTTP2ResponseStream

    func sendHeaders(_ headers: [HTTP2Header], endStream: Bool) {
        assertOnEventLoop()
        guard let connection, !headersSent else { return }
        headersSent = true
        endQueued = endStream
        connection.submitResponse(streamID: streamID, headers: headers, hasBody: !endStream)
    }

    func sendData(_ data: ByteBuffer, promise: EventLoopPromise<Void>?) {
        assertOnEventLoop()
        guard let connection else {
            promise?.fail(HTTP2StreamWriteError.streamClosed)
            return
        }
        guard headersSent, !endQueued else {
            promise?.fail(HTTP2StreamWriteError.invalidOrder)
            return
        }
        if data.readableBytes == 0 {
            promise?.succeed()
            return
        }
        outbound.append(PendingWrite(data: data, promise: promise))
        outboundBytes += data.readableBytes
        resumeIfDeferred(connection)
    }

    func sendTrailers(_ trailers: [HTTP2Header]) {
        assertOnEventLoop()
        guard let connection, headersSent, !endQueued else { return }
        endQueued = true
        self.trailers = trailers
        resumeIfDeferred(connection)
    }

    func reset(errorCode: UInt32) {
        assertOnEventLoop()
        guard let connection else { return }
        connection.submitReset(streamID: streamID, errorCode: errorCode)
    }

    var queuedByteCount: Int { outboundBytes }

    var queuedWriteCount: Int { outbound.count }

    func dropUnsentWrites() -> Int {
        assertOnEventLoop()
        let removed = outbound.removeAll(keepingFirst: firstWriteStarted)
        for write in removed {
            outboundBytes -= write.data.readableBytes
            write.promise?.fail(HTTP2StreamWriteError.dropped)
        }
        return removed.count
    }

    func sendTrailersNow(_ trailers: [HTTP2Header]) {
        assertOnEventLoop()
        guard let connection, headersSent, !endQueued else { return }
        guard outbound.isEmpty else { return sendTrailers(trailers) }
        endQueued = true
        trailersSentDirectly = true
        connection.submitTrailers(streamID: streamID, trailers: trailers)
        connection.scheduleFlush()
    }

    func consumed(_ byteCount: Int) {
        assertOnEventLoop()
        guard let connection else { return }
        let count = min(byteCount, unconsumedBytes)
        guard count > 0 else { return }
        unconsumedBytes -= count
        connection.consume(streamID: streamID, byteCount: count)
    }

    private func resumeIfDeferred(_ connection: HTTP2ConnectionHandler) {
        if dataDeferred {
            dataDeferred = false
            connection.resumeData(streamID: streamID)
        } else {
            connection.scheduleFlush()
        }
    }

    @inline(__always)
    private func assertOnEventLoop() {
        #if DEBUG
        eventLoop.preconditionInEventLoop()
        #endif
    }

    // MARK: Request side, called from nghttp2 callbacks

    /// Part of the payload of the DATA frame being received. It waits for the next part or the end
    /// of the frame, whichever comes first, and then goes to the handler as it is: parts of one frame
    /// are not joined, since the handler copies what it keeps anyway.
    func appendData(_ chunk: ByteBuffer) {
        unconsumedBytes += chunk.readableBytes
        if let earlier = frameData.take() {
            handler?.receiveData(earlier, endStream: false)
        }
        frameData = chunk
    }

    /// The DATA frame being received is complete: hand its last part to the handler.
    func deliverData(endStream: Bool) {
        let data = frameData.take() ?? ByteBuffer()
        handler?.receiveData(data, endStream: endStream)
    }

    // MARK: Response side, called from nghttp2 callbacks

    /// nghttp2's data source read callback: how many bytes the next DATA frame carries (at most
    /// `maxLength`), sent later by `writeFrame` without copying them into nghttp2's buffer.
    func nextFrameLength(maxLength: Int, flags: inout UInt32) -> Int {
        if trailersSentDirectly {
            flags |= NGHTTP2_DATA_FLAG_EOF.rawValue | NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
            return 0
        }
        // A write that the client's window cannot take whole waits for a WINDOW_UPDATE rather than
        // going out in part (when the window can ever hold it), so that a stream ended while its
        // client does not read never leaves the client part of a message.
        if !firstWriteStarted, outboundBytes > 0, let connection, outbound.firstByteCount > maxLength,
           connection.waitForWindow(streamID: streamID, bytes: outbound.firstByteCount)
        {
            dataDeferred = true
            return Int(NGHTTP2_ERR_DEFERRED.rawValue)
        }
        guard outboundBytes > 0 else {
            if endQueued {
                flags |= NGHTTP2_DATA_FLAG_EOF.rawValue
                submitTrailersIfAny(flags: &flags)
                return 0
            }
            dataDeferred = true
            return Int(NGHTTP2_ERR_DEFERRED.rawValue)
        }
        let length = min(maxLength, outboundBytes)
        flags |= NGHTTP2_DATA_FLAG_NO_COPY.rawValue
        if length == outboundBytes && endQueued {
            flags |= NGHTTP2_DATA_FLAG_EOF.rawValue
            submitTrailersIfAny(flags: &flags)
        }
        return length
    }

    /// Ends the body with trailers (when there are any) instead of END_STREAM on the last DATA frame.
    private func submitTrailersIfAny(flags: inout UInt32) {
        guard !trailers.isEmpty, let connection else { return }
        flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
        connection.submitTrailers(streamID: streamID, trailers: trailers)
        trailers = []
    }

    /// Moves `length` queued bytes out as the payload of one DATA frame; completed writes' promises
    /// are handed to `completed` (succeeded by the caller once nghttp2 is done sending).
    func takeFramePayload(length: Int, emit: (ByteBuffer) -> Void, completed: inout [EventLoopPromise<Void>]) {
        let (taken, partlySent) = outbound.takePayload(length: length, emit: emit, completed: &completed)
        if let partlySent { firstWriteStarted = partlySent }
        outboundBytes -= taken
    }

    // MARK: Closing

    /// The received bytes the handler never reported; the stream is closing, so the connection
    /// takes them back (they must not shrink the connection's window for good).
    func takeUnconsumedBytes() -> Int {
        defer { unconsumedBytes = 0 }
        return unconsumedBytes
    }

    /// The stream is closed: pending writes fail, the handler hears why, and every later call is ignored.
    func close(_ reason: HTTP2StreamCloseReason) {
        guard connection != nil else { return }
        connection = nil
        frameData = nil
        outboundBytes = 0
        outbound.failAll(HTTP2StreamWriteError.streamClosed)
        let handler = self.handler
        self.handler = nil
        handler?.streamClosed(reason)
    }
}
