import NIOConcurrencyHelpers
import NIOCore
import SoukHTTP2
import Testing

@testable import SoukGRPC

@Suite struct UnaryDispatchTests {
    /// `Echo` answers with the request's bytes; `Fail` throws the RPCError its request names.
    static func router(
        configuration: GRPCRouter.Configuration = GRPCRouter.Configuration(),
        interceptors: [any ServerInterceptor] = [],
        extraMethods: [RPCMethod] = []
    ) -> GRPCRouter {
        let methods: [RPCMethod] = [
            .unary("Echo") { (request: RawMessage, _: ServerContext) in request },
            .unary("Metadata") { (request: RawMessage, context: ServerContext) in
                var headers = Metadata()
                headers.add("x-served-by", "souk")
                headers.add("x-client", context.requestMetadata["x-client"] ?? "none")
                context.responseHeaders = headers
                var trailers = Metadata()
                trailers.add("x-trailer", "done")
                trailers.add("cost-bin", bytes: [1, 2, 3])
                context.responseTrailers = trailers
                return request
            },
            .unary("NotFound") { (_: RawMessage, _: ServerContext) -> RawMessage in
                throw RPCError(.notFound, "no such order: 42% done\n")
            },
            .unary("Crash") { (_: RawMessage, _: ServerContext) -> RawMessage in
                struct SecretError: Error { var password = "hunter2" }
                throw SecretError()
            },
        ]
        return GRPCRouter(
            services: [TestService(methods: methods + extraMethods)],
            interceptors: interceptors,
            configuration: configuration,
            logger: quietLogger
        )
    }

