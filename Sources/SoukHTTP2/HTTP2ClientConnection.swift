import NIOCore
import NIOPosix
import NIOSSL

/// Settings of one client connection: flow-control windows, keepalive and timeouts.
public struct HTTP2ClientConfiguration: Sendable {
    /// SETTINGS_INITIAL_WINDOW_SIZE: how much of a response the server may send on one stream ahead
    /// of window updates. The window reopens as the caller consumes the response (backpressure).
    public var initialStreamWindowSize: Int = 1 << 20
    /// Receive window of the whole connection, announced after SETTINGS.
    public var connectionWindowSize: Int = 16 << 20
    /// SETTINGS_MAX_HEADER_LIST_SIZE: larger response header blocks reset their stream.
    public var maxHeaderListSize: Int = 64 * 1024
    /// How long establishing the connection may take: TCP, TLS and the server's first SETTINGS.
    public var connectTimeout: Duration = .seconds(20)
    /// When set, a PING goes out after this long without a frame from the server; a connection whose
    /// PING is not answered within `keepAliveTimeout` is closed (its calls fail UNAVAILABLE).
    public var keepAliveInterval: Duration?
    /// How long a keepalive PING may wait for its answer.
    public var keepAliveTimeout: Duration = .seconds(20)

    public init() {}
}

/// TLS for a client connection: TLS 1.2 or later with ALPN `h2`, the server's certificate checked
/// against the system's trust roots or given CA certificates, and its name checked against the
/// target's host name (or `serverHostname`). The NIOSSL context is made once and shared by every
/// connection that uses this value.
public struct HTTP2ClientTLS: Sendable {
    /// Which certificate authorities the client trusts.
    public enum Trust: Sendable {
        /// The operating system's trust roots.
        case systemDefault
        /// The CA certificates in a PEM file.
        case certificateFile(String)
        /// CA certificates given as PEM text.
        case pem(String)
    }

    let context: NIOSSLContext
    /// The name sent in SNI and checked against the certificate; nil: the target's host (an IP
    /// address is then checked against the certificate's IP addresses and no SNI is sent).
    public let serverHostname: String?

    public init(trust: Trust = .systemDefault, serverHostname: String? = nil, verifyHostname: Bool = true) throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["h2"]
        configuration.certificateVerification = verifyHostname ? .fullVerification : .noHostnameVerification
        switch trust {
        case .systemDefault:
            configuration.trustRoots = .default
        case .certificateFile(let path):
            configuration.trustRoots = .file(path)
        case .pem(let text):
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(text.utf8)))
        }
        self.context = try NIOSSLContext(configuration: configuration)
        self.serverHostname = serverHostname
    }
}

/// Why a client connection or stream could not be used.
public struct HTTP2ClientError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The connection could not be made (TCP, TLS, ALPN, or no SETTINGS in time).
        case connectFailed
        /// The connection is closed or closing.
        case connectionClosed
        /// The server sent GOAWAY: the connection takes no new streams.
        case goingAway
        /// Every stream the server allows (SETTINGS_MAX_CONCURRENT_STREAMS) is in use.
        case noStreamAvailable
        /// nghttp2 refused the request.
        case protocolError
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Connection events for the owner of a client connection, on its event loop.
public protocol HTTP2ClientConnectionDelegate: AnyObject {
    /// A stream closed, or the server changed its SETTINGS: `availableStreams` may have grown.
    func streamCapacityChanged()
    /// The server sent GOAWAY: no new stream may start on this connection; the open ones finish.
    func goAwayReceived(errorCode: UInt32)
    /// The connection is closed; every stream on it was closed first.
    func connectionClosed(error: (any Error)?)
}

/// One HTTP/2 client connection: an nghttp2 client session over a SwiftNIO channel, cleartext with
/// prior knowledge or TLS with ALPN `h2`.
///
/// Streams are opened on the connection's event loop (`openStream`), and everything about them
/// happens there. The connection never opens more streams than the server's
/// SETTINGS_MAX_CONCURRENT_STREAMS; `availableStreams` says how many more it may open.
public final class HTTP2ClientConnection: Sendable {
    public let eventLoop: any EventLoop
    let channel: any Channel
    private let session: NIOLoopBound<HTTP2ClientSession>

    private init(channel: any Channel, session: HTTP2ClientSession) {
        self.channel = channel
        self.eventLoop = channel.eventLoop
        self.session = NIOLoopBound(session, eventLoop: channel.eventLoop)
    }

    /// Connects to `host:port` on `eventLoop`; succeeds once the server's SETTINGS arrived, on the
    /// event loop, before any other event of the connection (set the delegate then).
    public static func connect(
        host: String, port: Int, tls: HTTP2ClientTLS?, configuration: HTTP2ClientConfiguration = HTTP2ClientConfiguration(),
        eventLoop: any EventLoop
    ) -> EventLoopFuture<HTTP2ClientConnection> {
        let ready = eventLoop.makePromise(of: HTTP2ClientConnection.self)
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelOption(.writeBufferWaterMark, value: .init(low: 128 * 1024, high: 512 * 1024))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls {
                        let name = tls.serverHostname ?? host
                        // SNI carries only names, never IP addresses.
                        let isAddress = (try? SocketAddress(ipAddress: name, port: 0)) != nil
                        try pipeline.addHandler(NIOSSLClientHandler(context: tls.context, serverHostname: isAddress ? nil : name))
                    }
                    let session = HTTP2ClientSession(configuration: configuration, requiresALPN: tls != nil, channel: channel)
                    let connection = HTTP2ClientConnection(channel: channel, session: session)
                    session.readyPromise = ready
                    session.connection = connection
                    try pipeline.addHandler(session)
                }
            }
        bootstrap.connect(host: host, port: port).whenFailure { error in
            ready.fail(HTTP2ClientError(.connectFailed, "cannot connect to \(host):\(port): \(error)"))
        }
        return ready.futureResult
    }

    /// Sets who hears of this connection's events. Only on the event loop.
    public func setDelegate(_ delegate: (any HTTP2ClientConnectionDelegate)?) {
        session.value.delegate = delegate
    }

    /// Opens a request stream with this header block (built by the caller, pseudo-headers first).
    /// `endStream`: the request has no body. Only on the event loop.
    public func openStream(
        headers: [HTTP2Header], endStream: Bool, delegate: any HTTP2ClientStreamDelegate
    ) throws(HTTP2ClientError) -> HTTP2ClientStream {
        try session.value.openStream(headers: headers, endStream: endStream, delegate: delegate)
    }

    /// How many more streams may open now. Only on the event loop.
    public var availableStreams: Int { session.value.availableStreams }

    /// How many streams are open. Only on the event loop.
    public var openStreamCount: Int { session.value.openStreamCount }

    /// False once the server sent GOAWAY or the connection closed. Only on the event loop.
    public var isAcceptingStreams: Bool { session.value.isAcceptingStreams }

    /// Sends GOAWAY and closes once the open streams have finished. From any thread.
    public func closeGracefully() {
        let session = self.session
        eventLoop.execute { session.value.closeGracefully() }
    }

    /// Closes the connection now; open streams close with `.connectionClosed`. From any thread.
    public func close() {
        channel.close(promise: nil)
    }

    /// Completes when the connection is closed.
    public var closeFuture: EventLoopFuture<Void> { channel.closeFuture }
}
