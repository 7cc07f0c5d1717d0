import CNGHTTP2
@testable import SoukHTTP2
import Testing

/// Header arrays become nghttp2 name-value arrays with the same fields, whether converted afresh
/// or found among the arrays converted before.
@Suite("nghttp2 header blocks")
struct NGHTTP2HeaderBlockTests {
    /// The fields nghttp2 would read.
    static func fields(_ block: NGHTTP2HeaderBlock, _ headers: [HTTP2Header]) -> [String] {
        block.withNameValues(headers) { fields, count in
            (0 ..< count).map { index in
                let field = fields[index]
                let name = String(decoding: UnsafeBufferPointer(start: field.name, count: field.namelen), as: UTF8.self)
                let value = String(decoding: UnsafeBufferPointer(start: field.value, count: field.valuelen), as: UTF8.self)
                return "\(name): \(value)"
            }
        }
    }

    static func expected(_ headers: [HTTP2Header]) -> [String] {
        headers.map { "\($0.name): \($0.value)" }
    }

    @Test func theSameArrayGivesTheSameFieldsAgain() {
        let block = NGHTTP2HeaderBlock()
        let headers = [HTTP2Header(":status", "200"), HTTP2Header("content-type", "application/grpc")]
        let trailers = [HTTP2Header("grpc-status", "0")]
        for _ in 0 ..< 3 {
            #expect(Self.fields(block, headers) == Self.expected(headers))
            #expect(Self.fields(block, trailers) == Self.expected(trailers))
        }
    }

    @Test func aChangedCopyOfAConvertedArrayGivesItsOwnFields() {
        let block = NGHTTP2HeaderBlock()
        var headers = [HTTP2Header(":status", "200"), HTTP2Header("x-long-custom-metadata-name", "first value")]
        let original = headers
        #expect(Self.fields(block, headers) == Self.expected(headers))
        headers[1] = HTTP2Header("x-long-custom-metadata-name", "second value")
        #expect(Self.fields(block, headers) == Self.expected(headers))
        #expect(Self.fields(block, original) == Self.expected(original))
    }

    /// More arrays than the block keeps, each made anew (new storage, which may reuse freed memory
    /// at the same address) and interleaved with constant ones.
    @Test func manyArraysInTurnEachGiveTheirOwnFields() {
        let block = NGHTTP2HeaderBlock()
        let constant = [HTTP2Header(":status", "200")]
        for round in 0 ..< 50 {
            let headers = (0 ... round % 7).map { HTTP2Header("x-field-\($0)", String(repeating: "v", count: round + $0)) }
            #expect(Self.fields(block, headers) == Self.expected(headers))
            #expect(Self.fields(block, constant) == Self.expected(constant))
        }
        #expect(Self.fields(block, []) == [])
    }
}
