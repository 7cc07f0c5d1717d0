import Logging
import NIOCore
import NIOPosix
@testable import SoukHTTP2
import Testing

/// Starts a server on 127.0.0.1 with a free port, runs `body`, then shuts the server down.
func withServer(
    _ configure: (inout HTTP2ServerConfiguration) -> Void = { _ in },
    _ body: (HTTP2Server, SocketAddress, TestRouter) async throws -> Void
) async throws {
    var configuration = HTTP2ServerConfiguration(host: "127.0.0.1", port: 0)
    // A test's task may wait long for a thread of the busy run's pool between connecting and
    // sending its preface; tests of the handshake timeout set their own.
    configuration.handshakeTimeout = .seconds(120)
    configure(&configuration)
    let router = TestRouter()
    let server = HTTP2Server(
        configuration: configuration,
        router: router,
        logger: Logger(label: "souk.http2.test", factory: { _ in SwiftLogNoOpLogHandler() }),
        group: MultiThreadedEventLoopGroup.singleton
    )
    let address = try await server.start()
    do {
        try await body(server, address, router)
    } catch {
        await server.shutdown(gracePeriod: .zero)
        throw error
    }
    await server.shutdown(gracePeriod: .milliseconds(200))
}

/// Deterministic pseudo-random bytes (xorshift), so large bodies are not trivially repetitive.
func testBytes(count: Int, seed: UInt64) -> [UInt8] {
    var state = seed | 1
    return (0 ..< count).map { _ in
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state)
    }
}

@Suite("HTTP/2 server: requests and responses")
struct HTTP2RequestTests {
    @Test func echoesBodyAndTrailers() async throws {
        try await withServer { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let response = try await client.send(TestRequest(
                path: "/echo",
                headers: [HTTP2Header("x-custom", "abc")],
                body: Array("hello, souk".utf8),
                trailers: [HTTP2Header("x-checksum", "42")]
            ))
            #expect(response.status == "200")
            #expect(response.headers.contains(HTTP2Header("content-type", "application/octet-stream")))
            #expect(response.body == Array("hello, souk".utf8))
            #expect(response.trailer("x-checksum") == "42")
            #expect(response.trailer("x-request-end") == "trailers")
            #expect(response.resetCode == nil)
            try await waitUntil { router.closeReasons.count == 1 }
            #expect(router.closeReasons.values.first == .completed)
            #expect(router.opened == [TestRouter.Opened(path: "/echo", streamID: 1, endStream: false)])
        }
    }

    @Test func routerSeesPseudoHeadersAndCustomHeaders() async throws {
        try await withServer { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            _ = try await client.send(TestRequest(path: "/echo", body: [1]))
            #expect(router.opened.first?.path == "/echo")
        }
    }

    @Test func requestWithoutBodyEndsWithHeaders() async throws {
        try await withServer { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let response = try await client.send(TestRequest(path: "/echo"))
            #expect(response.status == "200")
            #expect(response.body.isEmpty)
            #expect(response.trailer("x-request-end") == "headers")
            #expect(router.opened.first?.endStream == true)
        }
    }

    @Test func bodyWithoutTrailersEndsWithData() async throws {
        try await withServer { _, address, _ in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let response = try await client.send(TestRequest(path: "/echo", body: Array(repeating: 7, count: 100)))
            #expect(response.body == Array(repeating: 7, count: 100))
            #expect(response.trailer("x-request-end") == "data")
        }
    }

    @Test func headersOnlyResponse() async throws {
        try await withServer { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let response = try await client.send(TestRequest(path: "/trailers-only", body: [1, 2, 3]))
            #expect(response.status == "200")
            #expect(response.headers.contains(HTTP2Header("x-only", "1")))
            #expect(response.body.isEmpty)
            #expect(response.trailers.isEmpty)
            #expect(response.resetCode == nil)
            try await waitUntil { router.closeReasons.count == 1 }
            #expect(router.closeReasons.values.first == .completed)
        }
    }

