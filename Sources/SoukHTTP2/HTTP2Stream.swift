import NIOCore

/// One header field. Names are lower-case, as HTTP/2 requires; pseudo-headers start with ":".
public struct HTTP2Header: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension String {
    /// The field name in lower case; the String itself (no copy) when it is lower case already, as
    /// names nearly always are. Header names and metadata keys compare in lower case.
    package var lowercasedFieldName: String {
        let isUpperCase = { (byte: UInt8) in byte &- UInt8(ascii: "A") < 26 }
        let hasUpperCase = utf8.withContiguousStorageIfAvailable { $0.contains(where: isUpperCase) }
            ?? utf8.contains(where: isUpperCase)
        return hasUpperCase ? lowercased() : self
    }
}

/// How a request stream ended.
public enum HTTP2StreamCloseReason: Sendable, Equatable {
    /// Both sides ended the stream normally.
    case completed
    /// The client sent RST_STREAM with this HTTP/2 error code (for example CANCEL = 8).
    case resetByPeer(errorCode: UInt32)
    /// The connection closed (or failed) before the stream finished.
    case connectionClosed
}

/// The receiving half of one request stream, implemented by the layer above HTTP/2.
///
/// The transport calls these methods on the connection's event loop, in the order the frames arrived.
///
/// Flow control: the client may send only as many DATA bytes as the stream's (and the connection's)
/// receive window allows, and the window reopens only for bytes the handler reports with
/// `HTTP2ResponseStream.consumed(_:)`. A handler that ignores the body reports it at once; one that
/// buffers it reports it as the buffer drains. Bytes still unreported when the stream closes are
/// released by the transport.
public protocol HTTP2StreamHandler: AnyObject {
    /// The payload of one DATA frame, or part of it when the frame arrived over several reads (the
    /// last part carries the frame's END_STREAM); empty when a frame only carries END_STREAM.
    /// Its bytes count against the receive window until reported with `consumed(_:)`.
    func receiveData(_ data: ByteBuffer, endStream: Bool)
    /// Trailers from the client; they end the request body.
    func receiveTrailers(_ trailers: [HTTP2Header])
    /// The stream is closed; no further call follows for it.
    func streamClosed(_ reason: HTTP2StreamCloseReason)
}

/// The sending half of one request stream, implemented by the transport.
///
/// Not thread-safe: call it only on `eventLoop`. Calls after the stream closed are ignored.
public protocol HTTP2ResponseStream: AnyObject {
    /// The HTTP/2 stream identifier.
    var streamID: Int32 { get }
    /// The event loop of the stream's connection.
    var eventLoop: any EventLoop { get }
    /// The client's address, when the socket has one.
    var remoteAddress: SocketAddress? { get }

    /// Sends the response header block. `endStream` makes it a headers-only (trailers-only) response.
    func sendHeaders(_ headers: [HTTP2Header], endStream: Bool)
    /// Queues body bytes. `promise` succeeds once nghttp2 has taken the bytes into DATA frames
    /// (so a writer awaiting it is held back by flow control) and fails if the stream closes first.
    func sendData(_ data: ByteBuffer, promise: EventLoopPromise<Void>?)
    /// Sends trailers after all queued data, ending the stream.
    func sendTrailers(_ trailers: [HTTP2Header])
    /// Ends the stream at once with RST_STREAM and this HTTP/2 error code.
    func reset(errorCode: UInt32)
    /// Reports that the handler is done with `byteCount` bytes of request DATA it received, so the
    /// client may send that much more (a WINDOW_UPDATE follows once enough has been reported).
    /// Reports beyond the bytes received are ignored.
    func consumed(_ byteCount: Int)

    /// Body bytes queued with `sendData` that have not gone out yet (held back by the client's
    /// flow-control window or a full socket).
    var queuedByteCount: Int { get }
    /// The `sendData` writes not completely gone out yet.
    var queuedWriteCount: Int { get }
    /// Drops the queued writes of which no byte has gone out (failing their promises with
    /// `HTTP2StreamWriteError.dropped`); a write already partly sent stays, so the client never
    /// gets part of one. Returns how many were dropped.
    func dropUnsentWrites() -> Int
    /// Ends the stream with trailers at once when nothing is queued, even while the client's
    /// window is shut (HEADERS are not flow-controlled); otherwise after the queued data, as
    /// `sendTrailers`.
    func sendTrailersNow(_ trailers: [HTTP2Header])
}

extension HTTP2ResponseStream {
    public var queuedByteCount: Int { 0 }
    public var queuedWriteCount: Int { 0 }
    public func dropUnsentWrites() -> Int { 0 }
    public func sendTrailersNow(_ trailers: [HTTP2Header]) { sendTrailers(trailers) }
}

/// Chooses a handler for each new request stream. One router serves every connection.
public protocol HTTP2StreamRouter: Sendable {
    /// Called on the connection's event loop when a request's header block is complete.
    /// `endStream` is true when the request has no body.
    func openStream(
        _ stream: any HTTP2ResponseStream,
        headers: [HTTP2Header],
        endStream: Bool
    ) -> any HTTP2StreamHandler
}
