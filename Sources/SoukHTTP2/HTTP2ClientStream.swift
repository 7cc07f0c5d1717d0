import CNGHTTP2
import NIOCore

/// The receiving half of one client stream, implemented by the layer above HTTP/2.
///
/// Called on the connection's event loop, in the order the frames arrived. As on the server,
/// received DATA counts against the receive windows until reported with
/// `HTTP2ClientStream.consumed(_:)`; what is unreported when the stream closes is released.
public protocol HTTP2ClientStreamDelegate: AnyObject {
    /// The response header block (informational 1xx blocks are skipped). `endStream`: the response
    /// ends with it (no body, no trailers: a gRPC Trailers-Only response).
    func receiveResponseHeaders(_ headers: [HTTP2Header], endStream: Bool)
    /// The payload of one DATA frame, or part of it (see `HTTP2StreamHandler.receiveData`).
    func receiveData(_ data: ByteBuffer, endStream: Bool)
    /// The trailers; they end the response.
    func receiveTrailers(_ trailers: [HTTP2Header])
    /// The stream is closed; no further call follows. A stream refused by GOAWAY closes with
    /// `.resetByPeer(errorCode: 7)` (REFUSED_STREAM): the server never saw it.
    func streamClosed(_ reason: HTTP2StreamCloseReason)
}

/// The sending half of one client stream. Only on the connection's event loop; calls after the
/// stream closed are ignored (their promises fail).
public final class HTTP2ClientStream: StreamIdentified {
    public internal(set) var streamID: Int32 = 0
    /// The session while the stream is open; nil once closed.
    private var session: HTTP2ClientSession?
    var delegate: (any HTTP2ClientStreamDelegate)?

    // Receiving.
    var receivedResponseHeaders = false
    /// The latest part of the DATA frame being received, not yet handed on.
    private var frameData: ByteBuffer?
    var peerResetCode: UInt32?
    private var unconsumedBytes = 0

    // Sending.
    private var outbound = HTTP2PendingWrites()
    private var outboundBytes = 0
    private var endQueued: Bool
    private var dataDeferred = false

    init(session: HTTP2ClientSession, delegate: any HTTP2ClientStreamDelegate, endStream: Bool) {
        self.session = session
        self.delegate = delegate
        self.endQueued = endStream
    }

    /// Queues request body bytes; `endStream` ends the request after them. `promise` succeeds once
    /// nghttp2 took the bytes into DATA frames (held back by the server's window) and fails if the
    /// stream closes first.
    public func sendData(_ data: ByteBuffer, endStream: Bool, promise: EventLoopPromise<Void>?) {
        guard let session, !endQueued else {
            promise?.fail(session == nil ? HTTP2StreamWriteError.streamClosed : HTTP2StreamWriteError.invalidOrder)
            return
        }
        endQueued = endStream
        if data.readableBytes > 0 {
            outbound.append(HTTP2PendingWrite(data: data, promise: promise))
            outboundBytes += data.readableBytes
        } else {
            promise?.succeed()
        }
        resume(session)
    }

    /// Ends the request after the queued bytes (END_STREAM).
    public func finish() {
        guard let session, !endQueued else { return }
        endQueued = true
        resume(session)
    }

    /// Ends the stream at once with RST_STREAM and this error code (CANCEL = 8 by default).
    public func reset(errorCode: UInt32 = 8) {
        session?.submitReset(streamID: streamID, errorCode: errorCode)
    }

    /// Reports that `byteCount` bytes of received DATA are consumed, reopening the windows.
    public func consumed(_ byteCount: Int) {
        let count = min(byteCount, unconsumedBytes)
        guard count > 0, let session else { return }
        unconsumedBytes -= count
        session.consume(streamID: streamID, byteCount: count)
    }

    private func resume(_ session: HTTP2ClientSession) {
        if dataDeferred {
            dataDeferred = false
            session.resumeData(streamID: streamID)
        } else {
            session.scheduleFlush()
        }
    }

    // MARK: From the session's callbacks

    func appendData(_ chunk: ByteBuffer) {
        unconsumedBytes += chunk.readableBytes
        if let earlier = frameData.take() {
            delegate?.receiveData(earlier, endStream: false)
        }
        frameData = chunk
    }

    func deliverData(endStream: Bool) {
        let data = frameData.take() ?? ByteBuffer()
        delegate?.receiveData(data, endStream: endStream)
    }

    /// nghttp2's data source read callback: the length of the next DATA frame (NO_COPY).
    func nextFrameLength(maxLength: Int, flags: inout UInt32) -> Int {
        guard outboundBytes > 0 else {
            if endQueued {
                flags |= NGHTTP2_DATA_FLAG_EOF.rawValue
                return 0
            }
            dataDeferred = true
            return Int(NGHTTP2_ERR_DEFERRED.rawValue)
        }
        let length = min(maxLength, outboundBytes)
        flags |= NGHTTP2_DATA_FLAG_NO_COPY.rawValue
        if length == outboundBytes && endQueued {
            flags |= NGHTTP2_DATA_FLAG_EOF.rawValue
        }
        return length
    }

    /// Moves `length` queued bytes out as one DATA frame's payload (as `HTTP2ServerStream` does).
    func takeFramePayload(length: Int, emit: (ByteBuffer) -> Void, completed: inout [EventLoopPromise<Void>]) {
        outboundBytes -= outbound.takePayload(length: length, emit: emit, completed: &completed).taken
    }

    func takeUnconsumedBytes() -> Int {
        defer { unconsumedBytes = 0 }
        return unconsumedBytes
    }

    /// The stream is closed: pending writes fail and the delegate hears why.
    func close(_ reason: HTTP2StreamCloseReason) {
        guard session != nil else { return }
        session = nil
        frameData = nil
        outboundBytes = 0
        outbound.failAll(HTTP2StreamWriteError.streamClosed)
        let delegate = self.delegate
        self.delegate = nil
        delegate?.streamClosed(reason)
    }
}
