import Testing
import NIOCore
import SoukGRPC
import SoukHTTP2
@testable import SoukWeb

/// Content types read byte by byte, as every request's is: parameters, spaces and case as HTTP
/// allows them.
@Suite struct MediaTypeTests {
    let candidates: [StaticString] = ["application/json", "application/grpc-web+proto"]

    @Test func matchesTheMediaTypeBeforeItsParameters() {
        #expect(MediaType.index(of: "application/json", in: candidates) == 0)
        #expect(MediaType.index(of: "Application/JSON; charset=utf-8", in: candidates) == 0)
        #expect(MediaType.index(of: " application/json\t;charset=utf-8", in: candidates) == 0)
        #expect(MediaType.index(of: "application/grpc-web+PROTO", in: candidates) == 1)
        // A String not stored as contiguous UTF-8 (bridged or sliced) takes the copying path.
        #expect(MediaType.index(of: String("xapplication/json".dropFirst()), in: candidates) == 0)
    }

    @Test func refusesOtherTypes() {
        for other in ["", ";", "application/grpc", "application/jsonx", "application/js on", "text/json", "application/json5", "application/grpc-web"] {
            #expect(MediaType.index(of: other, in: candidates) == nil, "\(other)")
        }
        #expect(GRPCWebFormat(contentType: "application/grpc") == nil)
        #expect(GRPCWebFormat(contentType: "application/grpc-web-text; charset=utf-8")?.isText == true)
        #expect(GRPCWebFormat(contentType: "APPLICATION/GRPC-WEB+JSON")?.isJSON == true)
    }
}

/// The gRPC-Web trailer frame: flag 0x80, the block's length, then `name: value` lines.
@Suite struct GRPCWebTrailerFrameTests {
    @Test func linesAfterTheFlagAndLength() {
        var frame = GRPCWebResponseStream.trailerFrame([HTTP2Header("grpc-status", "0"), HTTP2Header("grpc-message", "é ok")])
        let block = "grpc-status: 0\r\ngrpc-message: é ok\r\n"
        #expect(frame.readInteger(as: UInt8.self) == 0x80)
        #expect(frame.readInteger(as: UInt32.self) == UInt32(block.utf8.count))
        #expect(frame.readString(length: frame.readableBytes) == block)
        #expect(GRPCWebResponseStream.trailerFrame([]).readableBytes == 5)
    }

    /// A success without trailing metadata takes the frame built once: the same bytes.
    @Test func theSuccessFrameIsTheOneWrittenLineByLine() {
        var frame = GRPCWebResponseStream.trailerFrame([HTTP2Header("grpc-status", "0")])
        #expect(frame.readInteger(as: UInt8.self) == 0x80)
        #expect(frame.readInteger(as: UInt32.self) == 16)
        #expect(frame.readString(length: frame.readableBytes) == "grpc-status: 0\r\n")
    }
}

/// gRPC-Web response headers: the gRPC layer's block with the format's content type.
@Suite struct GRPCWebResponseHeadersTests {
    @Test func theUsualBlockIsTranslatedOncePerFormat() throws {
        let format = try #require(GRPCWebFormat(contentType: "application/grpc-web-text"))
        let expected = ResponseHeaders.plain.map {
            $0.name == "content-type" ? HTTP2Header("content-type", "application/grpc-web-text+proto") : $0
        }
        #expect(format.plainResponseHeaders == expected)
        #expect(format.translated(ResponseHeaders.plain) == expected)
    }
}
