import Histogram
import Synchronization

/// A latency histogram in nanoseconds at 1 µs resolution and 3 significant digits, up to an hour.
public typealias LatencyHistogram = Histogram<UInt64>

func makeHistogram() -> LatencyHistogram {
    var histogram = LatencyHistogram(lowestDiscernibleValue: 1_000, highestTrackableValue: 3_600_000_000_000, numberOfSignificantValueDigits: .three)
    histogram.autoResize = true
    return histogram
}

/// What was measured for one RPC (or one scenario step): latencies, outcomes by status and
/// reason, and for streams the time to each message.
public struct CallStats: Sendable {
    /// Latency of each finished call: from its intended send time in the open model, from its
    /// send in the closed model, to its status.
    public var latency = makeHistogram()
    /// The latency of the calls the server refused unexecuted (`RefusalRetry.notExecuted`), at
    /// their last send or an earlier one: the refusals, and the waits before them.
    public var refusedLatency = makeHistogram()
    /// Server streams: the time from the send to the first message, then between messages.
    public var messageGaps = makeHistogram()
    /// Calls by final status name (`OK`, `UNAVAILABLE`, ...).
    public var statuses: [String: UInt64] = [:]
    /// Failed calls by `STATUS/REASON` (the ErrorInfo reason; `STATUS/` without one).
    public var reasons: [String: UInt64] = [:]
    /// Open model: calls sent past their intended time by more than the tolerance.
    public var late: UInt64 = 0
    /// Open model: calls never sent because the in-flight bound was reached.
    public var dropped: UInt64 = 0
    /// Calls sent again after a status the step retries on (each retry once).
    public var retries: UInt64 = 0
    /// Calls sent again after the server refused them unexecuted (`RefusalRetry`; each retry once).
    public var refusedRetries: UInt64 = 0
    /// Stream messages received.
    public var messages: UInt64 = 0
    /// Stored once, for the first failure of each `STATUS/REASON`: its message, to show why.
    public var examples: [String: String] = [:]

    public init() {}

    /// The latency of the calls the server executed (`latency` without `refusedLatency`): what
    /// admission control bounds under overload. Built when asked, off the calls' path.
    public var admittedLatency: LatencyHistogram {
        guard refusedLatency.totalCount > 0 else { return latency }
        var admitted = makeHistogram()
        for bucket in latency.recordedValues() {
            let count = bucket.count - min(bucket.count, refusedLatency.countForValue(bucket.value))
            if count > 0 { _ = admitted.record(bucket.value, count: count) }
        }
        return admitted
    }

    /// Finished calls (every status, OK included).
    public var calls: UInt64 { statuses.values.reduce(0, +) }
    public var errors: UInt64 { calls - (statuses["OK"] ?? 0) }

    /// Records a call's end; latency in nanoseconds. `refused`: the server refused it unexecuted,
    /// at its last send or an earlier one.
    public mutating func record(latency nanoseconds: UInt64, status: String, reason: String? = nil, message: String? = nil, refused: Bool = false) {
        _ = latency.record(max(nanoseconds, 1))
        if refused { _ = refusedLatency.record(max(nanoseconds, 1)) }
        statuses[status, default: 0] += 1
        if status != "OK" {
            let key = "\(status)/\(reason ?? "")"
            reasons[key, default: 0] += 1
            if examples[key] == nil, let message { examples[key] = message }
        }
    }

    /// Records one OK call without touching the dictionaries' keys beyond the first: the hot path.
    @inline(__always)
    public mutating func recordOK(latency nanoseconds: UInt64) {
        _ = latency.record(max(nanoseconds, 1))
        okCount += 1
    }

    /// OK calls recorded through `recordOK`, folded into `statuses` by `settle()`.
    var okCount: UInt64 = 0

    /// Folds the hot path's counter into `statuses`.
    public mutating func settle() {
        if okCount > 0 {
            statuses["OK", default: 0] += okCount
            okCount = 0
        }
    }

    public mutating func add(_ other: CallStats) {
        var other = other
        other.settle()
        settle()
        latency.add(other.latency)
        refusedLatency.add(other.refusedLatency)
        messageGaps.add(other.messageGaps)
        for (key, count) in other.statuses { statuses[key, default: 0] += count }
        for (key, count) in other.reasons { reasons[key, default: 0] += count }
        for (key, text) in other.examples where examples[key] == nil { examples[key] = text }
        late += other.late
        dropped += other.dropped
        messages += other.messages
        retries += other.retries
        refusedRetries += other.refusedRetries
    }
}

/// Stats by RPC or step name, in the order first seen. One per event loop or virtual user,
/// never shared while running (no locks on the hot path); merged at the end.
public struct StatsTable: Sendable {
    public private(set) var names: [String] = []
    public private(set) var entries: [String: CallStats] = [:]

    public init() {}

    public subscript(name: String) -> CallStats {
        get { entries[name] ?? CallStats() }
        set {
            if entries[name] == nil { names.append(name) }
            entries[name] = newValue
        }
    }

    public mutating func update(_ name: String, _ body: (inout CallStats) -> Void) {
        if entries[name] == nil {
            names.append(name)
            entries[name] = CallStats()
        }
        body(&entries[name]!)
    }

    public mutating func merge(_ other: StatsTable) {
        for name in other.names {
            update(name) { $0.add(other.entries[name]!) }
        }
    }

    public mutating func settle() {
        for name in names { entries[name]!.settle() }
    }
}

/// Counters the progress line reads once a second while the loops run: one writer each, relaxed.
public final class ProgressCounters: Sendable {
    public let calls = Atomic<Int>(0)
    public let errors = Atomic<Int>(0)
    public let late = Atomic<Int>(0)
    public let dropped = Atomic<Int>(0)
    public let inFlight = Atomic<Int>(0)

    public init() {}
}
