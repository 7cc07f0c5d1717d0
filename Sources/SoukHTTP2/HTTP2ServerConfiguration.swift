/// Settings for `HTTP2Server`: where it listens, TLS, protocol limits and timeouts.
///
/// The defaults suit a public gRPC endpoint; tests shorten the timeouts.
public struct HTTP2ServerConfiguration: Sendable {
    /// PEM files for TLS. With them the server speaks TLS 1.2+ with ALPN "h2"; without, cleartext h2c
    /// with prior knowledge.
    public struct TLS: Sendable, Equatable {
        /// Path of the PEM certificate chain, leaf first.
        public var certificateChainPath: String
        /// Path of the PEM private key of the leaf certificate.
        public var privateKeyPath: String

        public init(certificateChainPath: String, privateKeyPath: String) {
            self.certificateChainPath = certificateChainPath
            self.privateKeyPath = privateKeyPath
        }
    }

    /// Host or address to bind, for example "0.0.0.0" or "127.0.0.1".
    public var host: String
    /// Port to bind; 0 picks a free port (read it from `HTTP2Server.start()`).
    public var port: Int
    /// TLS material; nil serves cleartext HTTP/2 (h2c, prior knowledge).
    public var tls: TLS?

    /// SETTINGS_MAX_CONCURRENT_STREAMS: streams a client may have open at once on one connection.
    /// nghttp2 refuses extra streams (RST_STREAM REFUSED_STREAM, or PROTOCOL_ERROR once the client
    /// acknowledged the setting).
    public var maxConcurrentStreams: Int = 100
    /// SETTINGS_MAX_HEADER_LIST_SIZE, counted as RFC 9113 does (name + value + 32 per field).
    /// A request whose header block is larger is answered `:status 431` and never reaches the router;
    /// oversized trailers reset the stream.
    public var maxHeaderListSize: Int = 16 * 1024
    /// SETTINGS_INITIAL_WINDOW_SIZE: how much request body a client may send on one stream ahead of
    /// window updates. Larger than the protocol default (64 KiB) so big messages flow without stalls.
    /// The window reopens as the stream's handler consumes the body, so this also bounds what one
    /// stream buffers for a handler that reads slowly.
    public var initialStreamWindowSize: Int = 1 << 20
    /// Receive window of the whole connection, announced with a WINDOW_UPDATE after SETTINGS; it
    /// bounds the unconsumed request bytes of all streams together. Larger than one stream's window,
    /// so one slow stream does not hold the others back.
    public var connectionWindowSize: Int = 16 << 20
    /// Responses answered while reading one batch of requests after which the server stops reading
    /// to send them, then reads on. A client with many requests in flight on one connection then
    /// gets answers (and sends its next requests) while the rest of the batch is processed, instead
    /// of client and server taking turns. Lower: earlier answers and more writes (at least 1).
    /// Only while no other connection on the event loop read since the connection's last read:
    /// the loop then has their requests to serve meanwhile, and one write per batch costs less.
    public var answersPerEarlyFlush: Int = 16

    /// A connection with no open stream for this long gets GOAWAY and is closed.
    public var idleTimeout: Duration = .seconds(300)
    /// A connection that has not sent its client preface and SETTINGS within this time (counted from
    /// accept, so it includes the TLS handshake) is closed.
    public var handshakeTimeout: Duration = .seconds(10)
    /// Rapid-reset bound: at most this many streams may be reset by the client, before their
    /// response started, within `streamResetWindow`; one more gets GOAWAY ENHANCE_YOUR_CALM and
    /// the connection is closed. 200 per 10 s allows ordinary cancellations (deadlines, user
    /// aborts) while bounding the open-then-reset floods of CVE-2023-44487 to a small, fixed
    /// amount of work. Streams the server has answered (a watch the client stops reading) do not
    /// count: closing them costs the server nothing it has not already done.
    public var maxStreamResets: Int = 200
    /// The window over which `maxStreamResets` is counted.
    public var streamResetWindow: Duration = .seconds(10)
    /// Upper bound on open connections; connections beyond it are closed on accept. nil means no bound.
    public var maxConnections: Int? = nil

    public init(host: String = "0.0.0.0", port: Int = 0, tls: TLS? = nil) {
        self.host = host
        self.port = port
        self.tls = tls
    }
}
