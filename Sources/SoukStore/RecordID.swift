import Synchronization
#if canImport(Glibc)
import Glibc
#endif

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
        // A native string or substring is read in place, without a copy.
        if let parsed = text.utf8.withContiguousStorageIfAvailable(RecordID.parse) {
            guard let id = parsed else { return nil }
            self = id
            return
        }
        var text = String(text)
        guard let id = text.withUTF8(RecordID.parse) else { return nil }
        self = id
    }

    /// An identifier from the UTF-8 bytes of its canonical text form (either case).
    public init?(utf8: UnsafeBufferPointer<UInt8>) {
        guard let id = RecordID.parse(utf8) else { return nil }
        self = id
    }

    /// By fixed positions and a table: ids are parsed on every request (media URLs on the event
    /// loop), and a UUID's digits and letters come in random order, so a branch per character
    /// class is mispredicted about half the time.
    private static func parse(_ utf8: UnsafeBufferPointer<UInt8>) -> RecordID? {
        guard utf8.count == 36, let base = utf8.baseAddress else { return nil }
        let dash = UInt8(ascii: "-")
        guard base[8] == dash, base[13] == dash, base[18] == dash, base[23] == dash else { return nil }
        return hexValues.withUnsafeBufferPointer { values -> RecordID? in
            var bad: UInt8 = 0
            @inline(__always) func add(_ word: inout UInt64, _ range: Range<Int>) {
                for i in range {
                    let value = values[Int(base[i])]
                    bad |= value
                    word = word << 4 | UInt64(value & 0xF)
                }
            }
            var high: UInt64 = 0
            add(&high, 0..<8)
            add(&high, 9..<13)
            add(&high, 14..<18)
            var low: UInt64 = 0
            add(&low, 19..<23)
            add(&low, 24..<36)
            return bad & 0x80 != 0 ? nil : RecordID(high: high, low: low)
        }
    }

    /// Each byte's hex digit value, or 0x80 when it is not one.
    private static let hexValues: [UInt8] = (0..<256).map { byte -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0x80
        }
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

    public var description: String { hex(dashes: true) }

    /// The 32 hex digits without dashes, for references that should not look like an id.
    public var compactHex: String { hex(dashes: false) }

    private func hex(dashes: Bool) -> String {
        String(unsafeUninitializedCapacity: 36) { out in
            let digits: StaticString = "0123456789abcdef"
            var at = 0
            for nibble in 0..<32 {
                if dashes && (nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20) {
                    out[at] = UInt8(ascii: "-")
                    at += 1
                }
                let word = nibble < 16 ? high : low
                out[at] = digits.utf8Start[Int(word >> UInt64(60 - 4 * (nibble % 16)) & 0xF)]
                at += 1
            }
            return at
        }
    }

    public static func < (lhs: RecordID, rhs: RecordID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    /// A new version 7 identifier (RFC 9562): 48-bit millisecond time, then a 12-bit counter that
    /// keeps identifiers made in the same millisecond by this process strictly increasing, then 62
    /// random bits.
    public static func generate() -> RecordID {
        let now = UInt64(max(0, StoreTime.now().millisecondsSinceEpoch))
        let stamp = V7Clock.next(now: now)
        return RecordID(
            high: (stamp >> 12) << 16 | 0x7000 | (stamp & 0xFFF),
            low: 0x8000_0000_0000_0000 | (RandomPool.next() & 0x3FFF_FFFF_FFFF_FFFF)
        )
    }
}

/// The millisecond and counter of the last identifier made, packed as `milliseconds << 12 |
/// counter` in one atomic word: every transaction makes several identifiers, and a lock here was
/// contended by all writer threads.
private enum V7Clock {
    static let state = Atomic<UInt64>(0)

    /// The next (millisecond, counter) pair, strictly greater than every one before it.
    static func next(now: UInt64) -> UInt64 {
        var current = state.load(ordering: .relaxed)
        while true {
            let next: UInt64
            if now > current >> 12 {
                next = now << 12 | (RandomPool.next() & 0x3FF)  // leave headroom for increments
            } else if current & 0xFFF < 0xFFF {
                next = current + 1
            } else {
                next = (current >> 12 + 1) << 12  // counter exhausted: borrow the next millisecond
            }
            let (exchanged, original) = state.compareExchange(expected: current, desired: next, ordering: .relaxed)
            if exchanged { return next }
            current = original
        }
    }
}

/// Random words from the system's generator, fetched a few hundred at a time instead of one
/// system call per word; threads draw from stripes chosen by thread so they rarely share a lock.
private enum RandomPool {
    final class Stripe: Sendable {
        let words = Mutex(Words())
    }

    struct Words {
        var buffer = [UInt64](repeating: 0, count: 256)
        var used = 256
    }

    static let stripes = (0..<16).map { _ in Stripe() }

    static func next() -> UInt64 {
        let thread = UInt64(UInt(bitPattern: Int(bitPattern: pthread_self())))
        let stripe = stripes[Int((thread &* 0x9E37_79B9_7F4A_7C15) >> 60)]
        return stripe.words.withLock { words in
            if words.used == words.buffer.count {
                words.buffer.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
                words.used = 0
            }
            defer { words.used += 1 }
            return words.buffer[words.used]
        }
    }
}