    @Test(arguments: HandlerPlacements.all)
    func unarySuccessSendsHeadersMessageAndOKTrailers(handlers: HandlerPlacements) async throws {
        let driver = CallDriver(router: Self.router(configuration: .init(handlers: handlers.placement)))
        let events = try await driver.unary(path: "/souk.test.Test/Echo", request: [1, 2, 3])
        #expect(events == [
            .headers(ResponseHeaders.plain, endStream: false),
            .data([0, 0, 0, 0, 3, 1, 2, 3]),
            .trailers([HTTP2Header("grpc-status", "0")]),
        ])
        #expect(events.first?.headerBlock == [
            HTTP2Header(":status", "200"), HTTP2Header("content-type", "application/grpc"),
            HTTP2Header("grpc-accept-encoding", "identity,gzip"),
        ])
    }

    @Test func requestSplitAcrossManyDataFrames() async throws {
        let driver = CallDriver(router: Self.router())
        try await driver.open(path: "/souk.test.Test/Echo")
        let payload = (0..<100).map { UInt8($0) }
        for byte in frame(payload) { try await driver.send([byte]) }
        try await driver.send([], endStream: true)
        let events = await driver.stream.waitForEnd()
        #expect(try messages(in: events) == [payload])
        #expect(events.last == .trailers([HTTP2Header("grpc-status", "0")]))
    }

    @Test func customMetadataGoesIntoHeadersAndTrailers() async throws {
        let driver = CallDriver(router: Self.router())
        let events = try await driver.unary(
            path: "/souk.test.Test/Metadata", request: [7],
            extra: [HTTP2Header("x-client", "tests"), HTTP2Header("user-agent", "grpc-test")])
        #expect(events.count == 3)
        #expect(events[0] == .headers(ResponseHeaders.plain + [HTTP2Header("x-served-by", "souk"), HTTP2Header("x-client", "tests")], endStream: false))
        #expect(events[2] == .trailers([HTTP2Header("grpc-status", "0"), HTTP2Header("x-trailer", "done"), HTTP2Header("cost-bin", "AQID")]))
    }

    @Test func handlerErrorIsATrailersOnlyResponse() async throws {
        let driver = CallDriver(router: Self.router())
        let events = try await driver.unary(path: "/souk.test.Test/NotFound", request: [])
        #expect(events == [
            .headers([
                HTTP2Header(":status", "200"), HTTP2Header("content-type", "application/grpc"),
                HTTP2Header("grpc-accept-encoding", "identity,gzip"), HTTP2Header("grpc-status", "5"),
                HTTP2Header("grpc-message", "no such order: 42%25 done%0A"),
            ], endStream: true),
        ])
    }

    @Test func otherErrorsAreInternalWithoutDetails() async throws {
        let driver = CallDriver(router: Self.router())
        let events = try await driver.unary(path: "/souk.test.Test/Crash", request: [])
        let block = try #require(events.last?.headerBlock)
        #expect(block["grpc-status"] == "13")
        #expect(block["grpc-message"] == "internal error")
        #expect(!(block.map(\.value).joined().contains("hunter2")))
    }

    @Test func undecodableRequestIsInternal() async throws {
        let driver = CallDriver(router: Self.router())
        let events = try await driver.unary(path: "/souk.test.Test/Echo", request: [0xFF])
        #expect(events.count == 1)
        #expect(events[0].headerBlock?["grpc-status"] == "13")
    }

    @Test func unknownServiceAndMethodAreUnimplemented() async throws {
        for (path, message) in [
            ("/souk.test.Test/Nope", "unknown method Nope for service souk.test.Test"),
            ("/souk.test.Other/Echo", "unknown service souk.test.Other"),
            ("/nonsense", "malformed method name: \"/nonsense\""),
        ] {
            let driver = CallDriver(router: Self.router())
            try await driver.open(path: path, endStream: false)
            let events = await driver.stream.waitForEnd()
            #expect(events.count == 1, "\(path)")
            #expect(events[0].endsStream)
            #expect(events[0].headerBlock?[":status"] == "200")
            #expect(events[0].headerBlock?["grpc-status"] == "12")
            #expect(events[0].headerBlock?["grpc-message"] == GRPCMessageEncoding.encode(message))
            // The rest of the request is ignored; no RST_STREAM (see GRPCStreamHandler.complete).
            try await driver.send(messages: [[1]])
            #expect(driver.stream.events.count == 1)
        }
    }

    @Test func wrongContentTypeIs415() async throws {
        for contentType in ["application/json", nil] {
            let driver = CallDriver(router: Self.router())
            try await driver.open(
                headers: CallDriver.requestHeaders(path: "/souk.test.Test/Echo", contentType: contentType), endStream: true)
            let events = await driver.stream.waitForEnd()
            #expect(events.count == 1)
            let block = try #require(events[0].headerBlock)
            #expect(block[":status"] == "415")
            #expect(block["grpc-status"] == "3")
            #expect(block["content-type"] == "application/grpc")
        }
    }

    @Test func grpcContentTypeVariantsAreAccepted() async throws {
        for contentType in ["application/grpc+proto", "application/grpc;charset=utf-8"] {
            let driver = CallDriver(router: Self.router())
            try await driver.open(
                headers: CallDriver.requestHeaders(path: "/souk.test.Test/Echo", contentType: contentType), endStream: false)
            try await driver.send(messages: [[5]])
            let events = await driver.stream.waitForEnd()
            #expect(events.last == .trailers([HTTP2Header("grpc-status", "0")]))
        }
    }

    @Test func nonPostIs405() async throws {
        let driver = CallDriver(router: Self.router())
        try await driver.open(headers: CallDriver.requestHeaders(path: "/souk.test.Test/Echo", method: "GET"), endStream: true)
        let block = try #require(await driver.stream.waitForEnd().first?.headerBlock)
        #expect(block[":status"] == "405")
        #expect(block["grpc-status"] == "13")
    }

    @Test func malformedTimeoutIs400Internal() async throws {
        let driver = CallDriver(router: Self.router())
        try await driver.open(path: "/souk.test.Test/Echo", extra: [HTTP2Header("grpc-timeout", "10 seconds")], endStream: true)
        let block = try #require(await driver.stream.waitForEnd().first?.headerBlock)
        #expect(block[":status"] == "400")
        #expect(block["grpc-status"] == "13")
        #expect(block["grpc-message"]?.hasPrefix("malformed grpc-timeout") == true)
    }

    @Test func oversizedMessageIsResourceExhausted() async throws {
        let handled = Journal()
        let echo = RPCMethod(name: "Count", handler: .unary { bytes, _ in
            handled.add("handler")
            return bytes
        })
        let driver = CallDriver(router: Self.router(configuration: .init(maxReceiveMessageSize: 16), extraMethods: [echo]))
        try await driver.open(path: "/souk.test.Test/Count")
        // Only the prefix of a 17-byte message: refused before the body arrives.
        try await driver.send(Array(frame([UInt8](repeating: 1, count: 17)).prefix(5)))
        let events = await driver.stream.waitForEnd()
        #expect(events.count == 1)
        #expect(events.first?.headerBlock?["grpc-status"] == "8")
        try await driver.send(Array(frame([UInt8](repeating: 1, count: 17)).dropFirst(5)), endStream: true)
        #expect(driver.stream.events.count == 1)
        #expect(handled.all.isEmpty)
    }

    @Test func messageAtTheLimitIsAccepted() async throws {
        let driver = CallDriver(router: Self.router(configuration: .init(maxReceiveMessageSize: 16)))
        let events = try await driver.unary(path: "/souk.test.Test/Echo", request: [UInt8](repeating: 1, count: 16))
        #expect(try messages(in: events) == [[UInt8](repeating: 1, count: 16)])
    }

    @Test func oversizedResponseIsResourceExhausted() async throws {
        let driver = CallDriver(router: Self.router(configuration: .init(maxSendMessageSize: 4)))
        let events = try await driver.unary(path: "/souk.test.Test/Echo", request: [1, 2, 3, 4, 5])
        #expect(events.count == 1)
        #expect(events[0].headerBlock?["grpc-status"] == "8")
    }

    @Test func truncatedRequestIsInternal() async throws {
        let driver = CallDriver(router: Self.router())
        try await driver.open(path: "/souk.test.Test/Echo")
        try await driver.send(Array(frame([1, 2, 3]).dropLast()), endStream: true)
        let events = await driver.stream.waitForEnd()
        #expect(events.count == 1)
        #expect(events[0].headerBlock?["grpc-status"] == "13")
    }

    @Test func unaryNeedsExactlyOneMessage() async throws {
        let none = CallDriver(router: Self.router())
        try await none.open(path: "/souk.test.Test/Echo", endStream: true)
        #expect(await none.stream.waitForEnd().first?.headerBlock?["grpc-status"] == "13")

        let two = CallDriver(router: Self.router())
        try await two.open(path: "/souk.test.Test/Echo")
        try await two.send(messages: [[1], [2]], endStream: false)
        let events = await two.stream.waitForEnd()
        #expect(events.count == 1)
        #expect(events.first?.headerBlock?["grpc-status"] == "13")
    }

    @Test func synchronousUnaryRunsOnTheEventLoopWithoutATask() async throws {
        let seen = Journal()
        let loop = NIOLockedValueBox<(any EventLoop)?>(nil)
        let sync = RPCMethod.synchronousUnary("Sync") { (request: RawMessage, _: ServerContext) in
            seen.add(withUnsafeCurrentTask { $0 == nil } ? "no task" : "in a task")
            seen.add(loop.withLockedValue { $0?.inEventLoop } == true ? "on the event loop" : "elsewhere")
            return request
        }
        let outcomes = Journal()
        let driver = CallDriver(router: Self.router(interceptors: [OutcomeRecorder(journal: outcomes)], extraMethods: [sync]))
        loop.withLockedValue { $0 = driver.loop }
        let events = try await driver.unary(path: "/souk.test.Test/Sync", request: [1, 2, 3])
        #expect(events == [
            .headers(ResponseHeaders.plain, endStream: false),
            .data([0, 0, 0, 0, 3, 1, 2, 3]),
            .trailers([HTTP2Header("grpc-status", "0")]),
        ])
        #expect(seen.all == ["no task", "on the event loop"])
        #expect(outcomes.all == ["OK"])
    }

    @Test func synchronousUnaryErrorsBecomeTheStatus() async throws {
        let methods = [
            RPCMethod.synchronousUnary("SyncNotFound") { (_: RawMessage, _: ServerContext) -> RawMessage in
                throw RPCError(.notFound, "no such order")
            },
            RPCMethod.synchronousUnary("SyncCrash") { (_: RawMessage, _: ServerContext) -> RawMessage in
                struct Failure: Error {}
                throw Failure()
            },
        ]
        let outcomes = Journal()
        let router = Self.router(interceptors: [OutcomeRecorder(journal: outcomes)], extraMethods: methods)
        let notFound = try await CallDriver(router: router).unary(path: "/souk.test.Test/SyncNotFound", request: [])
        #expect(notFound.count == 1)
        #expect(notFound[0].headerBlock?["grpc-status"] == "5")
        #expect(notFound[0].headerBlock?["grpc-message"] == "no such order")
        let crash = try await CallDriver(router: router).unary(path: "/souk.test.Test/SyncCrash", request: [])
        #expect(crash.last?.headerBlock?["grpc-status"] == "13")
        let undecodable = try await CallDriver(router: router).unary(path: "/souk.test.Test/SyncNotFound", request: [0xFF])
        #expect(undecodable.last?.headerBlock?["grpc-status"] == "13")
        #expect(outcomes.all == ["NOT_FOUND", "INTERNAL", "INTERNAL"])
    }

    @Test(arguments: ["Echo", "SyncEcho"])
    func interceptorsSeeTheStatusTheCallEndsWith(method: String) async throws {
        // The response is refused after the handler returned it: the interceptors must not log OK.
        let syncEcho = RPCMethod.synchronousUnary("SyncEcho") { (request: RawMessage, _: ServerContext) in request }
        let outcomes = Journal()
        let driver = CallDriver(router: Self.router(
            configuration: .init(maxSendMessageSize: 4), interceptors: [OutcomeRecorder(journal: outcomes)], extraMethods: [syncEcho]))
        let events = try await driver.unary(path: "/souk.test.Test/\(method)", request: [1, 2, 3, 4, 5])
        #expect(events.last?.headerBlock?["grpc-status"] == "8")
        #expect(outcomes.all == ["RESOURCE_EXHAUSTED"])
    }

    @Test func peerAndDeadlineReachTheContext() async throws {
        let seen = Journal()
        let probe = RPCMethod(name: "Probe", handler: .unary { bytes, context in
            seen.add(context.peer)
            seen.add(context.deadline == nil ? "no deadline" : "deadline")
            seen.add(context.method.description)
            return bytes
        })
        let driver = CallDriver(router: Self.router(extraMethods: [probe]))
        _ = try await driver.unary(path: "/souk.test.Test/Probe", request: [], extra: [HTTP2Header("grpc-timeout", "1H")])
        #expect(seen.all == ["ipv4:127.0.0.1:53422", "deadline", "souk.test.Test/Probe"])
    }
}
