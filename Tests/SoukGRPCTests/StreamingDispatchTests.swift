import NIOCore
import SoukHTTP2
import Testing

@testable import SoukGRPC

@Suite struct StreamingDispatchTests {
    static func router(
        journal: Journal = Journal(),
        interceptors: [any ServerInterceptor] = [],
        configuration: GRPCRouter.Configuration = GRPCRouter.Configuration()
    ) -> GRPCRouter {
        let methods: [RPCMethod] = [
            .serverStreaming("Count") { (request: RawMessage, writer: RPCWriter<RawMessage>, _: ServerContext) in
                for index in 0..<Int(request.bytes.first ?? 0) {
                    try await writer.write(RawMessage([UInt8(index)]))
                    journal.add("wrote \(index)")
                }
            },
            .clientStreaming("Sum") { (requests: RPCReader<RawMessage>, _: ServerContext) in
                var total = 0
                for try await request in requests { total += request.bytes.reduce(0) { $0 + Int($1) } }
                return RawMessage([UInt8(total)])
            },
            .clientStreaming("First") { (requests: RPCReader<RawMessage>, _: ServerContext) in
                for try await request in requests { return request }
                return RawMessage([])
            },
            .bidirectionalStreaming("Echo") { (requests: RPCReader<RawMessage>, writer: RPCWriter<RawMessage>, _: ServerContext) in
                for try await request in requests {
                    journal.add("got \(request.bytes)")
                    try await writer.write(request)
                }
            },
            RPCMethod(name: "Sleep", handler: .unary { bytes, _ in
                journal.add("started")
                do {
                    try await Task.sleep(for: .seconds(3600))
                } catch {
                    journal.add("cancelled")
                    throw error
                }
                return bytes
            }),
            RPCMethod(name: "SleepStreaming", handler: .bidirectionalStreaming { requests, writer, _ in
                journal.add("started")
                do {
                    for try await _ in requests {}
                } catch {
                    journal.add("reader failed: \(error)")
                    throw error
                }
            }),
        ]
        return GRPCRouter(
            services: [TestService(methods: methods)], interceptors: interceptors, configuration: configuration,
            logger: quietLogger)
    }

    @Test(arguments: HandlerPlacements.all)
    func serverStreamingSendsEveryMessage(handlers: HandlerPlacements) async throws {
        let driver = CallDriver(router: Self.router(configuration: .init(handlers: handlers.placement)))
        let events = try await driver.unary(path: "/souk.test.Test/Count", request: [3])
        #expect(events.count == 5)
        #expect(events.first == .headers(ResponseHeaders.plain, endStream: false))
        #expect(try messages(in: events) == [[0], [1], [2]])
        #expect(events.last == .trailers([HTTP2Header("grpc-status", "0")]))
    }

    @Test func serverStreamingWithoutMessagesIsTrailersOnly() async throws {
        let driver = CallDriver(router: Self.router())
        let events = try await driver.unary(path: "/souk.test.Test/Count", request: [0])
        #expect(events.count == 1)
        #expect(events[0].endsStream)
        #expect(events[0].headerBlock?["grpc-status"] == "0")
    }

    @Test func writesWaitForTheTransport() async throws {
        let journal = Journal()
        let driver = CallDriver(router: Self.router(journal: journal))
        driver.stream.holdData(true)
        try await driver.open(path: "/souk.test.Test/Count")
        try await driver.send(messages: [[2]])
        await driver.stream.waitForEvents(2)  // headers and the first message
        // The transport has not taken the first message yet, so the handler is still in write().
        #expect(journal.all.isEmpty)
        driver.stream.holdData(false)
        await journal.wait(for: "wrote 0")
        await journal.wait(for: "wrote 1")
        let events = await driver.stream.waitForEnd()
        #expect(try messages(in: events) == [[0], [1]])
    }

    @Test func clientStreamingReadsEveryMessage() async throws {
        let driver = CallDriver(router: Self.router())
        try await driver.open(path: "/souk.test.Test/Sum")
        try await driver.send(messages: [[1, 2], [3], [], [4]])
        let events = await driver.stream.waitForEnd()
        #expect(try messages(in: events) == [[10]])
        #expect(events.last == .trailers([HTTP2Header("grpc-status", "0")]))
    }

    @Test func clientStreamingWithHeadersOnlyRequest() async throws {
        let driver = CallDriver(router: Self.router())
        try await driver.open(path: "/souk.test.Test/Sum", endStream: true)
        let events = await driver.stream.waitForEnd()
        #expect(try messages(in: events) == [[0]])
    }

    @Test func answeringBeforeTheClientFinishes() async throws {
        let driver = CallDriver(router: Self.router())
        try await driver.open(path: "/souk.test.Test/First")
        try await driver.send(frame([9]))
        let events = await driver.stream.waitForEnd()
        #expect(try messages(in: events) == [[9]])
        // No RST_STREAM after the status (see GRPCStreamHandler.complete).
        #expect(events.last == .trailers([HTTP2Header("grpc-status", "0")]))
        // Data the client still sends is ignored.
        try await driver.send(frame([1]), endStream: true)
        #expect(driver.stream.events.count == events.count)
    }

    @Test(arguments: HandlerPlacements.all)
    func bidirectionalStreamingEchoesInOrder(handlers: HandlerPlacements) async throws {
        let journal = Journal()
        let driver = CallDriver(router: Self.router(journal: journal, configuration: .init(handlers: handlers.placement)))
        try await driver.open(path: "/souk.test.Test/Echo")
        for index in 0..<5 {
            try await driver.send(frame([UInt8(index)]))
            // Each reply arrives before the next request is sent: the call is truly interactive.
            await driver.stream.waitForEvents(index + 2)
        }
        try await driver.send([], endStream: true)
        let events = await driver.stream.waitForEnd()
        #expect(try messages(in: events) == (0..<5).map { [UInt8($0)] })
        #expect(events.last == .trailers([HTTP2Header("grpc-status", "0")]))
    }

