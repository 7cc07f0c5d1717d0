import Foundation
import SoukTesting
import Testing

/// The shared harness served on a free port answers a real HTTP/2 client (nghttp, from
/// nghttp2-client) through the interceptors.
@Suite struct LiveServerTests {
    @Test func servesTheContractOnAFreePort() async throws {
        let harness = try DomainHarness()
        let server = try await LiveServer(harness)
        let guest = try nghttp(port: server.port, path: "/souk.v1.Marketplaces/ListMarketplaces")
        #expect(guest.contains("grpc-status: 0"), "\(guest)")
        let refused = try nghttp(port: server.port, path: "/souk.v1.Accounts/GetMe")
        #expect(refused.contains("grpc-status: 16"), "\(refused)")  // UNAUTHENTICATED: no token
        await server.stop()
    }

    /// A unary call with an empty request, as nghttp prints it (-v).
    func nghttp(port: Int, path: String) throws -> String {
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("souk-empty-\(UUID().uuidString).bin")
        try Data([0, 0, 0, 0, 0]).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "nghttp", "-v", "-H", ":method: POST", "-H", "content-type: application/grpc", "-H", "te: trailers",
            "-d", body.path, "http://127.0.0.1:\(port)\(path)",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
