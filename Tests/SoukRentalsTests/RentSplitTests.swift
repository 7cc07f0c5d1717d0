import SoukRentals
import SoukTesting
import Testing

/// The three-way split of rental payments: exact to the dong, with one rounding rule.
@Suite struct RentSplitTests {
    @Test func aMonthOfRentSplitsAsStated() {
        // 3 % of 1,234,567 is 37,037.01 → 37,037; 5 % is 61,728.35 → 61,728; the lessor gets the rest.
        let split = RentSplit(amount: 1_234_567, providerBps: 300, platformBps: 500)
        #expect(split == RentSplit(providerFee: 37_037, platformFee: 61_728, lessorShare: 1_135_802))
    }

    @Test func halvesRoundAwayFromZero() {
        #expect(RentSplit.fee(50, bps: 100) == 1)      // 0.5
        #expect(RentSplit.fee(149, bps: 100) == 1)     // 1.49
        #expect(RentSplit.fee(150, bps: 100) == 2)     // 1.5
        #expect(RentSplit.fee(-150, bps: 100) == -2)
    }

    @Test func feesTakingEverythingLeaveNothingNegative() {
        // Two halves of one dong both round up: the platform fee gets only what the provider fee leaves.
        #expect(RentSplit(amount: 1, providerBps: 5_000, platformBps: 5_000) == RentSplit(providerFee: 1, platformFee: 0, lessorShare: 0))
        #expect(RentSplit(amount: 0, providerBps: 300, platformBps: 500) == RentSplit(providerFee: 0, platformFee: 0, lessorShare: 0))
    }

    /// Many random amounts up to 10^12 dong and fee rates: the parts add up exactly, none is
    /// negative, and each fee is its exact value rounded half away from zero.
    @Test func randomSplitsAreExact() {
        var random = SplitMix(state: 0x5EED_4A4A)
        for round in 0..<20_000 {
            let amount = round % 4 == 0 ? Int64.random(in: 0...1_000, using: &random) : Int64.random(in: 0...1_000_000_000_000, using: &random)
            let provider = Int32.random(in: 0...10_000, using: &random)
            let platform = Int32.random(in: 0...(10_000 - provider), using: &random)
            let split = RentSplit(amount: amount, providerBps: provider, platformBps: platform)
            #expect(split.providerFee + split.platformFee + split.lessorShare == amount)
            #expect(split.providerFee >= 0 && split.platformFee >= 0 && split.lessorShare >= 0)
            #expect(Self.isRounded(split.providerFee, amount: amount, bps: provider))
            if split.providerFee + Self.rounded(amount, bps: platform) <= amount {
                #expect(Self.isRounded(split.platformFee, amount: amount, bps: platform))
            } else {
                #expect(split.platformFee == amount - split.providerFee)
            }
        }
    }

    /// Whether `fee` is amount × bps / 10,000 rounded half away from zero, checked in exact
    /// integers: within half a unit, and a tie goes up.
    static func isRounded(_ fee: Int64, amount: Int64, bps: Int32) -> Bool {
        let exact = amount * Int64(bps)
        let difference = fee * 10_000 - exact
        return abs(difference) < 5_000 || difference == 5_000
    }

    static func rounded(_ amount: Int64, bps: Int32) -> Int64 { (amount * Int64(bps) * 2 + 10_000) / 20_000 }
}