    @Test func fiveMebibyteBodiesFlowBothWays() async throws {
        try await withServer { _, address, _ in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let body = testBytes(count: 5 << 20, seed: 0x5eed)
            let response = try await client.send(TestRequest(path: "/echo", body: body, trailers: [HTTP2Header("x-end", "1")]))
            #expect(response.status == "200")
            #expect(response.body.count == body.count)
            #expect(response.body == body)
            #expect(response.trailer("x-end") == "1")
        }
    }

    @Test func concurrentStreamsOnOneConnection() async throws {
        try await withServer { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let responses = try await withThrowingTaskGroup(of: (Int, TestResponse).self) { group in
                for index in 0 ..< 40 {
                    group.addTask {
                        let body = testBytes(count: 1000 + index * 3000, seed: UInt64(index + 1))
                        return (index, try await client.send(TestRequest(path: "/echo", body: body)))
                    }
                }
                return try await group.reduce(into: [Int: TestResponse]()) { $0[$1.0] = $1.1 }
            }
            for index in 0 ..< 40 {
                #expect(responses[index]?.body == testBytes(count: 1000 + index * 3000, seed: UInt64(index + 1)))
                #expect(responses[index]?.trailer("x-request-end") == "data")
            }
            try await waitUntil { router.closeReasons.count == 40 }
            #expect(router.closeReasons.values.allSatisfy { $0 == .completed })
        }
    }

    /// A DATA frame whose bytes arrive in several TCP writes reaches the handler in parts (each part
    /// handed on when the next arrives); the parts together are the frame's payload, in order.
    @Test func aDataFrameSentInPiecesArrivesWholeAndInOrder() async throws {
        try await withServer { _, address, _ in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            let payload = (0 ..< 12_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
            let frame = RawFrame(type: RawFrame.data, flags: RawFrame.endStream, streamID: 1, payload: payload).bytes
            try await raw.send(Wire.preface + Wire.settings()
                + Wire.headers(streamID: 1, block: Wire.requestBlock(path: "/echo"), endStream: false))
            for start in stride(from: 0, to: frame.count, by: 2_500) {
                try await raw.send(Array(frame[start ..< min(start + 2_500, frame.count)]))
            }
            let snapshot = try await raw.waitFor { snapshot in
                snapshot.frames.contains { $0.streamID == 1 && $0.flags & RawFrame.endStream != 0 }
            }
            let echoed = snapshot.frames.filter { $0.streamID == 1 && $0.type == RawFrame.data }.flatMap(\.payload)
            #expect(echoed == payload)
        }
    }

    @Test func responseBeforeRequestEndsStopsTheClient() async throws {
        try await withServer { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let response = try await client.send(TestRequest(path: "/early", body: testBytes(count: 3 << 20, seed: 9)))
            #expect(response.status == "200")
            #expect(response.body == Array("early".utf8))
            #expect(response.trailer("x-early") == "1")
            #expect(response.resetCode == nil)
            try await waitUntil { router.closeReasons.count == 1 }
            #expect(router.closeReasons.values.first == .completed)
            // The connection is still fine for the next request.
            let next = try await client.send(TestRequest(path: "/echo", body: [1]))
            #expect(next.body == [1])
        }
    }
}

@Suite("HTTP/2 server: stream lifecycle")
struct HTTP2StreamLifecycleTests {
    @Test func clientResetReachesHandler() async throws {
        try await withServer { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let (id, response) = try await client.start(TestRequest(path: "/hold", body: [1]))
            try await waitUntil { router.heldStreamIDs == [id] }
            try await client.reset(streamID: id, errorCode: 8)
            try await waitUntil { router.closeReasons[id] != nil }
            #expect(router.closeReasons[id] == .resetByPeer(errorCode: 8))
            #expect(try await response.get().resetCode == 8)
        }
    }

