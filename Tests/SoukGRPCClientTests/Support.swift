import Foundation
import Logging
import NIOCore
import NIOPosix
import SoukGRPC
import SoukGRPCClient
import SoukHTTP2
import SoukMessages
import SoukStandardServices
import Testing

/// The interop services (and a service whose errors carry details) served on a loopback port.
final class TestServer: Sendable {
    static let logger = Logger(label: "souk.grpc-client.test", factory: { _ in SwiftLogNoOpLogHandler() })

    let server: HTTP2Server
    let port: Int
    let group: MultiThreadedEventLoopGroup

    /// Starts serving on `port` (0: a free one), with `configure` applied to the HTTP/2 settings.
    init(port: Int = 0, configure: (inout HTTP2ServerConfiguration) -> Void = { _ in }) async throws {
        var configuration = HTTP2ServerConfiguration(host: "127.0.0.1", port: port)
        configure(&configuration)
        let router = GRPCRouter(
            services: [InteropTestService(), UnimplementedService(), DetailsService()], logger: Self.logger)
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        server = HTTP2Server(configuration: configuration, router: router, logger: Self.logger, group: group)
        let address = try await server.start()
        self.port = try #require(address.port)
    }

    func stop() async {
        await server.shutdown(gracePeriod: .zero)
        try? await group.shutdownGracefully()
    }
}

/// Runs `body` with a server and a cleartext channel to it, and closes both.
func withServerAndChannel(
    configure: (inout HTTP2ServerConfiguration) -> Void = { _ in },
    channel configureChannel: (inout GRPCChannel.Configuration) -> Void = { _ in },
    _ body: (TestServer, GRPCChannel) async throws -> Void
) async throws {
    let server = try await TestServer(configure: configure)
    var configuration = GRPCChannel.Configuration()
    configureChannel(&configuration)
    let channel = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: server.port), configuration: configuration)
    do {
        try await body(server, channel)
    } catch {
        await channel.close()
        await server.stop()
        throw error
    }
    await channel.close()
    await server.stop()
}

/// `test.Details/Fail` answers INVALID_ARGUMENT with every kind of detail Souk sends;
/// `test.Details/Attempts` answers with the call's earlier attempts in trailer `x-previous-attempts`.
struct DetailsService: RPCService {
    let serviceName = "test.Details"

    var methods: [RPCMethod] {
        [
            .synchronousUnary("Attempts") { (_: GRPCTesting.Empty, context) -> GRPCTesting.Empty in
                context.responseTrailers.add("x-previous-attempts", String(context.previousAttempts))
                return GRPCTesting.Empty()
            },
            .synchronousUnary("Fail") { (_: GRPCTesting.Empty, _) -> GRPCTesting.Empty in
                throw RPCError(
                    .invalidArgument, "two fields are wrong",
                    errorInfo: GoogleRPC.ErrorInfo(reason: "BAD_FIELDS", domain: "test.souk", metadata: ["count": "2"]),
                    fieldViolations: [
                        FieldViolation(field: "name", description: "must not be empty"),
                        FieldViolation(field: "items[1].quantity", description: "must be positive"),
                    ],
                    retryDelay: .seconds(3),
                    localizedMessage: GoogleRPC.LocalizedMessage(locale: "en", message: "Please check the form."),
                    trailers: Metadata([("x-request-id", "r-1")]))
            },
        ]
    }
}

/// A payload of `count` zero bytes, as the interop service fills them.
func zeros(_ count: Int) -> GRPCTesting.Payload {
    GRPCTesting.Payload(type: .compressable, body: [UInt8](repeating: 0, count: count))
}

/// Expects `body` to throw an `RPCError` with `code`; returns it.
@discardableResult
func expectStatus(
    _ code: StatusCode, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> RPCError? {
    do {
        try await body()
        Issue.record("expected \(code), the call succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let error as RPCError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected RPCError \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Lets `count` tasks meet: each `arrive()` returns once all have arrived.
actor Barrier {
    private let count: Int
    private var arrived = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { self.count = count }

    func arrive() async {
        arrived += 1
        if arrived >= count {
            for waiter in waiters { waiter.resume() }
            waiters = []
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }
}

/// Waits until `condition` holds (checked every 10 ms), failing after 60 s (long: on a busy run a
/// test's task may wait many seconds for a thread; a condition that holds ends the wait at once).
func waitUntil(_ condition: () async -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let clock = ContinuousClock()
    let end = clock.now + .seconds(60)
    while !(await condition()) {
        guard clock.now < end else {
            Issue.record("condition not met within 60 s", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}

enum TestService {
    static let empty = "/grpc.testing.TestService/EmptyCall"
    static let unary = "/grpc.testing.TestService/UnaryCall"
    static let streamingInput = "/grpc.testing.TestService/StreamingInputCall"
    static let streamingOutput = "/grpc.testing.TestService/StreamingOutputCall"
    static let fullDuplex = "/grpc.testing.TestService/FullDuplexCall"
}
