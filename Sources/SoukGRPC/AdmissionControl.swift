import Logging
import Metrics
import NIOCore
import Synchronization

/// Bounds the calls a server works on at once, so that under more load than it can serve it
/// refuses the excess at once (UNAVAILABLE, with a short randomized RetryInfo) instead of
/// queueing calls on its handler threads and store until they pass their deadlines.
///
/// A call takes a place when its handler is about to start (the request of a unary call has
/// arrived; a streaming call is opening). With a place free it starts at once: one atomic
/// compare-and-exchange, no lock, no allocation. Otherwise it waits in a bounded FIFO queue on its
/// event loop, for at most `Limits.maxWait` (`Limits.overloadedWait` under sustained overload)
/// and never past its own deadline; a call that finds the queue full, or whose wait runs out, is
/// refused without running its handler (so a client may safely retry it).
///
/// Sustained overload is told from a burst or a busy closed load (hundreds of clients, each
/// waiting for its answer before the next call) by the waits themselves, as CoDel does: once a
/// wait has run out (or a call found the queue full) since the queue was last empty, the queue
/// does not drain in time and later calls get the short wait, until it is empty again. A busy
/// server whose queue moves within `maxWait` keeps the full wait and refuses nothing.
///
/// How long a call keeps its place depends on its shape (`RPCHandler.holdsAdmission`):
/// - unary and server-streaming calls until their response headers go out or they end (a unary
///   call answers once, at its end; a Watch answers after its start-up work: authorizing,
///   reading its first state);
/// - client- and bidirectional-streaming calls only to start: the client paces them (a courier's
///   ReportLocation stays open for hours), and the stream limits bound them once open.
/// Synchronous unary methods (health checks, the interop service) run on the event loop at once
/// and never wait for anything: they are not counted, so a health check still answers when the
/// server refuses the rest.
///
/// Metrics: `souk_rpc_refused_total` (counter; dimension `cause`: `queue_full` or `wait_expired`)
/// and `souk_rpc_admission_waiting` (meter: calls waiting for a place now). A warning is logged
/// when refusing starts, and a notice when a second went by without refusals.
public final class AdmissionControl: Sendable {
    /// The bounds of one server.
    public struct Limits: Sendable, Equatable {
        /// Calls holding a place at once.
        public var maxCallsInProgress: Int
        /// Calls waiting for a place at once; 0: a call that finds no place is refused at once.
        public var maxWaiting: Int
        /// The longest a call waits for a place (less when its deadline comes first), while the
        /// queue has been empty within the last `maxWait`: a burst waits its turn.
        public var maxWait: Duration
        /// The longest a call waits once a wait has run out (or the queue was full) since the
        /// queue was last empty: under sustained overload a queue only adds its wait to every
        /// call, so it is kept short (the "controlled delay" of CoDel, as Facebook's servers apply
        /// it to their queues), until the queue empties.
        public var overloadedWait: Duration
        /// The RetryInfo delay of a refusal is drawn uniformly from this range, so that refused
        /// clients do not all come back in the same instant.
        public var retryDelay: ClosedRange<Duration>

        public init(
            maxCallsInProgress: Int, maxWaiting: Int, maxWait: Duration, overloadedWait: Duration? = nil,
            retryDelay: ClosedRange<Duration> = .milliseconds(50) ... .milliseconds(250)
        ) {
            precondition(maxCallsInProgress > 0, "maxCallsInProgress must be positive")
            precondition(maxWaiting >= 0, "maxWaiting must not be negative")
            precondition(maxWait >= .zero, "maxWait must not be negative")
            precondition(retryDelay.lowerBound >= .zero, "retryDelay must not be negative")
            self.maxCallsInProgress = maxCallsInProgress
            self.maxWaiting = maxWaiting
            self.maxWait = maxWait
            self.overloadedWait = min(overloadedWait ?? .milliseconds(5), maxWait)
            precondition(self.overloadedWait >= .zero, "overloadedWait must not be negative")
            self.retryDelay = retryDelay
        }
    }

    /// Why a call was refused (the `cause` of `souk_rpc_refused_total`).
    public enum RefusalCause: String, Sendable {
        /// No place and no room in the queue.
        case queueFull = "queue_full"
        /// No place came free within the call's wait.
        case waitExpired = "wait_expired"
    }

    public static let refusedLabel = "souk_rpc_refused_total"
    public static let waitingLabel = "souk_rpc_admission_waiting"

    public let limits: Limits
    /// The status of a refused call, without its retry delay (drawn per refusal).
    private let refusalStatus: RPCError
    /// Places taken. Changed by compare-and-exchange only below the limit, so never above it.
    private let inProgress = Atomic<Int>(0)
    /// `queue.count`, readable without the lock: a place given back goes to a waiter first.
    private let waitingCount = Atomic<Int>(0)
    private let queue: Mutex<WaitQueue>
    private let episode = Mutex(RefusalEpisode())
    private let refusedQueueFull: Counter
    private let refusedWaitExpired: Counter
    private let waitingMeter: Meter
    private let logger: Logger
    private let clock: @Sendable () -> ContinuousClock.Instant