    @Test func writesFailOnceTheStreamClosed() async throws {
        try await withServer { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let (id, _) = try await client.start(TestRequest(path: "/hold"))
            try await waitUntil { router.heldStreamIDs == [id] }
            let stream = try #require(router.heldStream(id))
            try await client.reset(streamID: id, errorCode: 8)
            try await waitUntil { router.closeReasons[id] != nil }

            // Every call after close is ignored; a write's promise fails.
            let result = try await stream.eventLoop.flatSubmit {
                stream.value.sendHeaders([HTTP2Header(":status", "200")], endStream: false)
                let promise = stream.eventLoop.makePromise(of: Void.self)
                stream.value.sendData(ByteBuffer(string: "late"), promise: promise)
                stream.value.sendTrailers([])
                stream.value.reset(errorCode: 2)
                return promise.futureResult
            }.map { Result<Void, any Error>.success(()) }.flatMapErrorThrowing { .failure($0) }.get()
            #expect(throws: HTTP2StreamWriteError.streamClosed) { try result.get() }
        }
    }

    @Test func pendingWriteFailsWhenConnectionCloses() async throws {
        try await withServer { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            let (id, _) = try await client.start(TestRequest(path: "/hold"))
            try await waitUntil { router.heldStreamIDs == [id] }
            await client.close()
            try await waitUntil { router.closeReasons[id] != nil }
            #expect(router.closeReasons[id] == .connectionClosed)
            let write = await router.writeToHeld(id)
            #expect(throws: HTTP2StreamWriteError.streamClosed) { try write.get() }
        }
    }

    @Test func serverResetReachesClient() async throws {
        try await withServer { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let response = try await client.send(TestRequest(path: "/reset", body: [1]))
            #expect(response.resetCode == 2)
            #expect(response.status == nil)
            try await waitUntil { router.closeReasons.count == 1 }
            #expect(router.closeReasons.values.first == .resetByPeer(errorCode: 2))
        }
    }

    @Test func heldStreamAnsweredLater() async throws {
        try await withServer { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let (id, response) = try await client.start(TestRequest(path: "/hold"))
            try await waitUntil { router.heldStreamIDs == [id] }
            router.answerHeld(body: "later")
            let answer = try await response.get()
            #expect(answer.status == "200")
            #expect(answer.body == Array("later".utf8))
            #expect(answer.trailer("x-held") == "done")
        }
    }
}

@Suite("HTTP/2 server: limits and hostile clients")
struct HTTP2LimitTests {
    @Test func oversizedHeaderListIsRefusedAndNeverRouted() async throws {
        try await withServer({ $0.maxHeaderListSize = 4096 }) { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            let big = String(repeating: "x", count: 5000)
            let refused = try await client.send(TestRequest(path: "/echo", headers: [HTTP2Header("x-big", big)], body: [1, 2]))
            #expect(refused.status == "431")
            #expect(refused.body.isEmpty)
            #expect(router.opened.isEmpty)
            // Within the limit, the same connection still serves requests.
            let fine = try await client.send(TestRequest(path: "/echo", headers: [HTTP2Header("x-small", "y")], body: [3]))
            #expect(fine.status == "200")
            #expect(fine.body == [3])
            #expect(router.opened.map(\.path) == ["/echo"])
        }
    }

    @Test func oversizedHeaderListAcrossContinuationFrames() async throws {
        try await withServer({ $0.maxHeaderListSize = 16 * 1024 }) { _, address, router in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            let block = Wire.requestBlock(path: "/echo", extra: [("x-big", String(repeating: "b", count: 20_000))])
            let cut = 10_000
            await raw.trySend(Wire.preface + Wire.settings()
                + Wire.headers(streamID: 1, block: Array(block[..<cut]), endStream: true, endHeaders: false)
                + Wire.continuation(streamID: 1, block: Array(block[cut...]), endHeaders: true))
            let seen = try await raw.waitFor { $0.frames.contains { $0.type == RawFrame.headers && $0.streamID == 1 } }
            #expect(router.opened.isEmpty)
            #expect(!seen.frames.contains { $0.type == RawFrame.goAway })
            let response = try #require(seen.frames.first { $0.type == RawFrame.headers && $0.streamID == 1 })
            #expect(response.flags & RawFrame.endStream != 0)
        }
    }

