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
/// event loop, never past its own deadline, and is refused without running its handler (so a
/// client may safely retry it) when it finds the queue full (at once), or when its wait runs out.
///
/// How long a call may wait depends on whether the server has been overloaded for a while, told
/// as CoDel tells it: by the sojourn of the calls that leave the queue (how long each waited before
/// it got its place, or before its wait ran out), on the event loops' clock.
/// - Normally a call waits up to `Limits.maxWait`. A burst waits its turn, and so does a busy
///   closed load (hundreds of clients, each waiting for its answer before its next call): the
///   queue stands but moves. A wait that runs out, a full queue or a deadline refuses that call
///   only.
/// - The queue becomes overloaded once every call that left it during a whole `Limits.interval`
///   had waited at least `Limits.target`, the queue never empty meanwhile: waits have kept running
///   into their limit, so work arrives faster than the server does it, for longer than a burst
///   lasts. A call whose own deadline ended its wait early says nothing about the queue and is not
///   counted.
/// - While overloaded, a call waits at most `Limits.overloadedWait`, and a waiting call that has
///   already waited longer than that is refused when it comes to the head of the queue rather
///   than given a place: admitted calls keep a short wait, the rest are refused at once.
/// - The queue stops being overloaded once a whole `interval` went by without refusing a call for
///   want of a place (its wait ran out, or the queue was full): the server keeps up again. It
///   also stops once it is calm (below).
/// - Optionally (`Limits.standingWait`; souk-server sets it) the queue *stands* while it grows
///   and its oldest call has waited that long, and all the while it is overloaded. The newest
///   waiter then gets each free place (the oldest are the least likely to be served in time; they
///   wait until their wait runs out), and only `Limits.standingCallsInProgress` calls hold
///   places: calls admitted under overload neither queue long nor share the processor with many
///   others.
/// - Growth is counted per `Limits.growthWindow`, leaving out the calls their clients sent again
///   (`grpc-previous-rpc-attempts`): a window grew when an eighth more calls came to the queue
///   than it admitted (and at least four more), and was calm when no more came. The queue grows
///   from three windows in a row that grew until three calm ones in a row. A closed load (each
///   client waits for its answer before its next call) brings one call for each one admitted,
///   however long its queue, so it neither grows nor stays overloaded: it is served first come
///   first served with every place. An open load above the server's rate grows.
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
        /// The longest a call waits for a place (less when its deadline comes first) while the
        /// queue is not overloaded: a burst, or a closed load, waits its turn.
        public var maxWait: Duration
        /// The longest a call waits while the queue is overloaded: under sustained overload a
        /// queue only adds its wait to every call, so it is kept short (the "controlled delay" of
        /// CoDel, as Facebook's servers apply it to their queues).
        public var overloadedWait: Duration
        /// The sojourn that counts as evidence of overload: a call that left the queue after
        /// waiting this long. Near `maxWait` (nine tenths by default), not CoDel's few
        /// milliseconds: a closed load keeps a standing queue (its clients over the server's
        /// throughput) that moves, and refusing its calls would only make its clients wait more.
        public var target: Duration
        /// How long the sojourns must stay at `target` or above before the queue is overloaded,
        /// and how long without refusals before it is not any more (`maxWait` by default: longer
        /// than the tail of a burst that the server drains within the wait).
        public var interval: Duration
        /// The RetryInfo delay of a refusal is drawn uniformly from this range, so that refused
        /// clients do not all come back in the same instant.
        public var retryDelay: ClosedRange<Duration>
        /// The wait of the oldest waiter from which a growing queue stands (see the type's
        /// comment); nil: the queue never stands, waiters are served first come first served.
        public var standingWait: Duration?
        /// Calls holding a place at once while the queue stands (a quarter of
        /// `maxCallsInProgress` when not given, at least one; souk-server gives two per processor).
        public var standingCallsInProgress: Int
        /// The span over which the calls that came to the queue are compared with those it
        /// admitted, to tell a growing queue from one that only moves (25 ms when not given).
        public var growthWindow: Duration

        public init(
            maxCallsInProgress: Int, maxWaiting: Int, maxWait: Duration, overloadedWait: Duration? = nil,
            target: Duration? = nil, interval: Duration? = nil,
            retryDelay: ClosedRange<Duration> = .milliseconds(50) ... .milliseconds(250),
            standingWait: Duration? = nil, standingCallsInProgress: Int? = nil, growthWindow: Duration? = nil
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
            self.target = target ?? maxWait * 9 / 10
            self.interval = interval ?? maxWait
            precondition(self.target >= .zero && self.interval >= .zero, "target and interval must not be negative")
            self.retryDelay = retryDelay
            precondition(standingWait.map { $0 >= .zero } ?? true, "standingWait must not be negative")
            self.standingWait = standingWait
            self.standingCallsInProgress = min(maxCallsInProgress, standingCallsInProgress ?? max(1, maxCallsInProgress / 4))
            precondition(self.standingCallsInProgress > 0, "standingCallsInProgress must be positive")
            self.growthWindow = growthWindow ?? .milliseconds(25)
            precondition(self.growthWindow > .zero, "growthWindow must be positive")
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
    /// Places taken. Changed by compare-and-exchange only below the limit, so never above it
    /// (above the standing limit for a while after the queue starts to stand).
    private let inProgress = Atomic<Int>(0)
    /// The limit in force: `limits.maxCallsInProgress`, or `limits.standingCallsInProgress` while
    /// the queue stands. Written under the queue's lock.
    private let placeLimit: Atomic<Int>
    /// `queue.count`, readable without the lock: a place given back goes to a waiter first.
    private let waitingCount = Atomic<Int>(0)
    private let queue: Mutex<WaitQueue>
    private let episode = Mutex(RefusalEpisode())
    private let refusedQueueFull: Counter
    private let refusedWaitExpired: Counter
    private let waitingMeter: Meter
    private let logger: Logger
    private let clock: @Sendable () -> ContinuousClock.Instant
    /// `limits` on the event loops' clock.
    private let maxWait: TimeAmount, overloadedWait: TimeAmount, target: TimeAmount, interval: TimeAmount
    private let standingWait: TimeAmount?
    private let growthWindow: TimeAmount

    private struct WaitQueue {
        var waiters = CircularBuffer<Waiter>(initialCapacity: 16)
        /// One timer for the whole queue, due at the earliest end of a wait (not one per waiter:
        /// most waiters get their place before their wait ends, and a timer per call would cost
        /// more than the wait itself).
        var timer: Scheduled<Void>?
        var timerDue: NIODeadline?
        /// Since when every call that left the queue had waited at least `target`; nil when one
        /// waited less, or the queue was empty, since.
        var slowSince: NIODeadline?
        /// Sustained overload: calls wait at most `overloadedWait`.
        var overloaded = false
        /// When a call was last refused for want of a place (queue full, wait run out).
        var lastRefusal: NIODeadline = .distantPast
        /// The queue stands: newest waiter first, `standingCallsInProgress` places.
        var standing = false
        /// Calls that came and calls admitted over the current `growthWindow` (see `tally`).
        var window = Tally()
        /// Whole windows in a row in which the queue grew, or was calm.
        var grewInARow = 0, calmInARow = 0
        /// The queue grows (see `tally`).
        var growing = false
    }

    /// The calls that came to the queue (their clients' retries left out) and those it admitted,
    /// since `start`.
    private struct Tally {
        var arrivals = 0, admissions = 0
        var start: NIODeadline = .distantPast
        var excess: Int { arrivals - admissions }
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
        /// When it started waiting, and when its wait ends, on the event loops' clock.
        let since: NIODeadline
        let expiry: NIODeadline
        /// Its own deadline, not the queue's wait, ends its wait: its end says nothing of the queue.
        let endsByDeadline: Bool
        let decide: @Sendable (Bool) -> Void
    }

    /// `refusal` is the status of a refused call (UNAVAILABLE, since it was not executed); each
    /// refusal gets a RetryInfo delay drawn from `limits.retryDelay`. `clock` reads the clock of
    /// the calls' deadlines; waits and sojourns are measured on the event loops' clock
    /// (`EventLoop.now`, which a test moves by hand on an `EmbeddedEventLoop`).
    public init(
        limits: Limits,
        refusal: RPCError = RPCError(.unavailable, "the server is overloaded: the call was not executed, retry later"),
        metrics factory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.clock = clock
        self.limits = limits
        self.maxWait = .nanoseconds(limits.maxWait.wholeNanoseconds)
        self.overloadedWait = .nanoseconds(limits.overloadedWait.wholeNanoseconds)
        self.target = .nanoseconds(limits.target.wholeNanoseconds)
        self.interval = .nanoseconds(limits.interval.wholeNanoseconds)
        self.standingWait = limits.standingWait.map { .nanoseconds($0.wholeNanoseconds) }
        self.growthWindow = .nanoseconds(limits.growthWindow.wholeNanoseconds)
        self.placeLimit = Atomic(limits.maxCallsInProgress)
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
    /// Whether the queue is overloaded now (see the type's comment), as last decided: the end of
    /// an overload is noticed when a call next waits or a place is given back.
    public var isOverloaded: Bool { queue.withLock { $0.overloaded } }
    /// Whether the queue stands now (see the type's comment), as last decided.
    public var isStanding: Bool { queue.withLock { $0.standing } }

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
        let limit = placeLimit.load(ordering: .relaxed)
        var current = inProgress.load(ordering: .relaxed)
        while current < limit {
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

    /// Waits on `loop` for a place, for at most `limits.maxWait` (`limits.overloadedWait` while
    /// overloaded) and not past `deadline`, then calls `decide` on `loop` with true (the call holds
    /// a place: it must `leave` it) or false (refused: answer it with `refusal()`). A call that
    /// finds no room in the queue, or whose deadline has passed, is refused at once: `decide(false)`
    /// runs before this returns, as does `decide(true)` when a place came free meanwhile. Call it
    /// on `loop`. `isRetry`: the client sent this call before (it does not count as new load).
    public func wait(
        on loop: any EventLoop, deadline: ContinuousClock.Instant?, isRetry: Bool = false,
        _ decide: @escaping @Sendable (Bool) -> Void
    ) {
        let now = clock()
        let loopNow = loop.now
        enum Outcome { case admitted, refused(RefusalCause), waiting }
        let outcome = queue.withLock { queue -> Outcome in
            settle(&queue, now: loopNow)
            if !isRetry { queue.window.arrivals += 1 }
            if queue.waiters.isEmpty, takePlace() {
                queue.window.admissions += 1
                return .admitted
            }
            guard queue.waiters.count < limits.maxWaiting else {
                queue.lastRefusal = loopNow
                return .refused(.queueFull)
            }
            var budget = queue.overloaded ? overloadedWait : maxWait
            var endsByDeadline = false
            if let deadline {
                let left = TimeAmount.nanoseconds((deadline - now).wholeNanoseconds)
                if left < budget { (budget, endsByDeadline) = (left, true) }
            }
            guard budget > .zero else {
                if !endsByDeadline { queue.lastRefusal = loopNow }
                return .refused(.waitExpired)
            }
            let expiry = loopNow + budget
            queue.waiters.append(Waiter(loop: loop, since: loopNow, expiry: expiry, endsByDeadline: endsByDeadline, decide: decide))
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
            if inProgress.load(ordering: .sequentiallyConsistent) < placeLimit.load(ordering: .relaxed) { admitWaiters() }
        }
    }

    // MARK: The overload rule (see the type's comment)

    /// A call left the queue at `now` after waiting `sojourn` (admitted, or its wait ran out):
    /// the evidence of overload.
    private func left(_ queue: inout WaitQueue, after sojourn: TimeAmount, now: NIODeadline) {
        guard sojourn >= target else {
            queue.slowSince = nil
            return
        }
        guard let since = queue.slowSince else {
            queue.slowSince = now
            return
        }
        if !queue.overloaded, now - since >= interval {
            queue.overloaded = true
            // Overloaded from now: the end needs a whole interval without refusals after this.
            queue.lastRefusal = now
        }
    }

    /// Ends an overload that has refused nothing for a whole interval, or whose queue has been
    /// calm for `Self.windowsInARow` windows (a closed load, whose waits only ran long), and
    /// decides whether the queue stands.
    private func settle(_ queue: inout WaitQueue, now: NIODeadline) {
        if queue.overloaded, now - queue.lastRefusal >= interval { queue.overloaded = false }
        tally(&queue, now: now)
        if queue.overloaded, queue.calmInARow >= Self.windowsInARow {
            // The evidence starts again, or the next slow sojourn would call it overloaded at once.
            (queue.overloaded, queue.slowSince) = (false, nil)
        }
        decideStanding(&queue, now: now)
    }

    /// Growth windows in a row that start a growth, or end it.
    private static let windowsInARow = 3

    /// Closes the growth window once it is whole. In a window the queue grew when an eighth more
    /// calls came to it than it admitted (and at least four more), and was calm when no more came
    /// than it admitted. It grows from `windowsInARow` windows that grew in a row until as many
    /// calm ones in a row: one window's chance neither starts nor ends it. A closed load's queue
    /// only moves: each admitted call's answer brings its client's next call. Retries are left
    /// out: a refused call sent again is the same load, and counting it would keep a queue
    /// standing on its own refusals.
    private func tally(_ queue: inout WaitQueue, now: NIODeadline) {
        guard now - queue.window.start >= growthWindow else { return }
        let excess = queue.window.excess
        let grew = excess >= max(4, queue.window.admissions / 8)
        queue.grewInARow = grew ? queue.grewInARow + 1 : 0
        queue.calmInARow = excess <= 0 ? queue.calmInARow + 1 : 0
        if queue.grewInARow >= Self.windowsInARow { queue.growing = true }
        if queue.calmInARow >= Self.windowsInARow { queue.growing = false }
        queue.window = Tally(start: now)
    }

    /// The queue stands while overloaded (even empty: the short wait keeps emptying it), and
    /// otherwise while it grows and its oldest call has waited the standing wait.
    private func decideStanding(_ queue: inout WaitQueue, now: NIODeadline) {
        guard let standingWait else { return }
        let standing: Bool
        if queue.overloaded {
            standing = true
        } else if let oldest = queue.waiters.first {
            standing = queue.growing && now - oldest.since >= standingWait
        } else {
            standing = false
        }
        guard standing != queue.standing else { return }
        queue.standing = standing
        placeLimit.store(standing ? limits.standingCallsInProgress : limits.maxCallsInProgress, ordering: .relaxed)
    }

    /// The queue became empty.
    private func emptied(_ queue: inout WaitQueue, now: NIODeadline) {
        queue.slowSince = nil
        decideStanding(&queue, now: now)
    }

    /// Gives free places to the waiters, first come first served (newest first while the queue
    /// stands); while overloaded, a waiter that has already waited longer than `overloadedWait` is
    /// refused instead.
    private func admitWaiters() {
        enum Next { case admit(Waiter), refuse(Waiter) }
        while true {
            let next = queue.withLock { queue -> Next? in
                guard let head = queue.waiters.first else { return nil }
                let now = head.loop.now
                settle(&queue, now: now)
                let next: Next
                if queue.overloaded, now - head.since > overloadedWait {
                    queue.lastRefusal = now
                    next = .refuse(head)
                    queue.waiters.removeFirst()
                } else if takePlace() {
                    // The oldest waiter's wait is the evidence, whichever waiter gets the place.
                    left(&queue, after: now - head.since, now: now)
                    queue.window.admissions += 1
                    next = .admit(queue.standing ? queue.waiters.removeLast() : queue.waiters.removeFirst())
                } else {
                    return nil
                }
                waitingCount.subtract(1, ordering: .sequentiallyConsistent)
                if queue.waiters.isEmpty { emptied(&queue, now: now) }
                return next
            }
            // The queue's timer stays armed: when due, it finds these waiters gone and re-arms.
            switch next {
            case nil:
                waitingMeter.set(Int64(callsWaiting))
                return
            case .admit(let waiter):
                waiter.loop.execute { waiter.decide(true) }
            case .refuse(let waiter):
                refused(.waitExpired, on: waiter.loop)
                waiter.loop.execute { waiter.decide(false) }
            }
        }
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
                queue.waiters.removeAll { $0.expiry <= now }
                waitingCount.subtract(expired.count, ordering: .sequentiallyConsistent)
                for waiter in expired where !waiter.endsByDeadline {
                    queue.lastRefusal = now
                    left(&queue, after: now - waiter.since, now: now)
                }
                if queue.waiters.isEmpty { emptied(&queue, now: now) }
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
