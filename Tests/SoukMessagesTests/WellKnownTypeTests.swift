import Testing
@testable import SoukMessages

@Suite struct TimestampTests {
    @Test func roundTripsIncludingBeforeTheEpoch() throws {
        _ = try roundTrip(Timestamp(seconds: 1_700_000_000, nanos: 123_456_789))
        _ = try roundTrip(Timestamp(seconds: -62_135_596_800, nanos: 0)) // 0001-01-01
        _ = try roundTrip(Timestamp(seconds: -1, nanos: 999_999_999))
    }

    @Test func normalisesNanos() {
        #expect(Timestamp(seconds: 10, nanos: 1_500_000_000) == Timestamp(seconds: 11, nanos: 500_000_000))
        #expect(Timestamp(seconds: 10, nanos: -1) == Timestamp(seconds: 9, nanos: 999_999_999))
        #expect(Timestamp(millisecondsSince1970: -1) == Timestamp(seconds: -1, nanos: 999_000_000))
        #expect(Timestamp(millisecondsSince1970: 1_700_000_000_123).millisecondsSince1970 == 1_700_000_000_123)
    }

    @Test func arithmeticWithDurations() {
        let start = Timestamp(seconds: 100, nanos: 900_000_000)
        let later = start.advanced(by: .milliseconds(250))
        #expect(later == Timestamp(seconds: 101, nanos: 150_000_000))
        #expect(later - start == .milliseconds(250))
        #expect(start.advanced(by: .seconds(-1)) == Timestamp(seconds: 99, nanos: 900_000_000))
        #expect(start < later)
        #expect(Timestamp.now() > Timestamp(seconds: 1_600_000_000))
    }

    @Test func outOfRangeNanosAreRefused() {
        // nanos = -1 (as a 10-byte varint)
        let bytes: [UInt8] = [0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
        #expect(throws: ProtoDecodingError(messageType: "google.protobuf.Timestamp", reason: "field nanos is out of range (-1)")) {
            try Timestamp(decoding: bytes)
        }
    }
}

@Suite struct DurationTests {
    @Test func protoComponentsShareTheSign() {
        #expect(Duration.milliseconds(1500).protoComponents == (1, 500_000_000))
        #expect(Duration.milliseconds(-1500).protoComponents == (-1, -500_000_000))
        #expect(Duration.nanoseconds(-5).protoComponents == (0, -5))
        #expect((Duration.seconds(3) + .nanoseconds(1)).protoComponents == (3, 1))
    }

    @Test func durationFieldsRoundTrip() throws {
        for delay in [Duration.seconds(0), .milliseconds(1500), .milliseconds(-1500), .seconds(315_576_000_000)] {
            _ = try roundTrip(GoogleRPC.RetryInfo(retryDelay: delay))
        }
        #expect(try roundTrip(GoogleRPC.RetryInfo(retryDelay: nil)).isEmpty)
        #expect(try roundTrip(GoogleRPC.RetryInfo(retryDelay: .zero)) == [0x0a, 0x00])
    }

    @Test func mixedSignsAreRefusedNamingTheField() {
        // retry_delay { seconds: 1 nanos: -1 }
        let bytes: [UInt8] = [0x0a, 0x0d, 0x08, 0x01, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
        #expect(throws: ProtoDecodingError(messageType: "google.rpc.RetryInfo", reason: "field retry_delay.nanos is out of range (-1 with seconds 1)")) {
            try GoogleRPC.RetryInfo(decoding: bytes)
        }
    }
}

@Suite struct AnyAndStatusTests {
    @Test func anyPacksAndUnpacksByTypeName() throws {
        let badRequest = GoogleRPC.BadRequest(fieldViolations: [.init(field: "email", description: "is not an email address")])
        let any = GoogleProtobuf.AnyMessage(packing: badRequest)
        #expect(any.typeURL == "type.googleapis.com/google.rpc.BadRequest")
        #expect(try any.unpack(GoogleRPC.BadRequest.self) == badRequest)
        #expect(try any.unpack(GoogleRPC.RetryInfo.self) == nil)
        _ = try roundTrip(any)
    }

    @Test func errorInfoMapIsSortedAndRoundTrips() throws {
        let info = GoogleRPC.ErrorInfo(reason: "ORDER_ALREADY_CANCELLED", domain: "souk.v1", metadata: ["b": "2", "a": "1", "c": ""])
        let bytes = try roundTrip(info)
        #expect(bytes == GoogleRPC.ErrorInfo(reason: info.reason, domain: info.domain, metadata: ["c": "", "a": "1", "b": "2"]).encoded())
        #expect(try roundTrip(GoogleRPC.ErrorInfo(metadata: [:])).isEmpty)
    }

    @Test func statusHoldsTypedDetailsInOrder() throws {
        let info = GoogleRPC.ErrorInfo(reason: "STALE_VERSION", domain: "souk.v1", metadata: ["current_version": "4"])
        let localized = GoogleRPC.LocalizedMessage(locale: "vi", message: "Dữ liệu đã thay đổi")
        let status = GoogleRPC.Status(code: 10, message: "account is at version 4", details: [
            GoogleProtobuf.AnyMessage(packing: info), GoogleProtobuf.AnyMessage(packing: localized),
        ])
        let decoded = try GoogleRPC.Status(decoding: try roundTrip(status))
        #expect(decoded == status)
        #expect(try decoded.details[0].unpack(GoogleRPC.ErrorInfo.self) == info)
        #expect(try decoded.details[0].unpack(GoogleRPC.LocalizedMessage.self) == nil)
        #expect(try decoded.details[1].unpack(GoogleRPC.LocalizedMessage.self) == localized)
        #expect(decoded.details[1].typeURL == "type.googleapis.com/google.rpc.LocalizedMessage")
    }
}
