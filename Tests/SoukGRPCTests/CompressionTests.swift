import NIOCore
import Testing

@testable import SoukGRPC

@Suite struct CompressionTests {
    private let text = ByteBuffer(bytes: Array(String(repeating: "souk marketplace order ", count: 200).utf8))

    @Test func gzipRoundTrips() throws {
        let compressor = try GzipCompressor()
        let decompressor = try GzipDecompressor()
        for input in [text, ByteBuffer(), ByteBuffer(bytes: (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })] {
            let compressed = try compressor.compress(input)
            let output = try decompressor.decompress(compressed, limit: 1 << 20)
            #expect(output == input)
        }
    }

    @Test func compressedOutputIsGzipAndHasRoomForThePrefix() throws {
        let compressed = try GzipCompressor().compress(text)
        #expect(Array(compressed.readableBytesView.prefix(2)) == [0x1F, 0x8B])
        #expect(compressed.readableBytes < text.readableBytes / 4)
        #expect(compressed.readerIndex == GRPCFraming.prefixLength)
    }

    @Test func eachMessageIsIndependent() throws {
        // The same compressor used twice gives two complete gzip streams.
        let compressor = try GzipCompressor()
        let first = try compressor.compress(text)
        let second = try compressor.compress(text)
        #expect(first == second)
        #expect(try GzipDecompressor().decompress(second, limit: 1 << 20) == text)
    }

    @Test func refusesDataThatIsNotGzip() throws {
        let decompressor = try GzipDecompressor()
        #expect(statusCode { try decompressor.decompress(ByteBuffer(bytes: Array("not gzip at all".utf8)), limit: 1024) } == .internalError)
        // The decompressor still works after an error.
        let compressed = try GzipCompressor().compress(text)
        #expect(try decompressor.decompress(compressed, limit: 1 << 20) == text)
    }

    @Test func refusesTruncatedGzip() throws {
        var compressed = try GzipCompressor().compress(text)
        compressed.moveWriterIndex(to: compressed.writerIndex - 10)
        #expect(statusCode { try GzipDecompressor().decompress(compressed, limit: 1 << 20) } == .internalError)
    }

    @Test func refusesBytesAfterTheGzipStream() throws {
        var compressed = try GzipCompressor().compress(text)
        compressed.writeBytes([1, 2, 3])
        #expect(statusCode { try GzipDecompressor().decompress(compressed, limit: 1 << 20) } == .internalError)
    }

    @Test func boundsTheDecompressedSize() throws {
        let zeros = ByteBuffer(repeating: 0, count: 1 << 20)
        let bomb = try GzipCompressor().compress(zeros)
        #expect(bomb.readableBytes < 4096)
        let decompressor = try GzipDecompressor()
        #expect(statusCode { try decompressor.decompress(bomb, limit: (1 << 20) - 1) } == .resourceExhausted)
        #expect(try decompressor.decompress(bomb, limit: 1 << 20).readableBytes == 1 << 20)
    }

    @Test func acceptEncodingLists() {
        #expect(CompressionAlgorithm.acceptEncodingHeaderValue == "identity,gzip")
        #expect(CompressionAlgorithm.gzip.isListed(in: "identity, deflate, gzip"))
        #expect(!CompressionAlgorithm.gzip.isListed(in: "identity,deflate"))
        #expect(!CompressionAlgorithm.gzip.isListed(in: "gzipx"))
        #expect(CompressionAlgorithm(headerValue: "snappy") == nil)
    }
}