    @Test func streamsBeyondMaxConcurrentAreRefused() async throws {
        try await withServer({ $0.maxConcurrentStreams = 3 }) { _, address, router in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            var bytes = Wire.preface + Wire.settings()
            for id in stride(from: UInt32(1), through: 9, by: 2) {
                bytes += Wire.headers(streamID: id, block: Wire.requestBlock(path: "/hold"), endStream: true)
            }
            await raw.trySend(bytes)
            let seen = try await raw.waitFor { snapshot in
                snapshot.frames.filter { $0.type == RawFrame.rstStream }.count >= 2
            }
            let resets = seen.frames.filter { $0.type == RawFrame.rstStream }
            #expect(resets.map(\.streamID) == [7, 9])
            #expect(resets.allSatisfy { $0.errorCode == 7 })  // REFUSED_STREAM
            try await waitUntil { router.opened.count == 3 }
            #expect(router.opened.map(\.streamID) == [1, 3, 5])
        }
    }

    /// The preface, then thirty streams to `path` (ids 1 to 59), each reset by the client right
    /// after it opened.
    private func openedThenReset(path: String) -> [UInt8] {
        var bytes = Wire.preface + Wire.settings()
        for id in stride(from: UInt32(1), through: 59, by: 2) {
            bytes += Wire.headers(streamID: id, block: Wire.requestBlock(path: path), endStream: false)
            bytes += Wire.rstStream(streamID: id, errorCode: 8)
        }
        return bytes
    }

    @Test func rapidResetGetsGoAwayEnhanceYourCalm() async throws {
        try await withServer({ $0.maxStreamResets = 10 }) { _, address, router in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            await raw.trySend(openedThenReset(path: "/hold"))
            let seen = try await raw.waitFor { $0.closed }
            let goAway = try #require(seen.frames.first { $0.type == RawFrame.goAway })
            #expect(goAway.errorCode == 0xb)  // ENHANCE_YOUR_CALM
            #expect(router.opened.count <= 11)
        }
    }

    @Test func resetsOfAnsweredStreamsDoNotCountAgainstTheBudget() async throws {
        try await withServer({ $0.maxStreamResets = 10 }) { _, address, router in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            // Thirty streams the server has answered (`/echo` sends its headers at once), each
            // then closed by the client, as a client closes the watches it stops reading.
            var bytes = openedThenReset(path: "/echo")
            bytes += Wire.headers(streamID: 61, block: Wire.requestBlock(path: "/trailers-only"), endStream: true)
            await raw.trySend(bytes)
            let seen = try await raw.waitFor { snapshot in
                snapshot.closed || snapshot.frames.contains { $0.type == RawFrame.headers && $0.streamID == 61 }
            }
            #expect(!seen.closed)
            #expect(!seen.frames.contains { $0.type == RawFrame.goAway })
            #expect(router.opened.count == 31)
        }
    }

    @Test func resetsWithinTheBudgetAreFine() async throws {
        try await withServer({ $0.maxStreamResets = 10 }) { _, address, router in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            for _ in 0 ..< 10 {
                let (id, response) = try await client.start(TestRequest(path: "/hold"))
                try await waitUntil { router.heldStreamIDs.contains(id) }
                try await client.reset(streamID: id, errorCode: 8)
                _ = try await response.get()
            }
            let response = try await client.send(TestRequest(path: "/echo", body: [5]))
            #expect(response.body == [5])
            #expect(try await client.goAwayCodes().isEmpty)
        }
    }

    @Test func bytesThatAreNeitherHTTP2NorHTTP1CloseTheConnection() async throws {
        try await withServer { _, address, router in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            // A TLS ClientHello's first bytes on the cleartext port.
            await raw.trySend([0x16, 0x03, 0x01, 0x00, 0xF1, 0x01, 0x00, 0x00, 0xED] + Array("\r\n\r\n".utf8))
            try await raw.waitFor { $0.closed }
            #expect(router.opened.isEmpty)
        }
    }

