import NIOCore

/// Nanoseconds on a monotonic clock: what every latency and send time is measured with.
public protocol LoadClock: Sendable {
    func now() -> UInt64
}

/// The process's monotonic clock (NIO's uptime clock).
public struct MonotonicClock: LoadClock {
    public init() {}
    public func now() -> UInt64 { NIODeadline.now().uptimeNanoseconds }
}

/// One stage of an open-model run: `duration` nanoseconds during which the rate goes linearly
/// from `startRate` to `endRate` calls a second (equal for a constant stage, 0 for a pause).
public struct RateStage: Sendable, Equatable {
    public var duration: UInt64
    public var startRate: Double
    public var endRate: Double

    public init(duration: UInt64, startRate: Double, endRate: Double) {
        self.duration = duration
        self.startRate = startRate
        self.endRate = endRate
    }

    /// How many calls the stage holds: the area under its rate line.
    var callCount: Double { (startRate + endRate) / 2 * Double(duration) / 1e9 }
}

/// When each call of an open-model run should be sent: call n (from 0) goes at the time the
/// stages' cumulative rate reaches n calls, so a constant 1000/s sends call n at n ms and a ramp
/// sends ever closer. Pure arithmetic, no clock: the runners add the start time.
public struct RateSchedule: Sendable, Equatable {
    public let stages: [RateStage]

    public init(stages: [RateStage]) {
        self.stages = stages
    }

    /// A constant rate for `duration` nanoseconds.
    public init(rate: Double, duration: UInt64) {
        self.init(stages: [RateStage(duration: duration, startRate: rate, endRate: rate)])
    }

    /// The length of the whole schedule in nanoseconds.
    public var duration: UInt64 { stages.reduce(0) { $0 + $1.duration } }

    /// How many calls the whole schedule sends.
    public var totalCalls: UInt64 {
        // Call n is sent while the cumulative count at the stage's end is above n (strictly): a
        // stage of exactly 10 calls sends calls 0...9, its end time belongs to the next one.
        let total = stages.reduce(0.0) { $0 + $1.callCount }
        return UInt64(max(0, (total - 1e-9).rounded(.up)))
    }

    /// The same schedule with every rate multiplied by `factor` (each of several event loops takes its share).
    public func scaled(by factor: Double) -> RateSchedule {
        RateSchedule(stages: stages.map { RateStage(duration: $0.duration, startRate: $0.startRate * factor, endRate: $0.endRate * factor) })
    }

    /// The intended send time of call `n`, in nanoseconds from the run's start; nil when the
    /// schedule ends before it.
    public func sendTime(ofCall n: UInt64) -> UInt64? {
        var before = 0.0
        var start: UInt64 = 0
        let k = Double(n)
        for stage in stages {
            let inStage = stage.callCount
            if k < before + inStage - 1e-9 {
                let offset = k - before
                let seconds = Self.time(toReach: offset, stage: stage)
                return start + min(stage.duration, UInt64((seconds * 1e9).rounded()))
            }
            before += inStage
            start += stage.duration
        }
        return nil
    }

    /// Seconds into `stage` at which its cumulative count reaches `count`: solves
    /// r0·t + (r1 − r0)·t²/(2T) = count.
    static func time(toReach count: Double, stage: RateStage) -> Double {
        let r0 = stage.startRate
        let r1 = stage.endRate
        let total = Double(stage.duration) / 1e9
        if count <= 0 { return 0 }
        let a = (r1 - r0) / (2 * total)
        if abs(a) < 1e-12 { return r0 > 0 ? count / r0 : total }
        let discriminant = r0 * r0 + 4 * a * count
        return (-r0 + discriminant.squareRoot()) / (2 * a)
    }

    /// Parses `--stages`: comma-separated `DURATION@RATE` (constant) or `DURATION@FROM->TO`
    /// (linear ramp), for example `10s@500,30s@500->2000,10s@0`.
    public static func parse(stages text: String) throws(LoadError) -> RateSchedule {
        var stages: [RateStage] = []
        for part in text.split(separator: ",") {
            let pieces = part.split(separator: "@", maxSplits: 1)
            guard pieces.count == 2 else { throw LoadError("invalid stage \"\(part)\" (use DURATION@RATE or DURATION@FROM->TO)") }
            let duration = try parseDuration(String(pieces[0]))
            let rates = pieces[1].split(separator: "->", omittingEmptySubsequences: false)
            guard (1...2).contains(rates.count), let from = Double(rates[0].trimmingWhitespace), from >= 0 else {
                throw LoadError("invalid rate in stage \"\(part)\"")
            }
            var to = from
            if rates.count == 2 {
                guard let value = Double(rates[1].trimmingWhitespace), value >= 0 else { throw LoadError("invalid rate in stage \"\(part)\"") }
                to = value
            }
            stages.append(RateStage(duration: duration, startRate: from, endRate: to))
        }
        guard !stages.isEmpty else { throw LoadError("no stages given") }
        return RateSchedule(stages: stages)
    }
}

