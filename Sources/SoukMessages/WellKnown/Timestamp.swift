import CProtobufC
import SoukProtoC

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point in UTC time with nanosecond precision: `google.protobuf.Timestamp`.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var seconds: Int64
    /// Nanoseconds within the second, 0 ..< 1_000_000_000.
    public var nanos: Int32

    /// `nanos` outside 0 ..< 1_000_000_000 is carried into `seconds`.
    public init(seconds: Int64, nanos: Int32 = 0) {
        let carry = Int64(nanos).quotientAndRemainder(dividingBy: 1_000_000_000)
        var seconds = seconds + carry.quotient
        var nanos = carry.remainder
        if nanos < 0 {
            seconds -= 1
            nanos += 1_000_000_000
        }
        self.seconds = seconds
        self.nanos = Int32(nanos)
    }

    /// Milliseconds since 1970-01-01T00:00:00Z.
    public init(millisecondsSince1970 milliseconds: Int64) {
        let split = milliseconds.quotientAndRemainder(dividingBy: 1000)
        self.init(seconds: split.quotient, nanos: Int32(split.remainder * 1_000_000))
    }

    /// Milliseconds since 1970-01-01T00:00:00Z, rounded down.
    public var millisecondsSince1970: Int64 {
        seconds * 1000 + Int64(nanos / 1_000_000)
    }

    /// The current time, from the system's real-time clock.
    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(seconds: Int64(spec.tv_sec), nanos: Int32(spec.tv_nsec))
    }

    /// This time moved by `duration` (sub-nanosecond parts are dropped).
    public func advanced(by duration: Duration) -> Timestamp {
        let (seconds, nanos) = duration.protoComponents
        return Timestamp(seconds: self.seconds + seconds, nanos: self.nanos + nanos)
    }

    /// The time from `other` to `self`.
    public static func - (lhs: Timestamp, rhs: Timestamp) -> Duration {
        .seconds(lhs.seconds - rhs.seconds) + .nanoseconds(Int64(lhs.nanos) - Int64(rhs.nanos))
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }

    /// Seconds and nanoseconds since the epoch, for logs.
    public var description: String {
        let fraction = String(nanos)
        return "\(seconds).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)s"
    }
}

extension Timestamp: CProtoMessage {
    public static var protoName: String { "google.protobuf.Timestamp" }

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__Timestamp>) {
        google__protobuf__timestamp__init(c)
    }

    /// A timestamp's nanos must be 0 ..< 1_000_000_000 (as the well-known type requires).
    init(c: Google__Protobuf__Timestamp) throws {
        guard (0..<1_000_000_000).contains(c.nanos) else {
            throw FieldError("nanos", "is out of range (\(c.nanos))")
        }
        self.init(seconds: c.seconds, nanos: c.nanos)
    }

    func fill(_ c: inout Google__Protobuf__Timestamp, _ arena: inout EncodingArena) {
        c.seconds = seconds
        c.nanos = nanos
    }
}
