import Dispatch
import Foundation
import NIOCore
import NIOPosix
import SoukGRPC
import SoukGRPCClient
import SoukHTTP2
import SoukMessages
import Synchronization
import Testing

/// The channel beyond single calls: multiplexing, TLS, reconnection, stream limits, deadlines,
/// cancellation, error details and the backoff schedule.
@Suite("gRPC client: channel")
struct ChannelTests {
    typealias T = GRPCTesting

    @Test func manyConcurrentCallsShareOneConnection() async throws {
        // Ten times the server's stream limit (100): the calls beyond it wait for a free stream.
        try await withServerAndChannel(channel: { $0.maxConnections = 1 }) { server, channel in
            let calls = 1000
            let succeeded = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0 ..< calls {
                    group.addTask {
                        let request = T.SimpleRequest(responseSize: Int32(index % 7), payload: zeros(index % 13))
                        let response = try await channel.unary(TestService.unary, request, as: T.SimpleResponse.self)
                        return response.message.payload?.body.count == index % 7 ? 1 : 0
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(succeeded == calls)
            #expect(await channel.connectionCount == 1)
            #expect(server.server.connectionCount == 1)
        }
    }

    /// A call sent again says so (`grpc-previous-rpc-attempts`, as gRPC's retries do), and the
    /// server reads it; a first attempt sends no such header.
    @Test func aRetriedCallTellsTheServerItsEarlierAttempts() async throws {
        try await withServerAndChannel { _, channel in
            let first = try await channel.unary("/test.Details/Attempts", T.Empty(), as: T.Empty.self)
            #expect(first.trailers["x-previous-attempts"] == "0")
            let third = try await channel.unary(
                "/test.Details/Attempts", T.Empty(), as: T.Empty.self, options: CallOptions(previousAttempts: 2))
            #expect(third.trailers["x-previous-attempts"] == "2")
        }
    }

    @Test func moreConnectionsWhenTheServersStreamLimitIsReached() async throws {
        try await withServerAndChannel(configure: { $0.maxConcurrentStreams = 2 }) { server, channel in
            let calls = 5
            let barrier = Barrier(count: calls + 1)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0 ..< calls {
                    group.addTask {
                        try await channel.withCall(TestService.fullDuplex) { call in
                            try await call.send(T.StreamingOutputCallRequest(responseParameters: [T.ResponseParameters(size: 1)]))
                            var responses = call.responses.makeAsyncIterator()
                            _ = try await responses.next()
                            // Every call is open at once here: five streams where each connection allows two.
                            await barrier.arrive()
                            call.finishSending()
                            #expect(try await responses.next() == nil)
                        }
                    }
                }
                await barrier.arrive()
                #expect(await channel.connectionCount >= 3)
                #expect(server.server.connectionCount >= 3)
                try await group.waitForAll()
            }
        }
    }

    @Test func callsAfterGoAwayGoToANewConnection() async throws {
        let first = try await TestServer()
        let port = first.port
        let channel = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: port))
        var second: TestServer?
        try await channel.withCall(TestService.fullDuplex) { call in
            let request = T.StreamingOutputCallRequest(responseParameters: [T.ResponseParameters(size: 7)])
            var responses = call.responses(as: T.StreamingOutputCallResponse.self).makeAsyncIterator()
            try await call.send(request)
            #expect(try await responses.next()?.payload == zeros(7))

            // The first server drains: it stops listening and sends GOAWAY; the call goes on.
            let draining = Task { await first.server.shutdown(gracePeriod: .seconds(30)) }
            try await waitUntil { await channel.acceptingConnectionCount == 0 }
            let next = try await TestServer(port: port)
            second = next
            _ = try await channel.unary(TestService.empty, T.Empty(), as: T.Empty.self)
            #expect(next.server.connectionCount == 1)
            #expect(await channel.connectionCount == 2)

            try await call.send(request)
            #expect(try await responses.next()?.payload == zeros(7))
            call.finishSending()
            #expect(try await responses.next() == nil)
            await draining.value
        }
        await channel.close()
        await second?.stop()
        await first.stop()
    }

    @Test func callOverTLSWithHostnameVerification() async throws {
        let material = try TLSMaterial.make()
        defer { material.remove() }
        let server = try await TestServer {
            $0.tls = HTTP2ServerConfiguration.TLS(certificateChainPath: material.certificatePath, privateKeyPath: material.keyPath)
        }
        defer { Task { await server.stop() } }

        let tls = try HTTP2ClientTLS(trust: .certificateFile(material.certificatePath), serverHostname: "localhost")
        let channel = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: server.port, tls: tls))
        let response = try await channel.unary(
            TestService.unary, T.SimpleRequest(responseSize: 100_000, payload: zeros(50_000)), as: T.SimpleResponse.self)
        #expect(response.message.payload == zeros(100_000))
        await channel.close()

        // A name the certificate does not carry is refused (the fixed certificate also names
        // 127.0.0.1, which NIOSSL accepts for any name: checked only with a generated one).
        guard material.generated else { return }
        let wrongName = try HTTP2ClientTLS(trust: .certificateFile(material.certificatePath), serverHostname: "example.com")
        let refused = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: server.port, tls: wrongName))
        await expectStatus(.unavailable) { _ = try await refused.unary(TestService.empty, T.Empty(), as: T.Empty.self) }
        await refused.close()

        // So is a certificate no trusted authority signed.
        let untrusted = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: server.port, tls: try HTTP2ClientTLS(serverHostname: "localhost")))
        await expectStatus(.unavailable) { _ = try await untrusted.unary(TestService.empty, T.Empty(), as: T.Empty.self) }
        await untrusted.close()
    }

    @Test func reconnectsAfterTheServerRestarts() async throws {
        var server = try await TestServer()
        let port = server.port
        var configuration = GRPCChannel.Configuration()
        configuration.backoff = ConnectionBackoff(initial: .milliseconds(50), maximum: .milliseconds(200))
        let channel = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: port), configuration: configuration)
        _ = try await channel.unary(TestService.empty, T.Empty(), as: T.Empty.self)

        await server.stop()
        // The server is gone: calls fail at once, UNAVAILABLE.
        await expectStatus(.unavailable) { _ = try await channel.unary(TestService.empty, T.Empty(), as: T.Empty.self) }
        await expectStatus(.unavailable) { _ = try await channel.unary(TestService.empty, T.Empty(), as: T.Empty.self) }

        server = try await TestServer(port: port)
        // A call that waits for ready rides the next connection attempt; later calls succeed.
        _ = try await channel.unary(TestService.empty, T.Empty(), as: T.Empty.self, options: CallOptions(waitForReady: true))
        _ = try await channel.unary(TestService.empty, T.Empty(), as: T.Empty.self)
        #expect(await channel.connectionCount == 1)
        await channel.close()
        await server.stop()
    }

    /// A channel to a port nothing listens on (a server started and stopped), retrying quickly.
    private func channelToNowhere() async throws -> GRPCChannel {
        let server = try await TestServer()
        let port = server.port
        await server.stop()
        var configuration = GRPCChannel.Configuration()
        configuration.backoff = ConnectionBackoff(initial: .milliseconds(20), maximum: .milliseconds(40))
        return GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: port), configuration: configuration)
    }

    @Test func waitingForReadyEndsAtTheDeadline() async throws {
        let channel = try await channelToNowhere()
        await expectStatus(.deadlineExceeded) {
            _ = try await channel.unary(
                TestService.empty, T.Empty(), as: T.Empty.self, options: CallOptions(timeout: .milliseconds(300), waitForReady: true))
        }
        await channel.close()
    }

    /// `unaryBlocking` from plain threads (as the store's writer threads call etcd): answers on
    /// many threads at once over one channel, a refusal on the channel's own event loop, and a wait
    /// that ends at the call's deadline.
    @Test func blockingUnaryCallsFromPlainThreads() async throws {
        try await withServerAndChannel { _, channel in
            let matched = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
                DispatchQueue.global().async {
                    let count = Mutex(0)
                    DispatchQueue.concurrentPerform(iterations: 8) { thread in
                        for index in 0 ..< 40 {
                            let size = (thread * 40 + index) % 11
                            let response = try? channel.unaryBlocking(
                                TestService.unary, T.SimpleRequest(responseSize: Int32(size), payload: zeros(3)), as: T.SimpleResponse.self,
                                options: CallOptions(timeout: .seconds(10)))
                            if response?.message.payload?.body.count == size { count.withLock { $0 += 1 } }
                        }
                    }
                    done.resume(returning: count.withLock { $0 })
                }
            }
            #expect(matched == 8 * 40)
            // On the channel's own event loop the call would wait for itself: refused at once.
            let onLoop = try await channel.eventLoop.submit { () -> StatusCode? in
                do {
                    _ = try channel.unaryBlocking(TestService.empty, T.Empty(), as: T.Empty.self)
                    return nil
                } catch {
                    return (error as? RPCError)?.code
                }
            }.get()
            #expect(onLoop == .internalError)
        }
        let channel = try await channelToNowhere()
        let failure = await withCheckedContinuation { (done: CheckedContinuation<(any Error)?, Never>) in
            Thread.detachNewThread {
                do {
                    _ = try channel.unaryBlocking(
                        TestService.empty, T.Empty(), as: T.Empty.self, options: CallOptions(timeout: .milliseconds(300), waitForReady: true))
                    done.resume(returning: nil)
                } catch {
                    done.resume(returning: error)
                }
            }
        }
        #expect((failure as? RPCError)?.code == .deadlineExceeded, "\(String(describing: failure))")
        await channel.close()
    }

    @Test func cancellingTheTaskResetsTheStream() async throws {
        try await withServerAndChannel { _, channel in
            let started = Barrier(count: 2)
            let task = Task {
                // One response, then one a minute later: the task is cancelled in between.
                let request = T.StreamingOutputCallRequest(responseParameters: [
                    T.ResponseParameters(size: 1), T.ResponseParameters(size: 1, intervalUs: 60_000_000),
                ])
                try await channel.serverStreaming(TestService.streamingOutput, request) { call in
                    for try await _ in call.responses { await started.arrive() }
                }
            }
            await started.arrive()
            task.cancel()
            let result = await task.result
            #expect(throws: RPCError.self) { try result.get() }
            if case .failure(let error as RPCError) = result { #expect(error.code == .cancelled) }
            // The connection serves on.
            _ = try await channel.unary(TestService.empty, T.Empty(), as: T.Empty.self)
        }
    }

    @Test func aConnectionWhosePingGoesUnansweredIsClosed() async throws {
        // A peer that sends its SETTINGS and then nothing: it never acknowledges a PING.
        let silent = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(SilentHTTP2Peer())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        var configuration = GRPCChannel.Configuration()
        configuration.http2.keepAliveInterval = .milliseconds(50)
        configuration.http2.keepAliveTimeout = .milliseconds(100)
        let channel = GRPCChannel(
            target: GRPCTarget(host: "127.0.0.1", port: try #require(silent.localAddress?.port)), configuration: configuration)
        // The call is never answered; the keepalive ends it.
        let error = await expectStatus(.unavailable) {
            _ = try await channel.unary(TestService.empty, T.Empty(), as: T.Empty.self)
        }
        #expect(error?.message.contains("connection closed") == true)
        await channel.close()
        try await silent.close()
    }

    @Test func errorDetailsReachTheCaller() async throws {
        try await withServerAndChannel { _, channel in
            let error = await expectStatus(.invalidArgument) {
                _ = try await channel.unary("/test.Details/Fail", T.Empty(), as: T.Empty.self)
            }
            #expect(error?.message == "two fields are wrong")
            #expect(error?.errorInfo == GoogleRPC.ErrorInfo(reason: "BAD_FIELDS", domain: "test.souk", metadata: ["count": "2"]))
            #expect(error?.fieldViolations == [
                FieldViolation(field: "name", description: "must not be empty"),
                FieldViolation(field: "items[1].quantity", description: "must be positive"),
            ])
            #expect(error?.retryDelay == .seconds(3))
            #expect(error?.localizedMessage == GoogleRPC.LocalizedMessage(locale: "en", message: "Please check the form."))
            #expect(error?.trailers["x-request-id"] == "r-1")
        }
    }

    @Test func rawBytesCallAnyMethodByName() async throws {
        try await withServerAndChannel { _, channel in
            let request = ByteBuffer(bytes: T.SimpleRequest(responseSize: 3).encoded())
            let response = try await channel.unary("grpc.testing.TestService/UnaryCall", request: request)
            let decoded = try T.SimpleResponse(decoding: Array(response.message.readableBytesView))
            #expect(decoded.payload == zeros(3))
        }
    }

    @Test func backoffFollowsTheConnectionBackoffDocument() {
        var delays = ConnectionBackoff().delays()
        func close(_ a: Duration, _ b: Duration) -> Bool { abs((a - b) / .microseconds(1)) < 1 }
        // The first retry after INITIAL_BACKOFF; then ×1.6 with ±20 % jitter, capped at 120 s.
        #expect(delays.next(random: 1) == .seconds(1))
        #expect(close(delays.next(random: 0), .milliseconds(1600)))
        #expect(close(delays.next(random: 1), .milliseconds(3072)))
        #expect(close(delays.next(random: -1), .microseconds(3_276_800)))
        for _ in 0 ..< 20 { _ = delays.next(random: 0) }
        #expect(close(delays.next(random: 0), .seconds(120)))
        #expect(close(delays.next(random: 1), .seconds(144)))
    }
}

