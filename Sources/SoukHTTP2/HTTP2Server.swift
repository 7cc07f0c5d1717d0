import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// An HTTP/2 server: accepts connections (TLS with ALPN "h2", or cleartext h2c with prior knowledge),
/// runs one nghttp2 session per connection, and hands every request stream to one router. A
/// connection that does not open with the HTTP/2 preface is served as HTTP/1.1 (browsers), its
/// requests handed to the same router.
public final class HTTP2Server: Sendable {
    private let configuration: HTTP2ServerConfiguration
    private let router: any HTTP2StreamRouter
    private let logger: Logger
    private let group: any EventLoopGroup
    private let metrics = HTTP2ServerMetrics()
    private let state = Mutex(State())

    private struct State {
        var serverChannel: (any Channel)?
        var connections: [ObjectIdentifier: Connection] = [:]
        var isDraining = false
        /// The read counter of each event loop that has had a connection.
        var loopReads: [ObjectIdentifier: EventLoopReads] = [:]
    }

    /// One accepted connection, and the way to reach its handler on its event loop.
    private struct Connection: Sendable {
        var channel: any Channel
        var handler: NIOLoopBound<ConnectionSlot>
    }

    public init(
        configuration: HTTP2ServerConfiguration,
        router: any HTTP2StreamRouter,
        logger: Logger,
        group: any EventLoopGroup
    ) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.group = group
    }

    /// True once `shutdown` began: health checks should report NOT_SERVING.
    public var isDraining: Bool {
        state.withLock { $0.isDraining }
    }

    /// How many connections are open right now.
    public var connectionCount: Int {
        state.withLock { $0.connections.count }
    }

    /// Binds `configuration.host`/`port` and starts accepting; returns the bound address (with the
    /// chosen port when the configuration asked for port 0).
    public func start() async throws -> SocketAddress {
        let sslContext = try configuration.tls.map(Self.makeSSLContext)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // Room for a few large DATA frames per flush before the connection counts as not writable.
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 128 * 1024, high: 512 * 1024))
            // Each connection keeps its read buffer: start small (idle connections are most of them)
            // and let busy ones grow it.
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65536))
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try initializeConnection(channel, sslContext: sslContext)
                }
            }
        let channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        state.withLock { $0.serverChannel = channel }
        guard let address = channel.localAddress else {
            throw IOError(errnoCode: EINVAL, reason: "server socket has no local address")
        }
        logger.info("HTTP/2 server listening", metadata: ["address": "\(address)", "tls": "\(sslContext != nil)"])
        return address
    }

    /// Graceful shutdown: stop accepting, send GOAWAY on every connection, let in-flight streams
    /// finish for up to `gracePeriod`, then close whatever is still open.
    public func shutdown(gracePeriod: Duration) async {
        let (serverChannel, connections) = state.withLock { state in
            state.isDraining = true
            return (state.serverChannel, Array(state.connections.values))
        }
        try? await serverChannel?.close()
        logger.info("HTTP/2 server draining", metadata: ["connections": "\(connections.count)"])

        for connection in connections {
            connection.channel.eventLoop.execute {
                connection.handler.value.beginGracefulShutdown()
            }
        }
        guard !connections.isEmpty else { return }
        let loop = group.any()
        let allClosed = EventLoopFuture.andAllComplete(connections.map { $0.channel.closeFuture }, on: loop)
        let deadline = loop.scheduleTask(in: TimeAmount(gracePeriod)) {
            for connection in connections {
                connection.channel.close(promise: nil)
            }
        }
        try? await allClosed.get()
        deadline.cancel()
        logger.info("HTTP/2 server stopped")
    }

    private func initializeConnection(_ channel: any Channel, sslContext: NIOSSLContext?) throws {
        let slot = ConnectionSlot()
        let key = ObjectIdentifier(channel)
        let connection = Connection(channel: channel, handler: NIOLoopBound(slot, eventLoop: channel.eventLoop))
        let loopKey = ObjectIdentifier(channel.eventLoop)
        let (admitted, loopReads) = state.withLock { state -> (Bool, EventLoopReads?) in
            if state.isDraining { return (false, nil) }
            if let limit = configuration.maxConnections, state.connections.count >= limit { return (false, nil) }
            state.connections[key] = connection
            let reads = state.loopReads[loopKey] ?? EventLoopReads()
            state.loopReads[loopKey] = reads
            return (true, reads)
        }
        guard admitted, let loopReads else {
            logger.debug("connection refused (draining or at the connection limit)")
            throw ConnectionRefused()
        }
        channel.closeFuture.whenComplete { [self] _ in
            _ = state.withLock { $0.connections.removeValue(forKey: key) }
        }
        let pipeline = channel.pipeline.syncOperations
        if let sslContext {
            try pipeline.addHandler(NIOSSLServerHandler(context: sslContext))
        }
        let settings = configuration
        let (router, logger, metrics) = (self.router, self.logger, self.metrics)
        try pipeline.addHandler(ProtocolDetector(
            slot: slot,
            timeout: TimeAmount(settings.handshakeTimeout),
            http2: {
                HTTP2ConnectionHandler(
                    configuration: settings, router: router, logger: logger, metrics: metrics, channel: channel,
                    loopReads: loopReads)
            },
            http1: {
                HTTP1ConnectionHandler(router: router, secure: sslContext != nil, idleTimeout: TimeAmount(settings.idleTimeout))
            }))
    }

    private static func makeSSLContext(_ tls: HTTP2ServerConfiguration.TLS) throws -> NIOSSLContext {
        let chain = try NIOSSLCertificate.fromPEMFile(tls.certificateChainPath).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: tls.privateKeyPath, format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["h2", "http/1.1"]
        return try NIOSSLContext(configuration: configuration)
    }
}

/// A connection was accepted while draining or at `maxConnections`; NIO closes it.
private struct ConnectionRefused: Error, CustomStringConvertible {
    var description: String { "connection refused: server draining or at its connection limit" }
}

extension TimeAmount {
    /// The same span as `duration`, at nanosecond precision (saturating).
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (nanos, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self = .nanoseconds(overflow ? .max : nanos.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
    }
}
