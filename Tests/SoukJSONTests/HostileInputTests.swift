import Foundation
import Testing
@testable import SoukJSON

/// Input meant to break a converter is answered with an error, never a crash or a hang.
@Suite struct HostileInputTests {
    let json = Support.mapping

    func reason(_ bytes: [UInt8], _ type: String = "souk.jsontest.WellKnown") -> String? {
        do {
            _ = try json.binary(fromJSON: bytes, messageType: type)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func deepNesting() throws {
        let deep = #"{"value":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(reason(Array(deep.utf8))?.contains("nested deeper than 100 levels") == true)
        let objects = String(repeating: #"{"child":"#, count: 5000) + "{}" + String(repeating: "}", count: 5000)
        #expect(reason(Array(objects.utf8), "souk.jsontest.AllKinds") != nil)
        // Protobuf bytes nested past the limit.
        var inner: [UInt8] = []
        for _ in 0..<150 {
            var w = WireWriter()
            w.lengthDelimited(17, inner)
            inner = w.bytes
        }
        #expect(throws: ProtoJSONError.self) { try json.json(fromBinary: inner, messageType: "souk.jsontest.AllKinds") }
    }

    @Test func hugeNumbers() throws {
        #expect(reason(Array(#"{"fInt64": 123456789012345678901234567890}"#.utf8), "souk.jsontest.AllKinds")?.contains("out of range for int64") == true)
        #expect(reason(Array(#"{"fUint32": 1e300}"#.utf8), "souk.jsontest.AllKinds")?.contains("out of range") == true)
        #expect(reason(Array(#"{"fDouble": 1e99999}"#.utf8), "souk.jsontest.AllKinds")?.hasPrefix("f_double:") == true)
        let long = #"{"fInt32": "# + String(repeating: "9", count: 100_000) + "}"
        #expect(reason(Array(long.utf8), "souk.jsontest.AllKinds")?.contains("number too long") == true)
    }

    @Test func invalidUTF8() throws {
        let bad: [UInt8] = Array(#"{"wString": ""#.utf8) + [0xc3, 0x28] + Array(#""}"#.utf8)
        #expect(reason(bad)?.contains("invalid UTF-8") == true)
        #expect(reason(Array(#"{"wString": "\ud800"}"#.utf8))?.contains("unpaired surrogate") == true)
        #expect(reason([0xff, 0xfe]) != nil)
        var w = WireWriter()
        w.lengthDelimited(9, [0x61, 0xff])
        #expect(throws: ProtoJSONError(path: "f_string", reason: "string is not valid UTF-8")) {
            try json.json(fromBinary: w.bytes, messageType: "souk.jsontest.AllKinds")
        }
    }

    @Test func duplicateFields() throws {
        #expect(reason(Array(#"{"wString": "a", "wString": "b"}"#.utf8))?.contains(#"duplicate key "wString""#) == true)
        let many = "{" + (0..<20).map { #""k\#($0)": 1"# }.joined(separator: ",") + #","k7": 2}"#
        #expect(reason(Array(#"{"struct": "#.utf8) + Array(many.utf8) + [UInt8(ascii: "}")])?.contains(#"duplicate key "k7""#) == true)
        #expect(reason(Array(#"{"w_string": "a", "wString": "b"}"#.utf8))?.contains("given twice") == true)
    }

    @Test func malformedText() throws {
        for text in ["", " ", "{", #"{"a"}"#, #"{"a":}"#, "[1,]", "{} {}", "nul", "01", "1.", "-", #""\x""#, "\u{1}", #"{"wString": "a"#] {
            #expect(reason(Array(text.utf8)) != nil, "\(text)")
        }
    }

    @Test func malformedProtobuf() throws {
        let cases: [[UInt8]] = [
            [0x08],  // a tag with no value
            [0x0a, 0x05, 0x01],  // a length past the end
            [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],  // an 11-byte varint
            [0x00],  // field number 0
            [0x0f],  // wire type 7
            [0x8a, 0x01, 0x02, 0x08],  // a message field whose payload is truncated
            [0x0b, 0x08, 0x01],  // an unterminated group
        ]
        for bytes in cases {
            #expect(throws: ProtoJSONError.self, "\(bytes)") { try json.json(fromBinary: bytes, messageType: "souk.jsontest.AllKinds") }
        }
    }

    @Test func randomBytesNeverCrash() throws {
        var generator = SystemRandomNumberGenerator.Seeded(seed: 28)
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? json.json(fromBinary: bytes, messageType: "souk.jsontest.AllKinds")
            _ = try? json.json(fromBinary: bytes, messageType: "souk.jsontest.WellKnown")
            _ = try? json.binary(fromJSON: bytes, messageType: "souk.jsontest.AllKinds")
        }
    }
}

extension SystemRandomNumberGenerator {
    /// A small deterministic generator (SplitMix64), so the random cases are the same every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }
}
