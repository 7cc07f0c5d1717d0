import Logging
import NIOCore
import NIOPosix
import SoukGRPC
import SoukHTTP2
import SoukKit

/// The harness's services served over HTTP/2 on a free loopback port, with the server's
/// interceptors, for tests that need a real connection.
public final class LiveServer: Sendable {
    public let port: Int
    let server: HTTP2Server
    let group: MultiThreadedEventLoopGroup
    /// Where the handlers run, as on the real server: never on the event loop.
    let handlers: HandlerThreads

    /// Starts serving; call `stop()` when done.
    public init(_ harness: DomainHarness) async throws {
        let handlers = HandlerThreads(count: 4)
        self.handlers = handlers
        let router = GRPCRouter(
            services: harness.allServices,
            interceptors: [
                AuthenticationInterceptor(authenticator: harness.identity.sessions, rules: harness.rules),
                AuthorizationInterceptor(rules: harness.rules),
            ],
            errorStatus: SoukErrorStatus(rules: harness.rules),
            configuration: .init(handlers: .threads(handlers)),
            logger: DomainHarness.quietLogger)
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        server = HTTP2Server(
            configuration: HTTP2ServerConfiguration(host: "127.0.0.1", port: 0), router: router,
            logger: DomainHarness.quietLogger, group: group)
        guard let port = try await server.start().port else { throw RPCError(.internalError, "the server has no port") }
        self.port = port
    }

    /// Stops accepting, lets calls finish and releases the event loop.
    public func stop() async {
        await server.shutdown(gracePeriod: .seconds(1))
        try? await group.shutdownGracefully()
        await handlers.shutdown()
    }
}
