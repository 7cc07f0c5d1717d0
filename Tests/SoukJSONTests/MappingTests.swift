import Foundation
import Testing
@testable import SoukJSON

/// One rule of the proto3 JSON mapping per test, on the conformance types and the contract.
@Suite struct MappingTests {
    let json = Support.mapping
    static let allKinds = "souk.jsontest.AllKinds"
    static let wellKnown = "souk.jsontest.WellKnown"

    /// JSON → bytes → JSON.
    func roundTrip(_ text: String, _ type: String = allKinds, options: JSONEncodingOptions = .init()) throws -> String {
        try json.jsonString(fromBinary: try json.binary(fromJSON: text, messageType: type), messageType: type, options: options)
    }

    func error(_ text: String, _ type: String = allKinds, options: JSONDecodingOptions = .init()) -> ProtoJSONError? {
        do {
            _ = try json.binary(fromJSON: text, messageType: type, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func namesAreLowerCamelAndBothNamesAreRead() throws {
        #expect(try roundTrip(#"{"f_int32": 1, "fSint64": "2", "renamed": "a"}"#) == #"{"fInt32":1,"fSint64":"2","customName":"a"}"#)
        #expect(try roundTrip(#"{"customName": "b"}"#) == #"{"customName":"b"}"#)
        #expect(try roundTrip(#"{"fInt32": 1, "renamed": "a"}"#, options: .init(useProtoNames: true)) == #"{"f_int32":1,"renamed":"a"}"#)
        #expect(error(#"{"f_int32": 1, "fInt32": 2}"#)?.description == "f_int32: given twice (as f_int32 and fInt32)")
    }

    @Test func sixtyFourBitIntegersAreStringsAndNumbersAreRead() throws {
        #expect(try roundTrip(#"{"fInt64": 9223372036854775807, "fUint64": "18446744073709551615", "fSfixed64": -5, "fFixed64": "7"}"#)
            == #"{"fInt64":"9223372036854775807","fUint64":"18446744073709551615","fFixed64":"7","fSfixed64":"-5"}"#)
        #expect(try roundTrip(#"{"fInt32": "-12", "fUint32": 1e3, "fSint32": -2147483648, "fFixed32": 4294967295}"#)
            == #"{"fInt32":-12,"fFixed32":4294967295,"fUint32":1000,"fSint32":-2147483648}"#)
        #expect(error(#"{"fInt32": 2147483648}"#)?.description == "f_int32: 2147483648 is out of range for int32")
        #expect(error(#"{"fUint64": -1}"#)?.path == "f_uint64")
        #expect(error(#"{"fInt64": "9223372036854775808"}"#)?.reason == "9223372036854775808 is out of range for int64")
        #expect(error(#"{"fInt32": 1.5}"#)?.reason == "expected an integer, got 1.5")
        #expect(error(#"{"fInt32": " 1"}"#)?.reason == #"expected an integer, got " 1""#)
        #expect(error(#"{"fInt32": true}"#)?.reason == "expected an integer, got a boolean")
    }

    @Test func enumsByNameAndNumber() throws {
        #expect(try roundTrip(#"{"fEnum": "GREEN", "rEnum": ["RED", 2, -3, 99]}"#) == #"{"fEnum":"GREEN","rEnum":["RED","GREEN","BLUE",99]}"#)
        #expect(try roundTrip(#"{"fEnum": "COLOR_UNSPECIFIED"}"#) == "{}")
        #expect(error(#"{"fEnum": "PURPLE"}"#)?.description == #"f_enum: unknown value "PURPLE" of enum souk.jsontest.Color"#)
        #expect(try json.binary(fromJSON: #"{"fEnum": "PURPLE", "rEnum": ["PURPLE", "RED"]}"#, messageType: Self.allKinds, options: .init(ignoreUnknownFields: true))
            == json.binary(fromJSON: #"{"rEnum": ["RED"]}"#, messageType: Self.allKinds))
    }

    @Test func bytesAreBase64StandardOrURLSafe() throws {
        #expect(try roundTrip(#"{"fBytes": "+/8="}"#) == #"{"fBytes":"+/8="}"#)
        #expect(try roundTrip(#"{"fBytes": "-_8"}"#) == #"{"fBytes":"+/8="}"#)
        #expect(try roundTrip(#"{"rBytes": ["", "AA==", "AAE", "AAEC"]}"#) == #"{"rBytes":["","AA==","AAE=","AAEC"]}"#)
        #expect(error(#"{"fBytes": "a*b"}"#)?.description == "f_bytes: invalid base64")
        #expect(error(#"{"fBytes": "A"}"#)?.reason == "invalid base64")
        for bad in ["AA=A", "AA===", "=", "A===", "AAA==", "AB\u{e9}=", "AAAA AAAA"] {
            #expect(Base64.decode(bad) == nil, "\(bad)")
        }
    }

    /// The table-driven base64 agrees with Foundation's on every length around the group size.
    @Test func base64AgreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var encoded: [UInt8] = [UInt8(ascii: "x")]
            bytes.withUnsafeBytes { Base64.encode($0, into: &encoded) }
            let expected = Data(bytes).base64EncodedString()
            #expect(String(decoding: encoded.dropFirst(), as: UTF8.self) == expected)
            #expect(Base64.decode(expected) == bytes)
            let unpadded = expected.replacingOccurrences(of: "=", with: "")
            let urlSafe = unpadded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            #expect(Base64.decode(urlSafe) == bytes)
        }
    }

    @Test func floatsWithNaNAndInfinity() throws {
        #expect(try roundTrip(#"{"fDouble": "NaN", "fFloat": "-Infinity", "rDouble": [1.5, "Infinity", -0.25, 1e300, "2"]}"#)
            == #"{"fDouble":"NaN","fFloat":"-Infinity","rDouble":[1.5,"Infinity",-0.25,1e+300,2]}"#)
        #expect(try roundTrip(#"{"fFloat": 0.1, "fDouble": 0.1}"#) == #"{"fDouble":0.1,"fFloat":0.1}"#)
        #expect(error(#"{"fFloat": 1e39}"#)?.reason == "out of range for float")
        #expect(error(#"{"fDouble": 1e400}"#)?.path == "f_double")
        #expect(error(#"{"fDouble": "nan"}"#)?.reason == #"expected a number, got "nan""#)
    }

    @Test func defaultsAreLeftOutUnlessPresenceIsTracked() throws {
        #expect(try roundTrip(#"{"fInt32": 0, "fString": "", "fBool": false, "rInt32": [], "mStringInt32": {}}"#) == "{}")
        #expect(try roundTrip(#"{"oInt32": 0, "oString": "", "oEnum": "COLOR_UNSPECIFIED", "child": {}, "cString": ""}"#)
            == #"{"child":{},"oInt32":0,"oString":"","oEnum":"COLOR_UNSPECIFIED","cString":""}"#)
        #expect(try roundTrip(#"{"fInt32": null, "child": null, "rInt32": null}"#) == "{}")
    }

    @Test func defaultsAndEnumNumbersOnRequest() throws {
        let options = JSONEncodingOptions(emitDefaultValues: true, enumsAsIntegers: true)
        let money = try roundTrip(#"{"currencyCode": "USD"}"#, "souk.v1.Money", options: options)
        #expect(money == #"{"amountMinor":"0","currencyCode":"USD"}"#)
        let all = try Support.parse(roundTrip(#"{"fEnum": "RED", "rInt32": [], "child": {}}"#, options: options))
        guard case .object(let members) = all else { throw ProtoJSONError(path: "", reason: "not an object") }
        let byName = Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) })
        #expect(byName["fEnum"] == .number("1") && byName["fDouble"] == .number("0") && byName["fBytes"] == .string(""))
        #expect(byName["rInt32"] == .array([]) && byName["mStringInt32"] == .object([]) && byName["customName"] == .string(""))
        #expect(byName["child"] == .object(members.isEmpty ? [] : (try Support.parse(roundTrip("{}", options: options)).objectMembers)))
        // Presence-tracking fields stay out when unset.
        #expect(byName["oInt32"] == nil && byName["cString"] == nil && byName["oChild"] == nil)
        #expect(try roundTrip("{}", Self.wellKnown, options: options).contains(#""rTimestamp":[]"#))
    }

    @Test func repeatedAndMapFields() throws {
        #expect(try roundTrip(#"{"rInt64": ["1", -2], "rChild": [{"fInt32": 1}, {}], "rUnpackedInt32": [3, 4]}"#)
            == #"{"rInt64":["1","-2"],"rChild":[{"fInt32":1},{}],"rUnpackedInt32":[3,4]}"#)
        #expect(try roundTrip(#"{"mInt64String": {"-5": "a"}, "mBoolChild": {"true": {"fBool": true}}, "mUint32Enum": {"7": "RED"}, "mStringValue": {"k": null}}"#)
            == #"{"mInt64String":{"-5":"a"},"mBoolChild":{"true":{"fBool":true}},"mUint32Enum":{"7":"RED"},"mStringValue":{"k":null}}"#)
        #expect(error(#"{"mInt64String": {"x": "a"}}"#)?.description == #"m_int64_string["x"]: expected an integer, got "x""#)
        #expect(error(#"{"mBoolChild": {"yes": {}}}"#)?.path == #"m_bool_child["yes"]"#)
        #expect(error(#"{"mStringInt32": {"a": null}}"#)?.reason == "a map value may not be null")
        #expect(error(#"{"rInt32": [1, null]}"#)?.description == "r_int32[1]: an array element may not be null")
        #expect(error(#"{"rInt32": 1}"#)?.reason == "expected an array, got a number")
    }

    @Test func oneofs() throws {
        #expect(try roundTrip(#"{"cInt64": 0}"#) == #"{"cInt64":"0"}"#)
        #expect(try roundTrip(#"{"cString": null, "cEnum": "RED"}"#) == #"{"cEnum":"RED"}"#)
        #expect(error(#"{"cString": "a", "cInt64": 1}"#)?.description == "c_int64: oneof choice already has c_string")
        // On the wire the last member wins.
        var w = WireWriter()
        w.lengthDelimited(60, Array("a".utf8))
        w.tag(61, .varint); w.varint(5)
        #expect(try json.jsonString(fromBinary: w.bytes, messageType: Self.allKinds) == #"{"cInt64":"5"}"#)
    }

    @Test func unknownFields() throws {
        var w = WireWriter()
        w.tag(999, .varint); w.varint(1)
        w.tag(5, .varint); w.varint(7)
        w.lengthDelimited(1000, [1, 2, 3])
        w.tag(1001, .startGroup); w.tag(1, .fixed32); w.fixed32(1); w.tag(1001, .endGroup)
        w.tag(9, .varint); w.varint(1)  // a string field with the wrong wire type reads as unknown
        #expect(try json.jsonString(fromBinary: w.bytes, messageType: Self.allKinds) == #"{"fInt32":7}"#)
        #expect(error(#"{"child": {"nope": 1}}"#)?.description == "child.nope: unknown field of souk.jsontest.AllKinds")
        #expect(try json.binary(fromJSON: #"{"nope": {"deep": [1]}, "fInt32": 1}"#, messageType: Self.allKinds, options: .init(ignoreUnknownFields: true))
            == json.binary(fromJSON: #"{"fInt32": 1}"#, messageType: Self.allKinds))
    }

    @Test func wireVariantsReadAsProtobufDoes() throws {
        var w = WireWriter()
        // Unpacked values of a packed field, packed values of an unpacked one, fields out of order,
        // a singular field twice (the last wins), a message field twice (merged).
        w.tag(25, .varint); w.varint(1)
        w.tag(25, .varint); w.varint(2)
        w.nested(38) { $0.varint(3); $0.varint(4) }
        w.tag(5, .varint); w.varint(1)
        w.tag(5, .varint); w.varint(2)
        w.nested(17) { $0.tag(5, .varint); $0.varint(9) }
        w.nested(17) { $0.tag(8, .varint); $0.varint(1) }
        w.tag(3, .varint); w.varint(UInt64.max)
        // A map entry whose message value comes in two parts, and a later entry of the same key
        // that replaces an earlier one.
        w.nested(72) { entry in
            entry.tag(1, .varint); entry.varint(1)
            entry.nested(2) { $0.tag(5, .varint); $0.varint(1) }
            entry.nested(2) { $0.tag(8, .varint); $0.varint(1) }
        }
        w.nested(71) { $0.tag(1, .varint); $0.varint(7); $0.lengthDelimited(2, Array("old".utf8)) }
        w.nested(71) { $0.tag(1, .varint); $0.varint(7); $0.lengthDelimited(2, Array("new".utf8)) }
        w.nested(71) { $0.lengthDelimited(2, Array("no key".utf8)) }
        #expect(try json.jsonString(fromBinary: w.bytes, messageType: Self.allKinds)
            == #"{"fInt64":"-1","fInt32":2,"child":{"fInt32":9,"fBool":true},"rInt32":[1,2],"rUnpackedInt32":[3,4],"mInt64String":{"7":"new","0":"no key"},"mBoolChild":{"true":{"fInt32":1,"fBool":true}}}"#)
    }

    @Test func timestampsAndDurations() throws {
        #expect(try roundTrip(#"{"timestamp": "1972-01-01T10:00:20.021Z", "duration": "1.5s"}"#, Self.wellKnown)
            == #"{"timestamp":"1972-01-01T10:00:20.021Z","duration":"1.500s"}"#)
        #expect(try roundTrip(#"{"timestamp": "2026-11-27T01:30:00.000001+01:30", "duration": "-0.000000001s"}"#, Self.wellKnown)
            == #"{"timestamp":"2026-11-27T00:00:00.000001Z","duration":"-0.000000001s"}"#)
        #expect(try roundTrip(#"{"timestamp": "0001-01-01T00:00:00Z", "rTimestamp": ["9999-12-31T23:59:59.999999999Z"], "rDuration": ["315576000000s", "0s"]}"#, Self.wellKnown)
            == #"{"timestamp":"0001-01-01T00:00:00Z","rTimestamp":["9999-12-31T23:59:59.999999999Z"],"rDuration":["315576000000s","0s"]}"#)
        #expect(error(#"{"timestamp": "2026-02-30T00:00:00Z"}"#, Self.wellKnown)?.description == #"timestamp: invalid RFC 3339 timestamp "2026-02-30T00:00:00Z""#)
        #expect(error(#"{"timestamp": "2026-01-01 00:00:00Z"}"#, Self.wellKnown)?.path == "timestamp")
        #expect(error(#"{"duration": "1.5"}"#, Self.wellKnown)?.path == "duration")
        #expect(error(#"{"duration": "315576000001s"}"#, Self.wellKnown)?.path == "duration")
        // Out of range on the wire.
        var w = WireWriter()
        w.nested(1) { $0.tag(1, .varint); $0.varint(UInt64(bitPattern: -62_135_596_801)) }
        #expect(throws: ProtoJSONError(path: "timestamp", reason: "timestamp out of range")) {
            try json.json(fromBinary: w.bytes, messageType: Self.wellKnown)
        }
    }

    @Test func fieldMasksWrappersAndEmpty() throws {
        #expect(try roundTrip(#"{"mask": "displayName,price.unitAmount", "wInt64": "5", "wBool": false, "wBytes": "AQ==", "wString": "", "wFloat": "NaN", "empty": {}}"#, Self.wellKnown)
            == #"{"mask":"displayName,price.unitAmount","empty":{},"wFloat":"NaN","wInt64":"5","wBool":false,"wString":"","wBytes":"AQ=="}"#)
        #expect(try json.binary(fromJSON: #""displayName,a.bC""#, messageType: "google.protobuf.FieldMask")
            == [0x0a, 0x0c] + Array("display_name".utf8) + [0x0a, 0x05] + Array("a.b_c".utf8))
        #expect(try roundTrip(#"{"mask": ""}"#, Self.wellKnown) == #"{"mask":""}"#)
        #expect(error(#"{"mask": "display_name"}"#, Self.wellKnown)?.path == "mask")
        #expect(error(#"{"wInt32": "x"}"#, Self.wellKnown)?.description == #"w_int32: expected an integer, got "x""#)
    }

    @Test func structValueListValueAndNull() throws {
        let text = #"{"struct":{"a":[1,"x",true,null,{"b":{}}],"c":-2.5},"value":"s","list":[[],{}],"nullValue":null,"rValue":[null,1],"oNull":null}"#
        #expect(try Support.jsonEqual(Support.parse(roundTrip(text, Self.wellKnown)), Support.parse(
            #"{"struct":{"a":[1,"x",true,null,{"b":{}}],"c":-2.5},"value":"s","list":[[],{}],"rValue":[null,1],"oNull":null}"#)))
        #expect(try roundTrip(#"{"value": null}"#, Self.wellKnown) == #"{"value":null}"#)
        #expect(try roundTrip(#"{"value": {"k": [1e300]}}"#, Self.wellKnown) == #"{"value":{"k":[1e+300]}}"#)
        #expect(try json.jsonString(fromBinary: [], messageType: "google.protobuf.Value") == "null")
        #expect(error(#"{"value": 1e400}"#, Self.wellKnown)?.path == "value")
    }

    @Test func anyCarriesItsType() throws {
        let message = #"{"any":{"@type":"type.googleapis.com/souk.jsontest.AllKinds","fInt32":3,"child":{"fBool":true}}}"#
        #expect(try roundTrip(message, Self.wellKnown) == message)
        let wkt = #"{"any":{"@type":"type.googleapis.com/google.protobuf.Duration","value":"2s"},"rAny":[{"@type":"type.googleapis.com/google.protobuf.Empty"},{}]}"#
        #expect(try roundTrip(wkt, Self.wellKnown) == wkt)
        let nested = #"{"any":{"@type":"type.googleapis.com/google.protobuf.Any","value":{"@type":"type.googleapis.com/google.protobuf.Int64Value","value":"5"}}}"#
        #expect(try roundTrip(nested, Self.wellKnown) == nested)
        #expect(error(#"{"any":{"@type":"type.googleapis.com/x.Nope"}}"#, Self.wellKnown)?.description == "any: Any holds unknown type type.googleapis.com/x.Nope")
        #expect(error(#"{"any":{"fInt32":1}}"#, Self.wellKnown)?.reason == #"Any without "@type""#)
        #expect(error(#"{"any":{"@type":"type.googleapis.com/souk.jsontest.AllKinds","nope":1}}"#, Self.wellKnown)?.path == "any.nope")
    }

    @Test func errorsNameThePathOfTheBadField() throws {
        let cart = #"{"lines": [{"quantity": 1}, {"quantity": 2}, {"quantity": "three"}]}"#
        #expect(error(cart, "souk.v1.Cart")?.description == #"lines[2].quantity: expected an integer, got "three""#)
        #expect(error(#"{"lines": [{}, {"unitPrice": {"currencyCode": 5}}]}"#, "souk.v1.Cart")?.description
            == "lines[1].unit_price.currency_code: expected a string, got a number")
        #expect(error(#"{"lines": {}}"#, "souk.v1.Cart")?.description == "lines: expected an array, got an object")
        #expect(error("[]", "souk.v1.Cart")?.description == "expected an object, got an array")
        #expect(error("{", "souk.v1.Cart")?.description == "invalid JSON at byte 1: expected a string key")
        #expect(error("{}", "souk.v1.Nope")?.description == "unknown message type souk.v1.Nope")
    }