    @Test func oversizedMessageInAStreamEndsTheCall() async throws {
        let journal = Journal()
        let router = Self.router(journal: journal, configuration: .init(maxReceiveMessageSize: 8))
        let driver = CallDriver(router: router)
        try await driver.open(path: "/souk.test.Test/SleepStreaming")
        await journal.wait(for: "started")
        try await driver.send(frame([UInt8](repeating: 0, count: 9)))
        let events = await driver.stream.waitForEnd()
        #expect(events.count == 1)
        #expect(events.first?.headerBlock?["grpc-status"] == "8")
        await journal.wait(for: "reader failed: RESOURCE_EXHAUSTED: received message larger than max (9 vs. 8)")
    }

    @Test(arguments: HandlerPlacements.all)
    func clientResetCancelsTheHandlerAndSendsNothing(handlers: HandlerPlacements) async throws {
        let journal = Journal()
        let driver = CallDriver(router: Self.router(journal: journal, configuration: .init(handlers: handlers.placement)))
        try await driver.open(path: "/souk.test.Test/Sleep")
        try await driver.send(messages: [[1]])
        await journal.wait(for: "started")
        try await driver.close(.resetByPeer(errorCode: 8))
        await journal.wait(for: "cancelled")
        // Let the cancelled task finish and hop back to the loop; nothing may be sent.
        await driver.loop.run()
        try await driver.loop.executeInContext {}
        #expect(driver.stream.events.isEmpty)
    }

    @Test func connectionCloseFailsTheReader() async throws {
        let journal = Journal()
        let driver = CallDriver(router: Self.router(journal: journal))
        try await driver.open(path: "/souk.test.Test/SleepStreaming")
        await journal.wait(for: "started")
        try await driver.close(.connectionClosed)
        await journal.wait(for: "reader failed: CANCELLED: the connection closed")
        #expect(driver.stream.events.isEmpty)
    }

    @Test(arguments: HandlerPlacements.all)
    func deadlineCancelsTheHandlerAndSendsDeadlineExceeded(handlers: HandlerPlacements) async throws {
        let journal = Journal()
        let outcomes = Journal()
        let driver = CallDriver(router: Self.router(
            journal: journal, interceptors: [OutcomeRecorder(journal: outcomes)],
            configuration: .init(handlers: handlers.placement)))
        try await driver.open(path: "/souk.test.Test/Sleep", extra: [HTTP2Header("grpc-timeout", "2S")])
        try await driver.send(messages: [[1]])
        await journal.wait(for: "started")
        await driver.loop.advanceTime(by: .seconds(1))
        #expect(driver.stream.events.isEmpty)
        await driver.loop.advanceTime(by: .seconds(1))
        let events = await driver.stream.waitForEnd()
        #expect(events.count == 1)
        #expect(events[0].headerBlock?["grpc-status"] == "4")
        await journal.wait(for: "cancelled")
        // The interceptors see the status the client got.
        await outcomes.wait(for: "DEADLINE_EXCEEDED")
    }

    @Test func deadlineReleasesAWriteHeldByFlowControl() async throws {
        let journal = Journal()
        let outcomes = Journal()
        let driver = CallDriver(router: Self.router(journal: journal, interceptors: [OutcomeRecorder(journal: outcomes)]))
        driver.stream.holdData(true)
        try await driver.open(path: "/souk.test.Test/Count", extra: [HTTP2Header("grpc-timeout", "5S")])
        try await driver.send(messages: [[3]])
        await driver.stream.waitForEvents(2)  // headers and the first message, whose write is held
        await driver.loop.advanceTime(by: .seconds(5))
        let events = await driver.stream.waitForEnd()
        #expect(events.last?.headerBlock?["grpc-status"] == "4")
        await outcomes.wait(for: "DEADLINE_EXCEEDED")
        #expect(journal.all.isEmpty)
    }

    @Test func zeroTimeoutIsAlreadyExceeded() async throws {
        let journal = Journal()
        let driver = CallDriver(router: Self.router(journal: journal))
        try await driver.open(path: "/souk.test.Test/Sleep", extra: [HTTP2Header("grpc-timeout", "0m")])
        let events = await driver.stream.waitForEnd()
        #expect(events.count == 1)
        #expect(events.first?.headerBlock?["grpc-status"] == "4")
        try await driver.send(messages: [[1]])
        #expect(driver.stream.events.count == 1)
        #expect(journal.all.isEmpty)
    }

    @Test func deadlineWhileTheRequestIsStillOpen() async throws {
        let journal = Journal()
        let driver = CallDriver(router: Self.router(journal: journal))
        try await driver.open(path: "/souk.test.Test/SleepStreaming", extra: [HTTP2Header("grpc-timeout", "100m")])
        await journal.wait(for: "started")
        await driver.loop.advanceTime(by: .milliseconds(100))
        let events = await driver.stream.waitForEnd()
        #expect(events.count == 1)
        #expect(events.first?.headerBlock?["grpc-status"] == "4")
        await journal.wait(for: "reader failed: DEADLINE_EXCEEDED: deadline exceeded")
    }
}

/// Records each call's outcome status name.
struct OutcomeRecorder: ServerInterceptor {
    let journal: Journal

    func callEnded(_ context: ServerContext, status: RPCError?) {
        journal.add(status?.code.description ?? "OK")
    }
}
