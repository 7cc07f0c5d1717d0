#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A UTC instant in whole microseconds since the Unix epoch, as the store records it.
public struct StoreTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var microsecondsSinceEpoch: Int64

    public init(microsecondsSinceEpoch: Int64) {
        self.microsecondsSinceEpoch = microsecondsSinceEpoch
    }

    /// The current wall-clock time.
    public static func now() -> StoreTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return StoreTime(microsecondsSinceEpoch: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000)
    }

    /// Milliseconds since the Unix epoch (rounded down).
    public var millisecondsSinceEpoch: Int64 { microsecondsSinceEpoch / 1_000 }

    /// This instant moved by `duration` (rounded to microseconds).
    public func adding(_ duration: Duration) -> StoreTime {
        let (seconds, attoseconds) = duration.components
        return StoreTime(microsecondsSinceEpoch: microsecondsSinceEpoch + seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }

    public static func < (lhs: StoreTime, rhs: StoreTime) -> Bool {
        lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
    }

    public var description: String { "\(microsecondsSinceEpoch)µs" }

    /// `2026-11-26 13:40:05 UTC` for a time in seconds since the Unix epoch.
    public static func utcText(unixSeconds: Int64) -> String {
        var seconds = time_t(unixSeconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S UTC", &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
