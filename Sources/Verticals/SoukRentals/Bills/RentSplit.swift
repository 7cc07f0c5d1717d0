/// The three-way division of a rental payment in whole minor units (VND has none below the
/// dong): each fee is amount × bps / 10,000 rounded half away from zero, the platform fee never
/// more than the provider fee leaves, and the lessor gets the rest, so the parts add up exactly.
public struct RentSplit: Sendable, Equatable {
    public var providerFee: Int64
    public var platformFee: Int64
    public var lessorShare: Int64

    public init(providerFee: Int64, platformFee: Int64, lessorShare: Int64) {
        self.providerFee = providerFee
        self.platformFee = platformFee
        self.lessorShare = lessorShare
    }

    /// Splits `amount` (≥ 0) with fees of `providerBps` and `platformBps` (each 0…10,000, together
    /// at most 10,000, as the marketplace settings are checked).
    public init(amount: Int64, providerBps: Int32, platformBps: Int32) {
        providerFee = min(Self.fee(amount, bps: providerBps), amount)
        platformFee = min(Self.fee(amount, bps: platformBps), amount - providerFee)
        lessorShare = amount - providerFee - platformFee
    }

    /// `amount` × `bps` / 10,000, rounded half away from zero. Amounts up to 9 × 10^14 minor units
    /// cannot overflow.
    public static func fee(_ amount: Int64, bps: Int32) -> Int64 {
        let product = amount * Int64(bps)
        let (quotient, remainder) = product.quotientAndRemainder(dividingBy: 10_000)
        guard remainder.magnitude * 2 >= 10_000 else { return quotient }
        return quotient + (product < 0 ? -1 : 1)
    }
}