    private struct WaitQueue {
        var waiters = CircularBuffer<Waiter>(initialCapacity: 16)
        /// One timer for the whole queue, due at the earliest end of a wait (not one per waiter:
        /// most waiters get their place before their wait ends, and a timer per call would cost
        /// more than the wait itself).
        var timer: Scheduled<Void>?
        var timerDue: NIODeadline?
        /// A wait ran out, or a call found the queue full, since the queue was last empty.
        var overloaded = false
    }

    /// One refusal episode, for the log: from the first refusal to a second without any.
    private struct RefusalEpisode {
        var refusing = false
        var refusedSinceCheck = 0
        var refusedInEpisode = 0
    }

    /// A call waiting for a place.
    private struct Waiter {
        let loop: any EventLoop
        /// When its wait ends, on the event loops' clock.
        let expiry: NIODeadline
        let decide: @Sendable (Bool) -> Void
    }

    /// `refusal` is the status of a refused call (UNAVAILABLE, since it was not executed); each
    /// refusal gets a RetryInfo delay drawn from `limits.retryDelay`.
    public init(
        limits: Limits,
        refusal: RPCError = RPCError(.unavailable, "the server is overloaded: the call was not executed, retry later"),
        metrics factory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.clock = clock
        self.limits = limits
        self.refusalStatus = refusal
        self.queue = Mutex(WaitQueue())
        self.refusedQueueFull = Counter(label: Self.refusedLabel, dimensions: [("cause", RefusalCause.queueFull.rawValue)], factory: factory)
        self.refusedWaitExpired = Counter(label: Self.refusedLabel, dimensions: [("cause", RefusalCause.waitExpired.rawValue)], factory: factory)
        self.waitingMeter = Meter(label: Self.waitingLabel, factory: factory)
        self.logger = logger
    }

    /// Places taken now.
    public var callsInProgress: Int { inProgress.load(ordering: .relaxed) }
    /// Calls waiting for a place now.
    public var callsWaiting: Int { waitingCount.load(ordering: .relaxed) }

    /// The status of one refused call: `refusal` with a randomized retry delay.
    public func refusal() -> RPCError {
        var status = refusalStatus
        let range = limits.retryDelay
        let low = range.lowerBound.wholeNanoseconds, high = range.upperBound.wholeNanoseconds
        status.retryDelay = .nanoseconds(low == high ? low : Int64.random(in: low...high))
        return status
    }

    // MARK: Taking and giving back places

    /// Takes a place if one is free and nobody waits for one: the fast path of every call.
    @inline(__always)
    public func tryEnter() -> Bool {
        if waitingCount.load(ordering: .sequentiallyConsistent) > 0 { return false }
        return takePlace()
    }

