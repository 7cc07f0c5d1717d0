import Testing

@testable import SoukGRPC

@Suite struct TimeoutTests {
    @Test(arguments: [
        ("1H", Duration.seconds(3600)),
        ("2M", Duration.seconds(120)),
        ("30S", Duration.seconds(30)),
        ("250m", Duration.milliseconds(250)),
        ("15u", Duration.microseconds(15)),
        ("99999999n", Duration.nanoseconds(99_999_999)),
        ("0S", Duration.zero),
        ("00000007m", Duration.milliseconds(7)),
    ])
    func parsesEveryUnit(value: String, expected: Duration) throws {
        let timeout = try #require(GRPCTimeout(parsing: value))
        #expect(timeout.duration == expected)
        #expect(timeout.nanoseconds == Int64(expected.components.seconds) * 1_000_000_000 + expected.components.attoseconds / 1_000_000_000)
    }

    @Test(arguments: ["", "S", "1", "123456789S", "1s", "1x", "-1S", "+1S", " 1S", "1 S", "1.5S", "１S", "1SS", "abcS"])
    func refusesMalformedValues(value: String) {
        #expect(GRPCTimeout(parsing: value) == nil)
    }

    @Test func largestHourValueDoesNotOverflow() throws {
        let timeout = try #require(GRPCTimeout(parsing: "99999999H"))
        #expect(timeout.duration == .seconds(Int64(99_999_999) * 3600))
        #expect(timeout.nanoseconds == Int64.max)
    }

    @Test func formatsWithTheFinestUnitThatFits() {
        #expect(GRPCTimeout(rounding: .milliseconds(25)).headerValue == "25000000n")
        #expect(GRPCTimeout(rounding: .milliseconds(250)).headerValue == "250000u")
        #expect(GRPCTimeout(rounding: .seconds(1)).headerValue == "1000000u")
        #expect(GRPCTimeout(rounding: .seconds(100)).headerValue == "100000m")
        #expect(GRPCTimeout(rounding: .seconds(100_000)).headerValue == "100000S")
        #expect(GRPCTimeout(rounding: .seconds(100_000_000)).headerValue == "1666667M")
        #expect(GRPCTimeout(rounding: .seconds(Int64(99_999_999) * 3600 * 100)).headerValue == "99999999H")
        #expect(GRPCTimeout(rounding: .zero).headerValue == "0n")
        #expect(GRPCTimeout(rounding: .seconds(-5)).headerValue == "0n")
    }

    @Test func formattingRoundsUpAndRoundTrips() throws {
        // 100 s + 1 ns needs 100000000001 ns: too many digits for n and u, rounded up in m.
        let timeout = GRPCTimeout(rounding: .seconds(100) + .nanoseconds(1))
        #expect(timeout.headerValue == "100001m")
        #expect(timeout.duration >= .seconds(100) + .nanoseconds(1))
        for unit in GRPCTimeout.Unit.allCases {
            let original = GRPCTimeout(amount: 12_345_678, unit: unit)
            #expect(GRPCTimeout(parsing: original.headerValue) == original)
        }
    }
}