extension Substring {
    var trimmingWhitespace: String {
        String(self.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

/// An error of souk-load's own (bad arguments, a bad scenario file), printed as it is.
public struct LoadError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Parses `500ms`, `10s`, `2m`, `1h`, `250us` or plain seconds into nanoseconds.
public func parseDuration(_ text: String) throws(LoadError) -> UInt64 {
    let units: [(String, Double)] = [("ms", 1e6), ("us", 1e3), ("ns", 1), ("s", 1e9), ("m", 60e9), ("h", 3600e9)]
    let trimmed = Substring(text).trimmingWhitespace
    var number = trimmed
    var scale = 1e9
    for (suffix, value) in units where trimmed.hasSuffix(suffix) {
        number = String(trimmed.dropLast(suffix.count))
        scale = value
        break
    }
    guard let value = Double(number), value >= 0, value.isFinite else { throw LoadError("invalid duration \"\(text)\" (use 500ms, 10s, 2m)") }
    return UInt64((value * scale).rounded())
}

/// What the open model decides for a call when its intended time comes.
public enum OpenLoopDecision: Equatable, Sendable {
    /// Send it now; `late` when now is past its intended time by more than the tolerance.
    case send(late: Bool)
    /// Do not send it: `maxInFlight` calls are still running. Counted, never sent.
    case drop
}

/// The open model's bookkeeping, apart from any transport so it can be driven by a fake clock:
/// which calls are due, which are late or dropped, and each call's latency measured from its
/// intended send time, so a server that stalls cannot hide the queue it caused (coordinated
/// omission corrected: a call that could only be sent 40 ms late and took 1 ms counts 41 ms).
public struct OpenLoopPacer: Sendable {
    public let schedule: RateSchedule
    /// The run's start on the clock.
    public let start: UInt64
    /// Calls in flight beyond which a due call is dropped.
    public let maxInFlight: Int
    /// How far past its intended time a call may be sent and still be on time.
    public let lateTolerance: UInt64

    /// The number of the next call to send.
    public private(set) var nextCall: UInt64 = 0
    /// Its intended time on the clock, nil once the schedule is over.
    public private(set) var nextTime: UInt64?
    public private(set) var inFlight = 0
    public private(set) var sent: UInt64 = 0
    public private(set) var late: UInt64 = 0
    public private(set) var dropped: UInt64 = 0

    public init(schedule: RateSchedule, start: UInt64, maxInFlight: Int, lateTolerance: UInt64) {
        self.schedule = schedule
        self.start = start
        self.maxInFlight = maxInFlight
        self.lateTolerance = lateTolerance
        self.nextTime = schedule.sendTime(ofCall: 0).map { start + $0 }
    }

    /// True once every call of the schedule was sent or dropped.
    public var isFinished: Bool { nextTime == nil }

    /// The next call due at `now`, with its intended time and the decision; nil when none is
    /// due yet. Call it until nil at each wake-up; a `.send` counts the call in flight until
    /// `completed` is called for it.
    public mutating func nextDue(now: UInt64) -> (intended: UInt64, decision: OpenLoopDecision)? {
        guard let intended = nextTime, intended <= now else { return nil }
        nextCall += 1
        nextTime = schedule.sendTime(ofCall: nextCall).map { start + $0 }
        if inFlight >= maxInFlight {
            dropped += 1
            return (intended, .drop)
        }
        inFlight += 1
        sent += 1
        let isLate = now - intended > lateTolerance
        if isLate { late += 1 }
        return (intended, .send(late: isLate))
    }

    /// Records the end of a call sent for `intended`; returns its latency (from the intended time).
    public mutating func completed(intended: UInt64, now: UInt64) -> UInt64 {
        inFlight -= 1
        return now >= intended ? now - intended : 0
    }
}