    private func takePlace() -> Bool {
        var current = inProgress.load(ordering: .relaxed)
        while current < limits.maxCallsInProgress {
            let (exchanged, original) = inProgress.compareExchange(
                expected: current, desired: current + 1, ordering: .sequentiallyConsistent)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives back the place of a call that `tryEnter` or `wait` admitted; the first waiter gets it.
    public func leave() {
        let before = inProgress.subtract(1, ordering: .sequentiallyConsistent).oldValue
        precondition(before > 0, "AdmissionControl.leave without a place taken")
        // A waiter queued before this load is served by `admitWaiters`; one queued after it saw the
        // place free when it looked under the lock (both sides use sequentially consistent order).
        if waitingCount.load(ordering: .sequentiallyConsistent) > 0 { admitWaiters() }
    }

    /// Waits on `loop` for a place, for at most `limits.maxWait` and not past `deadline`, then
    /// calls `decide` on `loop` with true (the call holds a place: it must `leave` it) or false
    /// (refused: answer it with `refusal()`). A call that finds no room in the queue, or whose
    /// deadline has passed, is refused at once: `decide(false)` runs before this returns, as
    /// does `decide(true)` when a place came free meanwhile. Call it on `loop`.
    public func wait(
        on loop: any EventLoop, deadline: ContinuousClock.Instant?, _ decide: @escaping @Sendable (Bool) -> Void
    ) {
        let now = clock()
        enum Outcome { case admitted, refused(RefusalCause), waiting }
        let outcome = queue.withLock { queue -> Outcome in
            if queue.waiters.isEmpty {
                if takePlace() { return .admitted }
                queue.overloaded = false
            }
            guard queue.waiters.count < limits.maxWaiting else {
                queue.overloaded = true
                return .refused(.queueFull)
            }
            var budget = queue.overloaded ? limits.overloadedWait : limits.maxWait
            if let deadline { budget = min(budget, deadline - now) }
            guard budget > .zero else { return .refused(.waitExpired) }
            let expiry = loop.now + .nanoseconds(budget.wholeNanoseconds)
            queue.waiters.append(Waiter(loop: loop, expiry: expiry, decide: decide))
            waitingCount.add(1, ordering: .sequentiallyConsistent)
            if queue.timerDue.map({ expiry < $0 }) ?? true { arm(&queue, at: expiry, on: loop) }
            return .waiting
        }
        switch outcome {
        case .admitted:
            decide(true)
        case .refused(let cause):
            refused(cause, on: loop)
            decide(false)
        case .waiting:
            waitingMeter.set(Int64(callsWaiting))
            // A place may have come free between the failed `takePlace` and the count above.
            if inProgress.load(ordering: .sequentiallyConsistent) < limits.maxCallsInProgress { admitWaiters() }
        }
    }

    /// Gives free places to the waiters, first come first served.
    private func admitWaiters() {
        while true {
            let next = queue.withLock { queue -> Waiter? in
                guard !queue.waiters.isEmpty, takePlace() else { return nil }
                waitingCount.subtract(1, ordering: .sequentiallyConsistent)
                return queue.waiters.removeFirst()
            }
            guard let next else { break }
            // The queue's timer stays armed: when due, it finds this waiter gone and re-arms.
            next.loop.execute { next.decide(true) }
        }
        waitingMeter.set(Int64(callsWaiting))
    }

    /// Arms the queue's one timer at `due`, in place of the one armed before.
    private func arm(_ queue: inout WaitQueue, at due: NIODeadline, on loop: any EventLoop) {
        queue.timer?.cancel()
        queue.timerDue = due
        queue.timer = loop.scheduleTask(deadline: due) { [self] in expireWaits(now: loop.now) }
    }

    /// The queue's timer is due: refuses every waiter whose wait has ended, and re-arms for the
    /// next end.
    private func expireWaits(now: NIODeadline) {
        let expired = queue.withLock { queue -> [Waiter] in
            queue.timer = nil
            queue.timerDue = nil
            let expired = Array(queue.waiters.lazy.filter { $0.expiry <= now })
            if !expired.isEmpty {
                queue.overloaded = true
                queue.waiters.removeAll { $0.expiry <= now }
                waitingCount.subtract(expired.count, ordering: .sequentiallyConsistent)
            }
            if let next = queue.waiters.min(by: { $0.expiry < $1.expiry }) { arm(&queue, at: next.expiry, on: next.loop) }
            return expired
        }
        guard !expired.isEmpty else { return }
        waitingMeter.set(Int64(callsWaiting))
        for waiter in expired {
            refused(.waitExpired, on: waiter.loop)
            if waiter.loop.inEventLoop {
                waiter.decide(false)
            } else {
                let decide = waiter.decide
                waiter.loop.execute { decide(false) }
            }
        }
    }

    // MARK: Refusals: metrics and log

    private func refused(_ cause: RefusalCause, on loop: any EventLoop) {
        switch cause {
        case .queueFull: refusedQueueFull.increment()
        case .waitExpired: refusedWaitExpired.increment()
        }
        let starts = episode.withLock { episode -> Bool in
            episode.refusedSinceCheck += 1
            episode.refusedInEpisode += 1
            guard !episode.refusing else { return false }
            episode.refusing = true
            return true
        }
        guard starts else { return }
        logger.warning(
            "overloaded: refusing calls (UNAVAILABLE)",
            metadata: [
                "max_calls_in_progress": "\(limits.maxCallsInProgress)", "max_waiting": "\(limits.maxWaiting)",
                "max_wait_ms": "\(limits.maxWait.wholeNanoseconds / 1_000_000)",
            ])
        scheduleEpisodeCheck(on: loop)
    }

    /// Once a second while refusing: a second without refusals ends the episode (one log line).
    private func scheduleEpisodeCheck(on loop: any EventLoop) {
        loop.scheduleTask(in: .seconds(1)) { [self] in
            let ended = episode.withLock { episode -> Int? in
                guard episode.refusedSinceCheck == 0 else {
                    episode.refusedSinceCheck = 0
                    return nil
                }
                episode.refusing = false
                defer { episode.refusedInEpisode = 0 }
                return episode.refusedInEpisode
            }
            if let ended {
                logger.notice("no longer overloaded: calls admitted again", metadata: ["refused": "\(ended)"])
            } else {
                scheduleEpisodeCheck(on: loop)
            }
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to Int64.
    fileprivate var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        return whole.addingReportingOverflow(attoseconds / 1_000_000_000).overflow ? .max : whole + attoseconds / 1_000_000_000
    }
}

extension RPCHandler {
    /// Whether a call of this shape keeps its admission place while it runs (until its response
    /// headers go out), rather than only to start (see `AdmissionControl`); nil when it does not
    /// take one at all.
    var holdsAdmission: Bool? {
        switch self {
        case .unary, .serverStreaming: true
        case .clientStreaming, .bidirectionalStreaming: false
        case .synchronousUnary: nil
        }
    }
}
