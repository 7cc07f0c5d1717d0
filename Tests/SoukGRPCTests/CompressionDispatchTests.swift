import NIOCore
import SoukHTTP2
import Testing

@testable import SoukGRPC

@Suite struct CompressionDispatchTests {
    private let text = Array(String(repeating: "compressible ", count: 100).utf8)

    private func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        Array(try GzipCompressor().compress(ByteBuffer(bytes: bytes)).readableBytesView)
    }

    private func router(maxReceive: Int = 1 << 22, extra: [RPCMethod] = []) -> GRPCRouter {
        let methods: [RPCMethod] = [
            RPCMethod(name: "Echo", handler: .unary { bytes, _ in bytes }),
            RPCMethod(name: "Plain", handler: .unary { bytes, context in
                context.compressResponse = false
                return bytes
            }),
            RPCMethod(name: "Stream", handler: .serverStreaming { request, writer, _ in
                try await writer.write(request, compress: true)
                try await writer.write(request, compress: false)
                try await writer.write(request)
            }),
        ]
        return GRPCRouter(
            services: [TestService(methods: methods + extra)],
            configuration: .init(maxReceiveMessageSize: maxReceive), logger: quietLogger)
    }

    @Test func gzipRequestIsDecompressedAndTheResponseCompressed() async throws {
        let seen = Journal()
        let probe = RPCMethod(name: "Probe", handler: .unary { bytes, context in
            seen.add(context.requestWasCompressed ? "compressed" : "plain")
            return bytes
        })
        let driver = CallDriver(router: router(extra: [probe]))
        try await driver.open(path: "/souk.test.Test/Probe", extra: [HTTP2Header("grpc-encoding", "gzip")])
        try await driver.send(frame(try gzip(text), compressed: true), endStream: true)
        let events = await driver.stream.waitForEnd()
        #expect(events.count == 3)
        #expect(events[0] == .headers(ResponseHeaders.gzip, endStream: false))
        guard case .data(let bytes) = events[1] else {
            Issue.record("expected DATA, got \(events[1])")
            return
        }
        #expect(bytes[0] == 1)  // compressed flag
        #expect(bytes.count < text.count)
        #expect(try messages(in: events) == [text])
        #expect(seen.all == ["compressed"])
    }

    @Test func handlerCanOptOutOfResponseCompression() async throws {
        let driver = CallDriver(router: router())
        try await driver.open(path: "/souk.test.Test/Plain", extra: [HTTP2Header("grpc-encoding", "gzip")])
        try await driver.send(frame(try gzip(text), compressed: true), endStream: true)
        let events = await driver.stream.waitForEnd()
        guard case .data(let bytes) = events[1] else {
            Issue.record("expected DATA, got \(events[1])")
            return
        }
        #expect(bytes[0] == 0)
        #expect(Array(bytes.dropFirst(5)) == text)
    }

    @Test func uncompressedRequestGetsAnUncompressedResponse() async throws {
        let driver = CallDriver(router: router())
        let events = try await driver.unary(
            path: "/souk.test.Test/Echo", request: text, extra: [HTTP2Header("grpc-accept-encoding", "identity,deflate,gzip")])
        // gzip is announced (the client reads it) but not used unless asked for.
        #expect(events[0] == .headers(ResponseHeaders.gzip, endStream: false))
        guard case .data(let bytes) = events[1] else {
            Issue.record("expected DATA, got \(events[1])")
            return
        }
        #expect(bytes[0] == 0)
    }

    @Test func perMessageCompressionInAStream() async throws {
        let driver = CallDriver(router: router())
        let events = try await driver.unary(
            path: "/souk.test.Test/Stream", request: text, extra: [HTTP2Header("grpc-accept-encoding", "gzip")])
        let flags = events.compactMap { event -> UInt8? in
            if case .data(let bytes) = event { return bytes[0] }
            return nil
        }
        #expect(flags == [1, 0, 0])
        #expect(try messages(in: events) == [text, text, text])
    }

    @Test func perMessageCompressionNeedsAClientThatReadsGzip() async throws {
        let driver = CallDriver(router: router())
        let events = try await driver.unary(path: "/souk.test.Test/Stream", request: text)
        #expect(events[0] == .headers(ResponseHeaders.plain, endStream: false))
        let flags = events.compactMap { event -> UInt8? in
            if case .data(let bytes) = event { return bytes[0] }
            return nil
        }
        #expect(flags == [0, 0, 0])
    }

    @Test func compressedFlagWithoutEncodingIsInternal() async throws {
        for extra in [[], [HTTP2Header("grpc-encoding", "identity")]] {
            let driver = CallDriver(router: router())
            try await driver.open(path: "/souk.test.Test/Echo", extra: extra)
            try await driver.send(frame(try gzip(text), compressed: true), endStream: true)
            let events = await driver.stream.waitForEnd()
            #expect(events.count == 1)
            #expect(events[0].headerBlock?["grpc-status"] == "13")
        }
    }

    @Test func unsupportedEncodingIsUnimplementedAndListsTheSupportedOnes() async throws {
        let driver = CallDriver(router: router())
        try await driver.open(path: "/souk.test.Test/Echo", extra: [HTTP2Header("grpc-encoding", "snappy")])
        let events = await driver.stream.waitForEnd()
        let block = try #require(events.first?.headerBlock)
        #expect(events.first?.endsStream == true)
        #expect(block["grpc-status"] == "12")
        #expect(block["grpc-accept-encoding"] == "identity,gzip")
        #expect(block["grpc-message"]?.contains("snappy") == true)
    }

    @Test func corruptGzipIsInternal() async throws {
        let driver = CallDriver(router: router())
        try await driver.open(path: "/souk.test.Test/Echo", extra: [HTTP2Header("grpc-encoding", "gzip")])
        try await driver.send(frame([0x1F, 0x8B, 1, 2, 3, 4, 5, 6, 7, 8], compressed: true), endStream: true)
        let events = await driver.stream.waitForEnd()
        #expect(events.first?.headerBlock?["grpc-status"] == "13")
    }

    @Test func decompressedSizeOverTheLimitIsResourceExhausted() async throws {
        let driver = CallDriver(router: router(maxReceive: 1000))
        try await driver.open(path: "/souk.test.Test/Echo", extra: [HTTP2Header("grpc-encoding", "gzip")])
        let bomb = try gzip([UInt8](repeating: 0, count: 100_000))
        #expect(bomb.count < 1000)
        try await driver.send(frame(bomb, compressed: true), endStream: true)
        let events = await driver.stream.waitForEnd()
        #expect(events.first?.headerBlock?["grpc-status"] == "8")
    }
}
