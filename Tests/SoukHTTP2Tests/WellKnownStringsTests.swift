@testable import SoukHTTP2
import Testing

/// Well-known header strings are found by their exact bytes and nothing else.
@Suite("Well-known header strings")
struct WellKnownStringsTests {
    static let known = [":method", ":path", "te", "POST", "content-type", "x", "abc", "0123456789abcde", "trailers"]
    static let strings = WellKnownStrings(known)

    func lookUp(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { Self.strings.string($0) }
    }

    @Test func everyStringIsFoundByItsBytes() {
        for string in Self.known {
            #expect(lookUp(Array(string.utf8)) == string)
        }
    }

    /// Each byte of each string changed in turn, and each string shortened or lengthened by one.
    @Test func bytesThatDifferAnywhereAreNotFound() {
        for string in Self.known {
            let bytes = Array(string.utf8)
            for index in bytes.indices {
                var changed = bytes
                changed[index] ^= 0x20
                #expect(lookUp(changed) == nil, "\(string) with byte \(index) changed")
            }
            #expect(lookUp(Array(bytes.dropLast())) == nil)
            #expect(lookUp(bytes + [UInt8(ascii: "s")]) == nil)
        }
        #expect(lookUp([]) == nil)
        #expect(lookUp(Array(repeating: UInt8(ascii: "a"), count: 40)) == nil)
    }

    @Test func headerStringsUseTheWellKnownStringsAndMakeTheRest() {
        var cache = HeaderStringCache()
        for text in [":method", "POST", ":authority", "localhost:50051", "h2load nghttp2/1.52.0", "x-custom"] {
            let made = Array(text.utf8).withUnsafeBufferPointer { cache.string($0) }
            #expect(made == text)
        }
    }
}
