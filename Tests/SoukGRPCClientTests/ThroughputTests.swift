import Foundation
import NIOCore
import SoukGRPC
import SoukGRPCClient
import SoukMessages
import Testing

/// A throughput figure, not a test: EmptyCall as fast as one channel (one connection) goes, with
/// `SOUK_CLIENT_BENCH_CONCURRENCY` calls in flight (64), for `SOUK_CLIENT_BENCH_SECONDS` (5),
/// against the server at `SOUK_CLIENT_BENCH_TARGET` (host:port, e.g. `souk-server
/// --enable-test-service`). Runs only when that variable is set.
@Suite("gRPC client: throughput")
struct ThroughputTests {
    static let environment = ProcessInfo.processInfo.environment
    static let target = environment["SOUK_CLIENT_BENCH_TARGET"]

    @Test(.enabled(if: target != nil, "set SOUK_CLIENT_BENCH_TARGET=host:port to measure"))
    func emptyCallsPerSecondOnOneConnection() async throws {
        let parts = try #require(Self.target?.split(separator: ":"))
        let host = String(parts[0])
        let port = try #require(Int(parts[1]))
        let concurrency = Int(Self.environment["SOUK_CLIENT_BENCH_CONCURRENCY"] ?? "") ?? 64
        let seconds = Double(Self.environment["SOUK_CLIENT_BENCH_SECONDS"] ?? "") ?? 5
        var configuration = GRPCChannel.Configuration()
        configuration.maxConnections = 1
        let channel = GRPCChannel(target: GRPCTarget(host: host, port: port), configuration: configuration)
        _ = try await channel.unary(TestService.empty, GRPCTesting.Empty(), as: GRPCTesting.Empty.self)

        let clock = ContinuousClock()
        let end = clock.now + .seconds(seconds)
        let start = clock.now
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0 ..< concurrency {
                group.addTask {
                    var count = 0
                    let request = ByteBuffer()
                    while clock.now < end {
                        _ = try await channel.unary(TestService.empty, request: request)
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = clock.now - start
        let rate = Double(total) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        print("EmptyCall on one connection, \(concurrency) in flight: \(total) calls in \(elapsed), \(Int(rate)) calls/s")
        await channel.close()
    }
}