    @Test func anHTTP1RequestIsRoutedAsAStream() async throws {
        try await withServer { _, address, router in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            await raw.trySend(Array("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\nhi".utf8))
            try await waitUntil { router.opened.count == 1 }
            #expect(router.opened == [TestRouter.Opened(path: "/echo", streamID: 1, endStream: false)])
        }
    }

    @Test func unfinishedPrefaceIsClosedAfterHandshakeTimeout() async throws {
        try await withServer({ $0.handshakeTimeout = .milliseconds(200) }) { _, address, router in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            await raw.trySend(Array(Wire.preface.prefix(10)))
            try await raw.waitFor { $0.closed }
            #expect(router.opened.isEmpty)
        }
    }

    @Test func silentConnectionIsClosedAfterHandshakeTimeout() async throws {
        try await withServer({ $0.handshakeTimeout = .milliseconds(200) }) { server, address, _ in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            try await raw.waitFor { $0.closed }
            try await waitUntil { server.connectionCount == 0 }
        }
    }

    @Test func completedHandshakeIsNotClosedByHandshakeTimeout() async throws {
        try await withServer({ $0.handshakeTimeout = .milliseconds(100) }) { _, address, _ in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            _ = try await client.send(TestRequest(path: "/echo", body: [1]))
            try await Task.sleep(for: .milliseconds(300))
            let response = try await client.send(TestRequest(path: "/echo", body: [2]))
            #expect(response.body == [2])
        }
    }

    @Test func idleConnectionGetsGoAwayAndIsClosed() async throws {
        try await withServer({ $0.idleTimeout = .milliseconds(200) }) { server, address, _ in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            await raw.trySend(Wire.preface + Wire.settings())
            let seen = try await raw.waitFor { $0.closed }
            let goAway = try #require(seen.frames.first { $0.type == RawFrame.goAway })
            #expect(goAway.errorCode == 0)
            try await waitUntil { server.connectionCount == 0 }
        }
    }

