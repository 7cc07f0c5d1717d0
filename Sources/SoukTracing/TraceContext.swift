/// A W3C trace context (https://www.w3.org/TR/trace-context/): the trace a span belongs to and
/// the span's own id, as carried by the `traceparent` header `00-<trace-id>-<parent-id>-<flags>`.
public struct TraceContext: Sendable, Equatable {
    /// 16 bytes, as two words; never all zero.
    public var traceID: (high: UInt64, low: UInt64)
    /// 8 bytes; never zero.
    public var spanID: UInt64
    /// The caller records this trace (flag 01); Souk records every traced call it is given anyway.
    public var sampled: Bool

    public init(traceID: (high: UInt64, low: UInt64), spanID: UInt64, sampled: Bool) {
        self.traceID = traceID
        self.spanID = spanID
        self.sampled = sampled
    }

    /// Reads a `traceparent` value; nil when it is malformed (the call then starts a new trace,
    /// as the specification asks).
    public init?(traceparent: String) {
        let parts = traceparent.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].count == 2, parts[0] != "ff", parts[1].count == 32, parts[2].count == 16,
              parts[3].count == 2, parts[0] != "00" || parts.count == 4,
              let version = UInt8(parts[0], radix: 16), version < 0xff,
              let high = Self.hexWord(parts[1].prefix(16)), let low = Self.hexWord(parts[1].suffix(16)),
              let span = Self.hexWord(parts[2]), let flags = UInt8(parts[3], radix: 16),
              high != 0 || low != 0, span != 0
        else { return nil }
        self.init(traceID: (high, low), spanID: span, sampled: flags & 1 == 1)
    }

    /// A new trace's context, with random ids.
    public static func newTrace() -> TraceContext {
        var generator = SystemRandomNumberGenerator()
        var high: UInt64 = 0, low: UInt64 = 0
        while high == 0 && low == 0 {
            high = generator.next()
            low = generator.next()
        }
        return TraceContext(traceID: (high, low), spanID: newSpanID(), sampled: true)
    }

    /// A child's context: the same trace, a new span id.
    public func child() -> TraceContext {
        TraceContext(traceID: traceID, spanID: Self.newSpanID(), sampled: sampled)
    }

    /// The `traceparent` header value.
    public var traceparent: String {
        "00-\(traceIDHex)-\(Self.hex(spanID))-\(sampled ? "01" : "00")"
    }

    /// 32 lower-case hex digits.
    public var traceIDHex: String { Self.hex(traceID.high) + Self.hex(traceID.low) }
    /// 16 lower-case hex digits.
    public var spanIDHex: String { Self.hex(spanID) }

    public static func == (lhs: TraceContext, rhs: TraceContext) -> Bool {
        lhs.traceID == rhs.traceID && lhs.spanID == rhs.spanID && lhs.sampled == rhs.sampled
    }

    static func newSpanID() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        var id: UInt64 = 0
        while id == 0 { id = generator.next() }
        return id
    }

    static func hex(_ word: UInt64) -> String {
        let digits = String(word, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Lower-case hex digits only, as the specification requires.
    private static func hexWord(_ text: Substring) -> UInt64? {
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return UInt64(text, radix: 16)
    }
}
