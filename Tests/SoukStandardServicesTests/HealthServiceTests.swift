import NIOCore
import SoukGRPC
import SoukMessages
import SoukStandardServices
import Testing

@Suite struct HealthServiceTests {
    typealias Request = GRPCHealth.HealthCheckRequest
    typealias Response = GRPCHealth.HealthCheckResponse

    @Test func checkReportsTheServerAndKnownServices() async throws {
        let health = HealthService(servingServices: ["souk.v1.Orders"])
        let call = CallHarness(service: health)
        #expect(health.serviceName == "grpc.health.v1.Health")
        #expect(try await call.unary("Check", Request(service: ""), as: Response.self).status == .serving)
        #expect(try await call.unary("Check", Request(service: "souk.v1.Orders"), as: Response.self).status == .serving)

        health.setStatus(.notServing, forService: "souk.v1.Orders")
        #expect(try await call.unary("Check", Request(service: "souk.v1.Orders"), as: Response.self).status == .notServing)
    }

    @Test func checkOfAnUnknownServiceIsNotFound() async throws {
        let health = HealthService(servingServices: ["souk.v1.Orders"])
        let call = CallHarness(service: health)
        await #expect(throws: RPCError(.notFound, "unknown service \"souk.v1.Nope\"")) {
            _ = try await call.unary("Check", Request(service: "souk.v1.Nope"), as: Response.self)
        }
        health.clearStatus(forService: "souk.v1.Orders")
        await #expect(throws: RPCError.self) {
            _ = try await call.unary("Check", Request(service: "souk.v1.Orders"), as: Response.self)
        }
    }

    @Test func drainingMarksEverythingNotServingForGood() async throws {
        let health = HealthService(servingServices: ["a", "b"])
        health.setAllNotServing()
        health.setStatus(.serving, forService: "a")
        health.setStatus(.serving, forService: "c")
        health.clearStatus(forService: "b")
        #expect(health.status(ofService: "") == .notServing)
        #expect(health.status(ofService: "a") == .notServing)
        #expect(health.status(ofService: "b") == .notServing)
        #expect(health.status(ofService: "c") == nil)
    }

    @Test func watchSendsTheCurrentStatusThenEachChangeUntilCancelled() async throws {
        let health = HealthService()
        let (received, receiver) = AsyncStream.makeStream(of: Response.ServingStatus.self)
        let sink = Sink<Response> { receiver.yield($0.message.status) }
        let call = CallHarness(service: health)
        guard case .serverStreaming(let watch) = try call.method("Watch").handler else {
            Issue.record("Watch is not server-streaming")
            return
        }
        let watching = Task {
            try await watch(ByteBuffer(bytes: Request(service: "souk.v1.Orders").encoded()), sink.writer, call.context("Watch"))
        }
        var statuses = received.makeAsyncIterator()

        // Unknown when the call starts: SERVICE_UNKNOWN, and the call stays open.
        #expect(await statuses.next() == .serviceUnknown)
        health.setStatus(.serving, forService: "souk.v1.Orders")
        #expect(await statuses.next() == .serving)
        // The same status again is not a change; the next message is the next real change.
        health.setStatus(.serving, forService: "souk.v1.Orders")
        health.setStatus(.notServing, forService: "souk.v1.Orders")
        #expect(await statuses.next() == .notServing)
        health.clearStatus(forService: "souk.v1.Orders")
        #expect(await statuses.next() == .serviceUnknown)
        health.setStatus(.serving, forService: "souk.v1.Orders")
        #expect(await statuses.next() == .serving)
        health.setAllNotServing()
        #expect(await statuses.next() == .notServing)
        #expect(health.watcherCount == 1)

        watching.cancel()
        try await watching.value
        #expect(health.watcherCount == 0)
        #expect(sink.sent.map(\.message.status) == [.serviceUnknown, .serving, .notServing, .serviceUnknown, .serving, .notServing])
    }

    @Test func watchOfTheWholeServerStartsServing() async throws {
        let health = HealthService()
        let (received, receiver) = AsyncStream.makeStream(of: Response.ServingStatus.self)
        let sink = Sink<Response> { receiver.yield($0.message.status) }
        let call = CallHarness(service: health)
        guard case .serverStreaming(let watch) = try call.method("Watch").handler else { return }
        let watching = Task { try await watch(ByteBuffer(bytes: Request().encoded()), sink.writer, call.context("Watch")) }
        var statuses = received.makeAsyncIterator()
        #expect(await statuses.next() == .serving)
        watching.cancel()
        try await watching.value
        #expect(health.watcherCount == 0)
    }
}

