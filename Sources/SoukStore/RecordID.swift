import Synchronization

/// A record's identifier: a UUID, normally version 7 so that identifiers sort by creation time.
///
/// Stored as 16 big-endian bytes; comparing two identifiers compares those bytes, which is the
/// order RocksDB keeps them in.
public struct RecordID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The first 8 bytes, big-endian.
    public let high: UInt64
    /// The last 8 bytes, big-endian.
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// An identifier from 16 bytes (for example Foundation's `uuid_t` tuple, spread as an array).
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (i, byte) in bytes.enumerated() {
            if i < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.init(high: high, low: low)
    }

    /// An identifier from the canonical text form `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (either case).
    public init?(_ text: some StringProtocol) {
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(32)
        for (i, c) in text.utf8.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard c == UInt8(ascii: "-") else { return nil }
                continue
            }
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibbles.append(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        guard nibbles.count == 32, text.utf8.count == 36 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<16 { bytes[i] = nibbles[2 * i] << 4 | nibbles[2 * i + 1] }
        self.init(bytes: bytes)
    }

    /// The 16 bytes, big-endian.
    public var bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(16)
        appendBytes(to: &out)
        return out
    }

    /// Appends the 16 big-endian bytes to `buffer`.
    @inlinable
    public func appendBytes(to buffer: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: high >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: low >> UInt64(shift))) }
    }

    /// The UUID version (7 for identifiers made by `generate()`).
    public var version: Int { Int((high >> 12) & 0xF) }

    /// For a version 7 identifier, the millisecond Unix time it was made at.
    public var unixMilliseconds: Int64 { Int64(high >> 16) }

    /// The smallest version 7 identifier made at `time` or later; handy as a range bound on creation time.
    public static func firstV7(atOrAfter time: StoreTime) -> RecordID {
        let ms = UInt64(max(0, (time.microsecondsSinceEpoch + 999) / 1_000))
        return RecordID(high: ms << 16 | 0x7000, low: 0x8000_0000_0000_0000)
    }

    public var description: String {
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func < (lhs: RecordID, rhs: RecordID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    /// A new version 7 identifier (RFC 9562): 48-bit millisecond time, then a 12-bit counter that
    /// keeps identifiers made in the same millisecond by this process strictly increasing, then 62
    /// random bits.
    public static func generate() -> RecordID {
        let now = UInt64(max(0, StoreTime.now().millisecondsSinceEpoch))
        let (ms, counter) = v7Clock.withLock { state -> (UInt64, UInt64) in
            if now > state.milliseconds {
                state.milliseconds = now
                state.counter = UInt64.random(in: 0..<0x400)  // leave headroom for increments
            } else {
                state.counter += 1
                if state.counter > 0xFFF {  // counter exhausted: borrow the next millisecond
                    state.milliseconds += 1
                    state.counter = 0
                }
            }
            return (state.milliseconds, state.counter)
        }
        let random = UInt64.random(in: 0...UInt64.max)
        return RecordID(
            high: ms << 16 | 0x7000 | counter,
            low: 0x8000_0000_0000_0000 | (random & 0x3FFF_FFFF_FFFF_FFFF)
        )
    }
}

private struct V7ClockState {
    var milliseconds: UInt64 = 0
    var counter: UInt64 = 0
}

private let v7Clock = Mutex(V7ClockState())