    @Test func anHTTP1ConnectionIsClosedWhenIdleButNotWhileARequestIsServed() async throws {
        try await withServer({ $0.idleTimeout = .milliseconds(200) }) { _, address, router in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            await raw.trySend(Array("GET /hold HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
            try await waitUntil { router.heldStreamIDs.count == 1 }
            // Three timeouts long, the request unanswered: the connection is busy, not idle.
            try await Task.sleep(for: .milliseconds(600))
            #expect(try await !raw.waitFor { _ in true }.closed)
            router.answerHeld(body: "done")
            _ = try await raw.waitFor { $0.closed }
        }
    }

    @Test func connectionsBeyondTheLimitAreClosed() async throws {
        try await withServer({ $0.maxConnections = 1 }) { server, address, _ in
            let client = try await TestHTTP2Client.connect(to: address)
            defer { Task { await client.close() } }
            _ = try await client.send(TestRequest(path: "/echo", body: [1]))
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            let seen = try await raw.waitFor { $0.closed }
            #expect(seen.frames.isEmpty)
            #expect(server.connectionCount == 1)
            let response = try await client.send(TestRequest(path: "/echo", body: [2]))
            #expect(response.body == [2])
        }
    }
}

@Suite("HTTP/2 server: shutdown")
struct HTTP2ShutdownTests {
    @Test func gracefulShutdownFinishesInFlightStreamAndRefusesNewConnections() async throws {
        let router = TestRouter()
        let server = HTTP2Server(
            configuration: HTTP2ServerConfiguration(host: "127.0.0.1", port: 0),
            router: router,
            logger: Logger(label: "souk.http2.test", factory: { _ in SwiftLogNoOpLogHandler() }),
            group: MultiThreadedEventLoopGroup.singleton
        )
        let address = try await server.start()
        let client = try await TestHTTP2Client.connect(to: address)
        defer { Task { await client.close() } }
        let (id, response) = try await client.start(TestRequest(path: "/hold", body: [1]))
        try await waitUntil { router.heldStreamIDs == [id] }

        let shutdown = Task { await server.shutdown(gracePeriod: .seconds(30)) }
        #expect(try await waitForGoAway(client))
        #expect(server.isDraining)
        await #expect(throws: (any Error).self) { _ = try await RawHTTP2Connection.connect(to: address) }

        router.answerHeld(body: "finished")
        let answer = try await response.get()
        #expect(answer.status == "200")
        #expect(answer.body == Array("finished".utf8))
        #expect(answer.trailer("x-held") == "done")

        await shutdown.value
        #expect(server.connectionCount == 0)
        try await waitUntil { client.isClosed }
        #expect(try await client.goAwayCodes().allSatisfy { $0 == 0 })
    }

    @Test func shutdownClosesConnectionsAfterTheGracePeriod() async throws {
        let router = TestRouter()
        let server = HTTP2Server(
            configuration: HTTP2ServerConfiguration(host: "127.0.0.1", port: 0),
            router: router,
            logger: Logger(label: "souk.http2.test", factory: { _ in SwiftLogNoOpLogHandler() }),
            group: MultiThreadedEventLoopGroup.singleton
        )
        let address = try await server.start()
        let client = try await TestHTTP2Client.connect(to: address)
        defer { Task { await client.close() } }
        let (id, response) = try await client.start(TestRequest(path: "/hold"))
        try await waitUntil { router.heldStreamIDs == [id] }

        await server.shutdown(gracePeriod: .milliseconds(300))
        #expect(server.connectionCount == 0)
        try await waitUntil { router.closeReasons[id] != nil }
        #expect(router.closeReasons[id] == .connectionClosed)
        await #expect(throws: ConnectionClosed.self) { _ = try await response.get() }
    }

    @Test func shutdownWithoutConnectionsReturns() async throws {
        try await withServer { server, _, _ in
            #expect(!server.isDraining)
            #expect(server.connectionCount == 0)
        }
    }

    private func waitForGoAway(_ client: TestHTTP2Client) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try await !client.goAwayCodes().isEmpty { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return false
    }
}

@Suite("HTTP/2 server: flow control")
struct HTTP2FlowControlTests {
    @Test func writePromiseWaitsForTheClientsWindow() async throws {
        try await withServer { _, address, router in
            let raw = try await RawHTTP2Connection.connect(to: address)
            defer { Task { await raw.close() } }
            // SETTINGS_INITIAL_WINDOW_SIZE = 0: the server may not send any DATA on new streams yet.
            await raw.trySend(Wire.preface + Wire.settings([(0x4, 0)])
                + Wire.headers(streamID: 1, block: Wire.requestBlock(path: "/hold"), endStream: true))
            try await waitUntil { router.heldStreamIDs == [1] }

            let probe = router.startAnswer(toHeld: 1, count: 1000)
            // The response HEADERS went out in the same flush that found no window for the DATA.
            try await raw.waitFor { $0.frames.contains { $0.type == RawFrame.headers && $0.streamID == 1 } }
            #expect(probe.outcome == nil)
            #expect(!raw.snapshot.frames.contains { $0.type == RawFrame.data })

            await raw.trySend(RawFrame(
                type: RawFrame.windowUpdate, flags: 0, streamID: 1,
                payload: withUnsafeBytes(of: UInt32(1000).bigEndian, Array.init)).bytes)
            let seen = try await raw.waitFor { $0.frames.contains { $0.type == RawFrame.data && $0.streamID == 1 } }
            #expect(seen.frames.first { $0.type == RawFrame.data }?.payload == Array(repeating: 0x61, count: 1000))
            try await waitUntil { probe.outcome != nil }
            #expect(probe.succeeded)
        }
    }
}

@Suite("StreamResetBudget")
struct StreamResetBudgetTests {
    @Test func allowsTheLimitPerWindowAndStartsOverInTheNextWindow() {
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        var budget = StreamResetBudget(limit: 3, window: .seconds(10), now: start)
        let offsets: [Int64] = [0, 1, 9, 9, 10, 11]
        let allowed = offsets.map { budget.recordReset(now: start + .seconds($0)) }
        #expect(allowed == [true, true, true, false, true, true])
    }
}
