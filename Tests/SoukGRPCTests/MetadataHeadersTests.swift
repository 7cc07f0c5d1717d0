import SoukHTTP2
import Testing

@testable import SoukGRPC

@Suite struct MetadataHeadersTests {
    @Test func base64RoundTripsEveryLength() throws {
        for length in 0..<20 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            let text = MetadataBase64.encode(bytes)
            #expect(!text.contains("="))
            #expect(MetadataBase64.decode(text[...]) == bytes)
        }
    }

    @Test func base64MatchesRFC4648Vectors() {
        let vectors = [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(MetadataBase64.encode(Array(plain.utf8)) == encoded)
        }
    }

    @Test func base64AcceptsPaddedAndUnpadded() {
        #expect(MetadataBase64.decode("Zm8=") == Array("fo".utf8))
        #expect(MetadataBase64.decode("Zm8") == Array("fo".utf8))
        #expect(MetadataBase64.decode("Zg==") == Array("f".utf8))
        #expect(MetadataBase64.decode("Zg") == Array("f".utf8))
        #expect(MetadataBase64.decode("/+8=") == [0xFF, 0xEF])
    }

    @Test(arguments: ["Z", "Zm9vY", "Zm 9v", "Zm9v!", "Zg=", "Z===", "Zm-_", "=Zm8"])
    func base64RejectsInvalidText(text: String) {
        #expect(MetadataBase64.decode(text[...]) == nil)
    }

    @Test func reservedHeadersAreNotCustomMetadata() {
        for name in [":path", ":authority", "content-type", "te", "user-agent", "grpc-timeout", "grpc-foo"] {
            #expect(MetadataHeaders.isReserved(name), "\(name)")
        }
        // Names one byte away from a reserved one, at the same length, are metadata.
        for name in ["authorization", "x-request-id", "grpcfoo", "trace-bin", "content-typf", "tf", "user-agenu"] {
            #expect(!MetadataHeaders.isReserved(name), "\(name)")
        }
    }

    @Test func requestHeadersBecomeMetadata() throws {
        let head = RequestHead([
            HTTP2Header(":method", "POST"), HTTP2Header(":path", "/a.B/C"), HTTP2Header(":authority", "x"),
            HTTP2Header("content-type", "application/grpc"), HTTP2Header("te", "trailers"),
            HTTP2Header("user-agent", "grpc-python/1.0"), HTTP2Header("grpc-timeout", "5S"),
            HTTP2Header("grpc-accept-encoding", "identity"), HTTP2Header("grpc-accept-encoding", "gzip"),
            HTTP2Header("authorization", "Bearer t"), HTTP2Header("trace-bin", "AAEC,AwQ="),
            HTTP2Header("x-odd", "  spaced\u{80} "),
        ])
        #expect(head.headerError == nil)
        #expect(head.httpMethod == "POST")
        #expect(head.path == "/a.B/C")
        #expect(head.timeout == GRPCTimeout(amount: 5, unit: .seconds))
        #expect(head.acceptEncoding == "identity,gzip")
        #expect(head.metadata.count == 4)
        #expect(head.metadata["authorization"] == "Bearer t")
        #expect(head.metadata.binaryValues("trace-bin") == [[0, 1, 2], [3, 4]])
        // The spec forbids failing on values outside ASCII-Value; they are kept as received.
        #expect(head.metadata["x-odd"] == "  spaced\u{80} ")
        #expect(head.previousAttempts == 0)
    }

    @Test func aRetryIsReadFromItsHeaderAndIsNotMetadata() {
        let retry = RequestHead([HTTP2Header(":path", "/a.B/C"), HTTP2Header("grpc-previous-rpc-attempts", "2")])
        #expect(retry.previousAttempts == 2 && retry.metadata.isEmpty && retry.headerError == nil)
        for unreadable in ["", "x", "-1"] {
            #expect(RequestHead([HTTP2Header("grpc-previous-rpc-attempts", unreadable)]).previousAttempts == 0, "\(unreadable)")
        }
    }

    @Test func headerNamesAreMatchedExactly() {
        let head = RequestHead([
            HTTP2Header(":method", "POST"), HTTP2Header(":metho", "GET"), HTTP2Header(":scheme", "http"),
            HTTP2Header(":path", "/a.B/C"), HTTP2Header(":pat", "/x"), HTTP2Header("content-type", "application/grpc"),
            HTTP2Header("grpc-encoding", "gzip"), HTTP2Header("grpc-encodinh", "x"), HTTP2Header("content-typf", "y"),
            HTTP2Header("grpc-timeoul", "1S"), HTTP2Header("grpc-accept-encodin", "z"),
        ])
        #expect(head.httpMethod == "POST")
        #expect(head.path == "/a.B/C")
        #expect(head.contentType == "application/grpc")
        #expect(head.encoding == "gzip")
        #expect(head.timeout == nil)
        #expect(head.acceptEncoding == nil)
        // Unknown `grpc-` names are reserved, so only the near-miss of content-type is metadata.
        #expect(head.metadata.count == 1)
        #expect(head.metadata["content-typf"] == "y")
    }

    @Test func malformedBinaryOrTimeoutHeadersAreErrors() {
        let binary = RequestHead([HTTP2Header("trace-bin", "!!!")])
        #expect(binary.headerError?.code == .internalError)
        let timeout = RequestHead([HTTP2Header("grpc-timeout", "1 hour")])
        #expect(timeout.headerError?.code == .internalError)
        #expect(timeout.headerError?.message.contains("grpc-timeout") == true)
    }

    @Test func responseMetadataIsEncodedAndValidated() {
        var metadata = Metadata()
        metadata.add("x-ok", "value")
        metadata.add("trace-bin", bytes: [0xFF, 0x00, 0x01])
        metadata.add("text-bin", "hi")
        metadata.add("grpc-status", "0")  // reserved
        metadata.add("content-type", "text/plain")  // reserved
        metadata.add("bad key", "x")  // invalid name
        metadata.add("x-newline", "a\r\nb")  // not printable ASCII
        metadata.add("no-suffix", bytes: [1])  // binary without -bin
        var headers: [HTTP2Header] = []
        let rejected = MetadataHeaders.append(metadata, to: &headers)
        #expect(headers == [
            HTTP2Header("x-ok", "value"), HTTP2Header("trace-bin", "/wAB"), HTTP2Header("text-bin", "aGk"),
        ])
        #expect(rejected == ["grpc-status", "content-type", "bad key", "x-newline", "no-suffix"])
    }

    @Test func contentTypes() {
        for value in ["application/grpc", "application/grpc+proto", "application/grpc+json", "application/grpc;charset=utf-8"] {
            #expect(RequestHead.isGRPCContentType(value), "\(value)")
        }
        for value in ["", "application/json", "application/grpcx", "application/grp", "text/plain", "application/grpc-web"] {
            #expect(!RequestHead.isGRPCContentType(value), "\(value)")
        }
    }
}