    @Test func prettyOutputIsIndentedByTwo() throws {
        let pretty = try roundTrip(#"{"fInt32": 1, "rInt32": [1, 2], "child": {}, "mStringInt32": {"a": 1}}"#, options: .init(pretty: true))
        #expect(pretty == """
            {
              "fInt32": 1,
              "child": {},
              "rInt32": [
                1,
                2
              ],
              "mStringInt32": {
                "a": 1
              }
            }
            """)
    }

    @Test func stringsAreEscaped() throws {
        let text = #"{"fString": "q\" b\\ \n \u0001 é 😀 \ud83d\ude00 /"}"#
        #expect(try roundTrip(text) == #"{"fString":"q\" b\\ \n \u0001 é 😀 😀 /"}"#)
    }

    @Test func registryDescribesServicesAndMethods() throws {
        let registry = DescriptorRegistry.embedded
        let list = try #require(registry.method(named: "souk.v1.Catalog/ListProducts"))
        #expect(list.path == "/souk.v1.Catalog/ListProducts")
        #expect(list.inputType == "souk.v1.ListProductsRequest" && list.outputType == "souk.v1.ListProductsResponse")
        #expect(!list.clientStreaming && !list.serverStreaming)
        let watch = try #require(registry.method(named: "/souk.v1.Orders/WatchOrder"))
        #expect(watch.serverStreaming && !watch.clientStreaming)
        #expect(registry.method(named: "souk.v1.Catalog.ListProducts")?.name == "ListProducts")
        #expect(registry.services.contains { $0.fullName == "grpc.health.v1.Health" })
        let request = try #require(registry.message(named: "souk.v1.ListProductsRequest"))
        #expect(request.field(named: "pageSize")?.name == "page_size")
        #expect(request.field(named: "order_by")?.jsonName == "orderBy")
        // The embedded set lacks struct.proto and wrappers.proto; the mapping adds them.
        #expect(registry.message(named: "google.protobuf.Struct") != nil && registry.message(named: "google.protobuf.BoolValue") != nil)
        let allKinds = try #require(Support.registry.message(named: Self.allKinds))
        #expect(allKinds.oneofs == ["choice"])
        #expect(allKinds.field(named: "o_int32")?.isProto3Optional == true && allKinds.field(named: "o_int32")?.oneofIndex == nil)
        #expect(allKinds.field(named: "r_unpacked_int32")?.isPacked == false && allKinds.field(named: "r_int32")?.isPacked == true)
        let map = try #require(allKinds.field(named: "mStringInt32"))
        #expect(map.isMap && Support.registry.messageType(of: map)?.isMapEntry == true)
        #expect(Support.registry.messageType(of: map)?.fields.map(\.name) == ["key", "value"])
        #expect(Support.registry.enumType(of: allKinds.field(named: "f_enum")!)?.values.map(\.name) == ["COLOR_UNSPECIFIED", "RED", "GREEN", "BLUE"])
    }
}
