import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus

/// A small HTTP/1.1 server that answers `GET /metrics` with the Prometheus text format.
struct MetricsEndpoint {
    let registry: PrometheusCollectorRegistry
    let logger: Logger

    /// Binds the endpoint and returns its channel; close the channel to stop it.
    func start(host: String, port: Int, group: any EventLoopGroup) async throws -> any Channel {
        let registry = self.registry
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(MetricsHTTPHandler(registry: registry))
                }
            }
            .bind(host: host, port: port)
            .get()
        logger.info("metrics listening", metadata: ["address": "\(channel.localAddress.map { "\($0)" } ?? "?")", "path": "/metrics"])
        return channel
    }
}

/// Answers each HTTP request: the metrics for `GET /metrics`, 404 otherwise.
private final class MetricsHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: PrometheusCollectorRegistry
    private var head: HTTPRequestHead?

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            let found = head.method == .GET && head.uri.split(separator: "?").first == "/metrics"
            var body = context.channel.allocator.buffer(capacity: 0)
            if found {
                body.writeBytes(registry.emitToBuffer())
            } else {
                body.writeString("not found\n")
            }
            var headers = HTTPHeaders()
            headers.add(name: "content-type", value: found ? "text/plain; version=0.0.4" : "text/plain")
            headers.add(name: "content-length", value: "\(body.readableBytes)")
            let response = HTTPResponseHead(version: head.version, status: found ? .ok : .notFound, headers: headers)
            context.write(wrapOutboundOut(.head(response)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            self.head = nil
        }
    }
}