/// Sends an empty SETTINGS frame when connected and ignores whatever it receives.
final class SilentHTTP2Peer: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelActive(context: ChannelHandlerContext) {
        // Length 0, type SETTINGS (4), no flags, stream 0.
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: [0, 0, 0, 4, 0, 0, 0, 0, 0])), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

/// A self-signed certificate for localhost, made with openssl when it is installed (else a fixed
/// one for localhost and 127.0.0.1), in a temporary directory.
struct TLSMaterial {
    let directory: URL
    /// Made by openssl for the name localhost only (no IP address).
    var generated = false
    var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
    var keyPath: String { directory.appendingPathComponent("key.pem").path }

    static func make() throws -> TLSMaterial {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("souk-client-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var material = TLSMaterial(directory: directory)
        material.generated = material.generate()
        if !material.generated {
            try fixedCertificate.write(toFile: material.certificatePath, atomically: true, encoding: .utf8)
            try fixedKey.write(toFile: material.keyPath, atomically: true, encoding: .utf8)
        }
        return material
    }

    private func generate() -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", keyPath, "-out", certificatePath, "-days", "2", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost", "-addext", "basicConstraints=critical,CA:TRUE",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus == 0
        } catch {
            return false
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static let fixedCertificate = """
        -----BEGIN CERTIFICATE-----
        MIIBmjCCAUGgAwIBAgIUA5vXlIS/Vt8fQaumpFSJMtpbmV4wCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMTIxNTQyM1oYDzIxMjYxMDI4
        MjE1NDIzWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAAQdh2+pWuh0r8ezoLBKEhm2LivOAjXLPBoDF67E+RaGtG7AiCi+bcSs
        vO9Lkhed92BmLEHdMa9n09UFkwGLKTino28wbTAdBgNVHQ4EFgQU0DZsfyzE/9mK
        GnZedk9tIzMiMBQwHwYDVR0jBBgwFoAU0DZsfyzE/9mKGnZedk9tIzMiMBQwDwYD
        VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
        zj0EAwIDRwAwRAIgZfSys5HE/UPkXjhINAt2Yn7oxZH9erd8Qj/0gV8PoO4CICRw
        V69xtEJfUvThCBa2+0GPgEMPVOhGmyG9qglp9tqu
        -----END CERTIFICATE-----

        """
    private static let fixedKey = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgiGgv75RG3y0ROzb+
        B4lxZwqp/ujM8izEPIfbOp53vgahRANCAAQdh2+pWuh0r8ezoLBKEhm2LivOAjXL
        PBoDF67E+RaGtG7AiCi+bcSsvO9Lkhed92BmLEHdMa9n09UFkwGLKTin
        -----END PRIVATE KEY-----

        """
}
