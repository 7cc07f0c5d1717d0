import Foundation
import NIOCore
import SoukGRPC
import SoukGRPCClient
import SoukMessages
import Testing

/// The client against an independent server: grpcio's, started from Tests/e2e/grpcio_test_server.py
/// with the project's virtual environment (scripts/python-env makes it). Skipped without it.
@Suite("gRPC client: against a grpcio server")
struct GrpcioServerTests {
    typealias T = GRPCTesting

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let python = root.appendingPathComponent(".venv/bin/python").path
    static let pythonAvailable = FileManager.default.isExecutableFile(atPath: python)

    @Test(.enabled(if: pythonAvailable, "no Python environment with grpcio (.venv/bin/python); run scripts/python-env"))
    func callsOfEveryShapeWithMetadataAndErrorDetails() async throws {
        let server = try GrpcioServer.start()
        defer { server.stop() }
        let channel = GRPCChannel(target: GRPCTarget(host: "127.0.0.1", port: server.port))

        var metadata = Metadata()
        metadata.add("x-grpc-test-echo-initial", "from-swift")
        metadata.add("x-grpc-test-echo-trailing-bin", bytes: [1, 2, 3, 0xff])
        let unary = try await channel.unary(
            TestService.unary, T.SimpleRequest(responseSize: 70_000), as: T.SimpleResponse.self,
            options: CallOptions(timeout: .seconds(10), metadata: metadata))
        #expect(unary.message.payload?.body == [UInt8](repeating: 0, count: 70_000))
        #expect(unary.headers["x-grpc-test-echo-initial"] == "from-swift")
        #expect(unary.trailers.binaryValues("x-grpc-test-echo-trailing-bin") == [[1, 2, 3, 0xff]])

        _ = try await channel.unary(TestService.empty, T.Empty(), as: T.Empty.self, options: CallOptions(compression: .gzip))

        let sizes = [5, 0, 100_000]
        let streamed = try await channel.serverStreaming(
            TestService.streamingOutput, T.StreamingOutputCallRequest(responseParameters: sizes.map { T.ResponseParameters(size: Int32($0)) })
        ) { call in
            var received: [Int] = []
            for try await response in call.responses(as: T.StreamingOutputCallResponse.self) {
                received.append(response.payload?.body.count ?? 0)
            }
            return received
        }
        #expect(streamed == sizes)

        try await channel.withCall(TestService.fullDuplex) { call in
            var responses = call.responses(as: T.StreamingOutputCallResponse.self).makeAsyncIterator()
            for size in [3, 30_000] {
                try await call.send(T.StreamingOutputCallRequest(responseParameters: [T.ResponseParameters(size: Int32(size))]))
                #expect(try await responses.next()?.payload?.body.count == size)
            }
            call.finishSending()
            #expect(try await responses.next() == nil)
        }

        let plain = await expectStatus(.notFound) {
            _ = try await channel.unary(
                TestService.unary, T.SimpleRequest(responseStatus: T.EchoStatus(code: 5, message: "nothing here ☺")), as: T.SimpleResponse.self)
        }
        #expect(plain?.message == "nothing here ☺")

        let detailed = await expectStatus(.failedPrecondition) {
            _ = try await channel.unary(
                TestService.unary, T.SimpleRequest(responseStatus: T.EchoStatus(code: 9, message: "with details")), as: T.SimpleResponse.self)
        }
        #expect(detailed?.errorInfo?.reason == "TEST_REASON")
        #expect(detailed?.errorInfo?.domain == "grpcio.test")
        #expect(detailed?.fieldViolations == [FieldViolation(field: "name", description: "too short")])

        await expectStatus(.unimplemented) {
            _ = try await channel.unary("/grpc.testing.TestService/UnimplementedCall", T.Empty(), as: T.Empty.self)
        }
        await channel.close()
    }
}

/// The grpcio server process; it exits when its standard input closes.
struct GrpcioServer {
    let process: Process
    let input: Pipe
    let port: Int

    static func start() throws -> GrpcioServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: GrpcioServerTests.python)
        process.arguments = [GrpcioServerTests.root.appendingPathComponent("Tests/e2e/grpcio_test_server.py").path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The server prints its port on one line once it serves.
        var line: [UInt8] = []
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else { break }
            if first == UInt8(ascii: "\n") { break }
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw RPCError(.internalError, "the grpcio server did not start (it printed \"\(String(decoding: line, as: UTF8.self))\")")
        }
        return GrpcioServer(process: process, input: input, port: port)
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
