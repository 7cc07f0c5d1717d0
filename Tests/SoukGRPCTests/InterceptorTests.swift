import Logging
import MetricsTestKit
import NIOConcurrencyHelpers
import SoukHTTP2
import Testing

@testable import SoukGRPC

/// Notes when a call starts and ends in it.
private struct TracingInterceptor: ServerInterceptor {
    let name: String
    let journal: Journal

    func callStarted(_ context: ServerContext) throws(RPCError) {
        journal.add("\(name) in")
    }

    func callEnded(_ context: ServerContext, status: RPCError?) {
        journal.add("\(name) out \(status?.code.description ?? "OK")")
    }
}

/// Refuses calls without an `authorization` header.
private struct RequireAuthorization: ServerInterceptor {
    struct Principal: ServerContextKey { typealias Value = String }

    func callStarted(_ context: ServerContext) throws(RPCError) {
        guard let token = context.requestMetadata["authorization"] else {
            var trailers = Metadata()
            trailers.add("www-authenticate", "Bearer")
            throw RPCError(.unauthenticated, "missing credentials", trailers: trailers)
        }
        context[Principal.self] = token
    }
}

@Suite struct InterceptorTests {
    private func router(journal: Journal, interceptors: [any ServerInterceptor]) -> GRPCRouter {
        let method = RPCMethod(name: "Echo", handler: .unary { bytes, context in
            journal.add("handler \(context[RequireAuthorization.Principal.self] ?? "anonymous")")
            return bytes
        })
        let failing = RPCMethod(name: "Fail", handler: .unary { _, _ in
            throw RPCError(.failedPrecondition, "order already shipped")
        })
        return GRPCRouter(services: [TestService(methods: [method, failing])], interceptors: interceptors, logger: quietLogger)
    }

    @Test func interceptorsRunInOrderAroundTheHandler() async throws {
        let journal = Journal()
        let driver = CallDriver(router: router(journal: journal, interceptors: [
            TracingInterceptor(name: "outer", journal: journal), TracingInterceptor(name: "inner", journal: journal),
        ]))
        let events = try await driver.unary(path: "/souk.test.Test/Echo", request: [1])
        #expect(events.last == .trailers([HTTP2Header("grpc-status", "0")]))
        #expect(journal.all == ["outer in", "inner in", "handler anonymous", "inner out OK", "outer out OK"])
    }

    @Test func anInterceptorCanRefuseTheCall() async throws {
        let journal = Journal()
        let driver = CallDriver(router: router(journal: journal, interceptors: [
            TracingInterceptor(name: "outer", journal: journal), RequireAuthorization(),
        ]))
        let events = try await driver.unary(path: "/souk.test.Test/Echo", request: [1])
        #expect(events.count == 1)
        let block = try #require(events[0].headerBlock)
        #expect(block["grpc-status"] == "16")
        #expect(block["grpc-message"] == "missing credentials")
        #expect(block["www-authenticate"] == "Bearer")
        #expect(journal.all == ["outer in", "outer out UNAUTHENTICATED"])
    }

    @Test func anInterceptorCanAttachValuesForTheHandler() async throws {
        let journal = Journal()
        let driver = CallDriver(router: router(journal: journal, interceptors: [RequireAuthorization()]))
        _ = try await driver.unary(path: "/souk.test.Test/Echo", request: [1], extra: [HTTP2Header("authorization", "Bearer abc")])
        #expect(journal.all == ["handler Bearer abc"])
    }

    @Test func metricsCountCallsByMethodAndStatus() async throws {
        let metrics = TestMetrics()
        let interceptor = MetricsInterceptor(factory: metrics)
        let router = router(journal: Journal(), interceptors: [interceptor])
        for path in ["/souk.test.Test/Echo", "/souk.test.Test/Echo", "/souk.test.Test/Fail"] {
            _ = try await CallDriver(router: router).unary(path: path, request: [1])
        }
        let ok = try metrics.expectCounter(MetricsInterceptor.callsLabel, [("method", "souk.test.Test/Echo"), ("status", "OK")])
        #expect(ok.totalValue == 2)
        let failed = try metrics.expectCounter(
            MetricsInterceptor.callsLabel, [("method", "souk.test.Test/Fail"), ("status", "FAILED_PRECONDITION")])
        #expect(failed.totalValue == 1)
        let echoTimer = try metrics.expectTimer(MetricsInterceptor.durationLabel, [("method", "souk.test.Test/Echo")])
        #expect(echoTimer.values.count == 2)
        #expect(echoTimer.values.allSatisfy { $0 >= 0 })
        let active = try metrics.expectMeter(MetricsInterceptor.activeCallsLabel)
        #expect(active.values.contains(1))
        #expect(active.lastValue == 0)
    }

    @Test func loggingWritesOneLinePerCall() async throws {
        let records = LogRecords()
        let logger = Logger(label: "rpc-test") { _ in RecordingLogHandler(records: records) }
        let router = router(journal: Journal(), interceptors: [LoggingInterceptor(logger: logger)])
        _ = try await CallDriver(router: router).unary(path: "/souk.test.Test/Echo", request: [1])
        _ = try await CallDriver(router: router).unary(path: "/souk.test.Test/Fail", request: [1])
        let lines = records.all
        #expect(lines.count == 2)
        #expect(lines.map(\.message) == ["rpc", "rpc"])
        #expect(lines[0].metadata["method"] == "souk.test.Test/Echo")
        #expect(lines[0].metadata["status"] == "OK")
        #expect(lines[0].metadata["peer"] == "ipv4:127.0.0.1:53422")
        #expect(lines[0].metadata["duration_ms"] != nil)
        #expect(lines[1].metadata["status"] == "FAILED_PRECONDITION")
        #expect(lines[1].metadata["message"] == "order already shipped")
    }
}

/// Log lines captured by `RecordingLogHandler`.
final class LogRecords: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }
    private let lines = NIOLockedValueBox<[Line]>([])
    func add(_ line: Line) { lines.withLockedValue { $0.append(line) } }
    var all: [Line] { lines.withLockedValue { $0 } }
}

struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        records.add(LogRecords.Line(
            level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
    }
}

@Suite struct MethodDescriptorTests {
    @Test func equalNamesAreOneKeyAndOtherNamesAreNot() {
        // Made separately, as the router and the access rules do.
        let check = MethodDescriptor(service: "grpc.health.v1.Health", method: String("Check".reversed().reversed()))
        var table = [MethodDescriptor(service: "grpc.health.v1.Health", method: "Check"): 1]
        table[MethodDescriptor(service: "grpc.health.v1.Other", method: "Check")] = 2
        table[MethodDescriptor(service: "grpc.health.v1.Health", method: "Watch")] = 3
        #expect(table[check] == 1)
        #expect(table.count == 3)
        #expect(check.hashValue == MethodDescriptor(service: "grpc.health.v1.Health", method: "Check").hashValue)
        #expect(check != MethodDescriptor(service: "grpc.health.v1.HealthCheck", method: ""))
    }
}
