/// A `grpc-timeout` value: at most 8 ASCII digits and a unit (H, M, S, m, u, n).
///
/// A malformed value ends the call with INTERNAL ("malformed grpc-timeout"), as grpc-go does and
/// as grpc C++ treats a metadata parse error; the spec leaves the code unstated.
public struct GRPCTimeout: Sendable, Hashable, CustomStringConvertible {
    /// The digits of the value (0 ... 99_999_999).
    public let amount: Int64
    /// The unit of the value.
    public let unit: Unit

    /// A `grpc-timeout` unit.
    public enum Unit: UInt8, Sendable, CaseIterable {
        case hours = 0x48  // H
        case minutes = 0x4D  // M
        case seconds = 0x53  // S
        case milliseconds = 0x6D  // m
        case microseconds = 0x75  // u
        case nanoseconds = 0x6E  // n

        /// Nanoseconds in one unit.
        var nanoseconds: Int64 {
            switch self {
            case .hours: 3_600_000_000_000
            case .minutes: 60_000_000_000
            case .seconds: 1_000_000_000
            case .milliseconds: 1_000_000
            case .microseconds: 1_000
            case .nanoseconds: 1
            }
        }
    }

    /// The largest value the 8 digits allow.
    public static let maxAmount: Int64 = 99_999_999

    public init(amount: Int64, unit: Unit) {
        precondition((0...Self.maxAmount).contains(amount), "grpc-timeout has at most 8 digits")
        self.amount = amount
        self.unit = unit
    }

    /// Parses a header value; nil when it is not 1 to 8 digits followed by a known unit.
    public init?(parsing value: String) {
        guard let last = value.utf8.last, let unit = Unit(rawValue: last) else { return nil }
        let digits = value.utf8.dropLast()
        guard (1...8).contains(digits.count) else { return nil }
        var amount: Int64 = 0
        for byte in digits {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            amount = amount * 10 + Int64(byte - 0x30)
        }
        self.amount = amount
        self.unit = unit
    }

    /// The smallest timeout with at most 8 digits that is not shorter than `duration`
    /// (negative durations become zero; longer than 99999999 hours becomes that).
    public init(rounding duration: Duration) {
        guard duration > .zero else {
            self.init(amount: 0, unit: .nanoseconds)
            return
        }
        let (seconds, attoseconds) = duration.components
        // Whole nanoseconds, rounded up; 128 bits hold any Duration.
        let nanos = Int128(seconds) * 1_000_000_000 + Int128((attoseconds + 999_999_999) / 1_000_000_000)
        for unit in [Unit.nanoseconds, .microseconds, .milliseconds, .seconds, .minutes, .hours] {
            let (quotient, remainder) = nanos.quotientAndRemainder(dividingBy: Int128(unit.nanoseconds))
            let amount = remainder == 0 ? quotient : quotient + 1
            if amount <= Int128(Self.maxAmount) {
                self.init(amount: Int64(amount), unit: unit)
                return
            }
        }
        self.init(amount: Self.maxAmount, unit: .hours)
    }

    /// The header value, for example `250m`.
    public var headerValue: String {
        String(amount) + String(UnicodeScalar(unit.rawValue))
    }

    public var description: String { headerValue }

    /// The timeout as a duration.
    public var duration: Duration {
        switch unit {
        case .hours: .seconds(amount * 3600)
        case .minutes: .seconds(amount * 60)
        case .seconds: .seconds(amount)
        case .milliseconds: .milliseconds(amount)
        case .microseconds: .microseconds(amount)
        case .nanoseconds: .nanoseconds(amount)
        }
    }

    /// The timeout in nanoseconds, saturating at `Int64.max` (about 292 years).
    public var nanoseconds: Int64 {
        let (value, overflow) = amount.multipliedReportingOverflow(by: unit.nanoseconds)
        return overflow ? Int64.max : value
    }
}
