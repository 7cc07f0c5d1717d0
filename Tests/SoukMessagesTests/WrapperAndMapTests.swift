import SoukProtoC
import Testing
@testable import SoukMessages

/// The optional-scalar wrapper helpers, checked against protoc's bytes for each wrapper type.
@Suite struct WrapperTests {
    func check<C: WellKnownWrapperStruct>(_ type: C.Type, _ name: String, _ value: C.Value, text: String) throws where C.Value: Equatable {
        let golden = try Protoc.encode("google.protobuf.\(name)", text, files: ["google/protobuf/wrappers.proto"])
        let decoded = try golden.withUnsafeBytes { try unpackMessage(WrapperMirror<C>.self, named: name, $0) }
        #expect(decoded.value == value)
        #expect(packMessage(WrapperMirror<C>(value)) { Array($0) } == golden)
    }

    @Test func everyWrapperMatchesProtoc() throws {
        try check(Google__Protobuf__StringValue.self, "StringValue", "héllo", text: #"value: "héllo""#)
        try check(Google__Protobuf__BytesValue.self, "BytesValue", [0, 1, 255], text: #"value: "\000\001\377""#)
        try check(Google__Protobuf__BoolValue.self, "BoolValue", true, text: "value: true")
        try check(Google__Protobuf__Int64Value.self, "Int64Value", -5_000_000_000, text: "value: -5000000000")
        try check(Google__Protobuf__UInt64Value.self, "UInt64Value", .max, text: "value: 18446744073709551615")
        try check(Google__Protobuf__Int32Value.self, "Int32Value", -7, text: "value: -7")
        try check(Google__Protobuf__UInt32Value.self, "UInt32Value", 4_000_000_000, text: "value: 4000000000")
        try check(Google__Protobuf__DoubleValue.self, "DoubleValue", 2.5, text: "value: 2.5")
        try check(Google__Protobuf__FloatValue.self, "FloatValue", -0.25, text: "value: -0.25")
        // A present wrapper holding the default value packs to zero bytes, like protoc.
        try check(Google__Protobuf__StringValue.self, "StringValue", "", text: "")
    }

    @Test func absentAndPresentWrappersAsFields() throws {
        let absent: String? = try EncodingArena.with { arena in
            let c: UnsafeMutablePointer<Google__Protobuf__StringValue>? = arena.wrapped(nil as String?)
            return try Unpacked.wrapped(c, "nickname")
        }
        #expect(absent == nil)
        let present: String? = try EncodingArena.with { arena in
            let c: UnsafeMutablePointer<Google__Protobuf__StringValue>? = arena.wrapped("")
            return try Unpacked.wrapped(c, "nickname")
        }
        #expect(present == "")
    }

    @Test func invalidUTF8InAWrapperNamesTheField() {
        #expect(throws: ProtoDecodingError(messageType: "StringValue", reason: "field value is not valid UTF-8")) {
            try ([0x0a, 0x01, 0xff] as [UInt8]).withUnsafeBytes { try unpackMessage(WrapperMirror<Google__Protobuf__StringValue>.self, named: "StringValue", $0) }
        }
    }
}

@Suite struct MapTests {
    @Test func lastValueOfARepeatedKeyWins() throws {
        // metadata { key: "k" value: "1" } metadata { key: "k" value: "2" }
        let golden = try Protoc.encode("google.rpc.ErrorInfo", #"metadata { key: "k" value: "1" } metadata { key: "k" value: "2" }"#,
                                       files: ["google/rpc/error_details.proto"])
        #expect(try GoogleRPC.ErrorInfo(decoding: golden).metadata == ["k": "2"])
    }

    @Test func invalidUTF8InAMapNamesTheEntry() {
        // metadata { key: "\xff" }
        #expect(throws: ProtoDecodingError(messageType: "google.rpc.ErrorInfo", reason: "field metadata[0].key is not valid UTF-8")) {
            try GoogleRPC.ErrorInfo(decoding: [0x1a, 0x03, 0x0a, 0x01, 0xff])
        }
    }
}
