import MetricsTestKit
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOPosix
import SoukHTTP2
import SoukMessages
import Synchronization
import Testing

@testable import SoukGRPC

/// The admission control: places, the wait queue and its budgets, refusals, and the hook in the
/// call path (a refused call never runs its handler; a place comes back when a call ends or is
/// cancelled).
@Suite struct AdmissionControlTests {
    /// What a `wait` decided, recorded from the loop.
    final class Decision: Sendable {
        private let value = Mutex<Bool?>(nil)
        var outcome: Bool? { value.withLock { $0 } }
        func record(_ admitted: Bool) {
            value.withLock { value in
                precondition(value == nil, "decided twice")
                value = admitted
            }
        }
    }

    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let now = Mutex(ContinuousClock.now)
        func read() -> ContinuousClock.Instant { now.withLock { $0 } }
        func advance(_ duration: Duration) { now.withLock { $0 = $0.advanced(by: duration) } }
    }

    static func control(
        _ limits: AdmissionControl.Limits, metrics: TestMetrics = TestMetrics(), clock: ManualClock = ManualClock()
    ) -> AdmissionControl {
        AdmissionControl(limits: limits, metrics: metrics, logger: quietLogger, clock: { clock.read() })
    }

    static func wait(_ admission: AdmissionControl, on loop: EmbeddedEventLoop, deadline: ContinuousClock.Instant? = nil) -> Decision {
        let decision = Decision()
        admission.wait(on: loop, deadline: deadline) { decision.record($0) }
        return decision
    }

    @Test func aFullQueueRefusesAtOnceAndCountsTheRefusal() throws {
        let metrics = TestMetrics()
        let admission = Self.control(.init(maxCallsInProgress: 1, maxWaiting: 0, maxWait: .seconds(1)), metrics: metrics)
        let loop = EmbeddedEventLoop()
        #expect(admission.tryEnter())
        #expect(!admission.tryEnter())
        let refused = Self.wait(admission, on: loop)
        #expect(refused.outcome == false)
        #expect(admission.callsInProgress == 1 && admission.callsWaiting == 0)
        let counter = try metrics.expectCounter(AdmissionControl.refusedLabel, [("cause", "queue_full")])
        #expect(counter.totalValue == 1)
        admission.leave()
        #expect(admission.callsInProgress == 0)
        #expect(admission.tryEnter())
    }

    @Test func aWaiterIsRefusedWhenItsBudgetRunsOut() {
        let admission = Self.control(.init(maxCallsInProgress: 1, maxWaiting: 4, maxWait: .milliseconds(100)))
        let loop = EmbeddedEventLoop()
        #expect(admission.tryEnter())
        let waiting = Self.wait(admission, on: loop)
        #expect(waiting.outcome == nil && admission.callsWaiting == 1)
        loop.advanceTime(by: .milliseconds(99))
        #expect(waiting.outcome == nil)
        loop.advanceTime(by: .milliseconds(1))
        #expect(waiting.outcome == false)
        #expect(admission.callsWaiting == 0 && admission.callsInProgress == 1)
        // Nobody waits now: the place given back is free again.
        admission.leave()
        #expect(admission.callsInProgress == 0)
    }

    @Test func aDeadlineNearerThanTheBudgetEndsTheWait() {
        let clock = ManualClock()
        let admission = Self.control(.init(maxCallsInProgress: 1, maxWaiting: 4, maxWait: .seconds(10)), clock: clock)
        let loop = EmbeddedEventLoop()
        #expect(admission.tryEnter())
        let waiting = Self.wait(admission, on: loop, deadline: clock.read().advanced(by: .milliseconds(50)))
        loop.advanceTime(by: .milliseconds(49))
        #expect(waiting.outcome == nil)
        loop.advanceTime(by: .milliseconds(1))
        #expect(waiting.outcome == false)
        // A deadline already past: refused without waiting.
        let late = Self.wait(admission, on: loop, deadline: clock.read().advanced(by: .milliseconds(-1)))
        #expect(late.outcome == false && admission.callsWaiting == 0)
    }

    @Test func aPlaceGivenBackGoesToTheFirstWaiter() {
        let admission = Self.control(.init(maxCallsInProgress: 1, maxWaiting: 4, maxWait: .seconds(1)))
        let loop = EmbeddedEventLoop()
        #expect(admission.tryEnter())
        let first = Self.wait(admission, on: loop)
        let second = Self.wait(admission, on: loop)
        // Waiters come first: a new call does not take the place from them.
        admission.leave()
        #expect(!admission.tryEnter())
        loop.run()
        #expect(first.outcome == true && second.outcome == nil)
        #expect(admission.callsInProgress == 1 && admission.callsWaiting == 1)
        admission.leave()
        loop.run()
        #expect(second.outcome == true && admission.callsWaiting == 0)
        // The first waiter's budget passing later changes nothing.
        loop.advanceTime(by: .seconds(2))
        admission.leave()
        #expect(admission.callsInProgress == 0)
    }

    /// The limits of the overload tests: one place, waits of 100 ms (5 ms overloaded), and
    /// overload once the calls leaving the queue waited 50 ms or more for a whole 100 ms.
    static let overloadLimits = AdmissionControl.Limits(
        maxCallsInProgress: 1, maxWaiting: 64, maxWait: .milliseconds(100), overloadedWait: .milliseconds(5),
        target: .milliseconds(50), interval: .milliseconds(100))

    /// A burst larger than the places on an idle server, drained within the wait, is served, even
    /// though a wait ran out just before it (the old rule: one wait run out made every later
    /// call's wait the short one until the queue emptied) and its last calls waited near the limit.
    @Test func aBurstDrainedWithinTheWaitIsServedAfterOneWaitRanOut() throws {
        let metrics = TestMetrics()
        let limits = AdmissionControl.Limits(
            maxCallsInProgress: 2, maxWaiting: 64, maxWait: .milliseconds(100), overloadedWait: .milliseconds(5),
            target: .milliseconds(50), interval: .milliseconds(100))
        let admission = Self.control(limits, metrics: metrics)
        let loop = EmbeddedEventLoop()
        #expect(admission.tryEnter() && admission.tryEnter())
        // t=0: a call waits; t=90: a burst of ten more; t=100: the first one's wait runs out.
        let first = Self.wait(admission, on: loop)
        loop.advanceTime(by: .milliseconds(90))
        let burst = (0..<10).map { _ in Self.wait(admission, on: loop) }
        loop.advanceTime(by: .milliseconds(10))
        #expect(first.outcome == false && admission.callsWaiting == 10)
        // From t=100 a place comes back every 8 ms (the call that had it is done): the burst
        // drains by t=172, its last calls after 80 ms and more of their 100.
        var late: Decision?
        for index in 0..<10 {
            if index == 6 {
                // t=148: another call joins the queue, which has not emptied since the wait ran out.
                late = Self.wait(admission, on: loop)
            }
            admission.leave()
            loop.run()
            #expect(burst[index].outcome == true)
            loop.advanceTime(by: .milliseconds(8))
        }
        #expect(!admission.isOverloaded)
        let joined = try #require(late)
        #expect(joined.outcome == nil)
        admission.leave()
        loop.run()
        #expect(joined.outcome == true)
        admission.leave()
        admission.leave()
        #expect(admission.callsInProgress == 0 && admission.callsWaiting == 0)
        let refused = try metrics.expectCounter(AdmissionControl.refusedLabel, [("cause", "wait_expired")])
        #expect(refused.totalValue == 1)
    }

    /// A call whose own deadline ends its wait says nothing about the queue: the calls behind it
    /// keep the full wait.
    @Test func aWaitEndedByItsDeadlineIsNoEvidenceOfOverload() {
        let clock = ManualClock()
        let admission = Self.control(Self.overloadLimits, clock: clock)
        let loop = EmbeddedEventLoop()
        #expect(admission.tryEnter())
        let patient = Self.wait(admission, on: loop)
        let impatient = Self.wait(admission, on: loop, deadline: clock.read().advanced(by: .milliseconds(10)))
        loop.advanceTime(by: .milliseconds(10))
        #expect(impatient.outcome == false && patient.outcome == nil)
        let next = Self.wait(admission, on: loop)
        loop.advanceTime(by: .milliseconds(60))
        #expect(next.outcome == nil && !admission.isOverloaded)
        admission.leave()
        loop.run()
        admission.leave()
        loop.run()
        #expect(patient.outcome == true && next.outcome == true)
        admission.leave()
    }

    /// More calls than the server serves, for longer than an interval: the waits keep running out,
    /// so the queue becomes overloaded; then a new call waits 5 ms, the calls queued before with
    /// the long wait are refused rather than admitted late, and a call whose place comes within
    /// 5 ms is served.
    @Test func sustainedExcessSwitchesToTheShortWait() throws {
        let metrics = TestMetrics()
        let admission = Self.control(Self.overloadLimits, metrics: metrics)
        let loop = EmbeddedEventLoop()
        #expect(admission.tryEnter())
        // A call every 10 ms while the one place stays taken: from t=100 each wait runs out.
        var waiting: [Decision] = []
        for _ in 0..<20 {
            #expect(!admission.isOverloaded)
            waiting.append(Self.wait(admission, on: loop))
            loop.advanceTime(by: .milliseconds(10))
        }
        // t=200: the waits have run out for a whole interval (t=100 to t=200).
        #expect(admission.isOverloaded)
        #expect(waiting.prefix(11).allSatisfy { $0.outcome == false })
        let queuedBefore = Array(waiting.suffix(9))
        #expect(queuedBefore.allSatisfy { $0.outcome == nil } && admission.callsWaiting == 9)
        let short = Self.wait(admission, on: loop)
        loop.advanceTime(by: .milliseconds(4))
        #expect(short.outcome == nil)
        loop.advanceTime(by: .milliseconds(1))
        #expect(short.outcome == false)
        // The place comes back: the calls that waited longer than 5 ms are refused, the place is free.
        admission.leave()
        loop.run()
        #expect(queuedBefore.allSatisfy { $0.outcome == false })
        #expect(admission.callsWaiting == 0 && admission.callsInProgress == 0)
        // A call whose place comes within the short wait is admitted.
        #expect(admission.tryEnter())
        let served = Self.wait(admission, on: loop)
        loop.advanceTime(by: .milliseconds(3))
        admission.leave()
        loop.run()
        #expect(served.outcome == true && admission.isOverloaded)
        admission.leave()
        let refused = try metrics.expectCounter(AdmissionControl.refusedLabel, [("cause", "wait_expired")])
        #expect(refused.totalValue == 21)
    }

    /// Once the queue has drained and a whole interval went by without refusing anyone, calls get
    /// the full wait again; before that they still get the short one.
    @Test func theQueueSwitchesBackOnceItHasDrained() {
        let admission = Self.control(Self.overloadLimits)
        let loop = EmbeddedEventLoop()
        #expect(admission.tryEnter())
        for _ in 0..<20 {
            _ = Self.wait(admission, on: loop)
            loop.advanceTime(by: .milliseconds(10))
        }
        #expect(admission.isOverloaded)
        // The place comes back: the waiters left are refused (they waited too long); the queue is empty.
        admission.leave()
        loop.run()
        #expect(admission.callsWaiting == 0)
        #expect(admission.tryEnter())
        // Refusals were 50 ms ago: still overloaded, the wait is short.
        loop.advanceTime(by: .milliseconds(50))
        let soon = Self.wait(admission, on: loop)
        loop.advanceTime(by: .milliseconds(5))
        #expect(soon.outcome == false)
        // A whole interval without refusals: the full wait again.
        loop.advanceTime(by: .milliseconds(100))
        let later = Self.wait(admission, on: loop)
        #expect(!admission.isOverloaded)
        loop.advanceTime(by: .milliseconds(99))
        #expect(later.outcome == nil)
        admission.leave()
        loop.run()
        #expect(later.outcome == true)
        admission.leave()
        #expect(admission.callsInProgress == 0)
    }

    /// Clients that each wait for their answer keep the queue busy, but while it moves within the
    /// full wait they keep the full wait, however long the queue stays non-empty.
    @Test func aBusyQueueThatMovesInTimeKeepsTheFullWait() {
        let clock = ManualClock()
        let admission = Self.control(
            .init(maxCallsInProgress: 1, maxWaiting: 2, maxWait: .milliseconds(100), overloadedWait: .milliseconds(5)), clock: clock)
        let loop = EmbeddedEventLoop()
        #expect(admission.tryEnter())
        var waiting = Self.wait(admission, on: loop)
        for _ in 0..<5 {
            // One waiter at a time, the queue never empty: each gets its place within the full wait.
            clock.advance(.milliseconds(50))
            let next = Self.wait(admission, on: loop)
            loop.advanceTime(by: .milliseconds(40))
            #expect(next.outcome == nil)
            admission.leave()
            loop.run()
            #expect(waiting.outcome == true)
            waiting = next
        }
        admission.leave()
        loop.run()
        #expect(waiting.outcome == true)
        admission.leave()
        #expect(admission.callsInProgress == 0)
    }

    /// Calls that come to the queue, `perWindow` every 10 ms (the growth window of
    /// `standingLimits`) for `windows` windows, none admitted; the time then stands at the start of
    /// the next window.
    static func arrive(
        _ admission: AdmissionControl, on loop: EmbeddedEventLoop, windows: Int, perWindow: Int, isRetry: Bool = false
    ) -> [Decision] {
        var decisions: [Decision] = []
        for _ in 0..<windows {
            for _ in 0..<perWindow {
                let decision = Decision()
                admission.wait(on: loop, deadline: nil, isRetry: isRetry) { decision.record($0) }
                decisions.append(decision)
            }
            loop.advanceTime(by: .milliseconds(10))
        }
        return decisions
    }

    static func standingLimits(places: Int) -> AdmissionControl.Limits {
        .init(maxCallsInProgress: places, maxWaiting: 256, maxWait: .seconds(1),
              standingWait: .milliseconds(20), standingCallsInProgress: 1, growthWindow: .milliseconds(10))
    }

    /// A queue that grows for three windows in a row stands once its oldest call has waited the
    /// standing wait: the newest waiter gets each place, and only the standing number of places is
    /// given; once empty, first come first served with every place again.
    @Test func aGrowingQueueStandsAndServesTheNewestFirstWithFewerPlaces() {
        let admission = Self.control(Self.standingLimits(places: 4))
        let loop = EmbeddedEventLoop()
        for _ in 0..<4 { #expect(admission.tryEnter()) }
        // Four calls a window, none admitted: the first window is only counted from the first call.
        var waiting = Self.arrive(admission, on: loop, windows: 3, perWindow: 4)
        #expect(!admission.isStanding)
        waiting += Self.arrive(admission, on: loop, windows: 1, perWindow: 1)
        #expect(admission.isStanding)
        // Places given back above the standing limit of one go to nobody.
        for _ in 0..<3 { admission.leave() }
        loop.run()
        #expect(admission.callsInProgress == 1 && admission.callsWaiting == 13)
        #expect(waiting.allSatisfy { $0.outcome == nil })
        // Below it: the newest first.
        admission.leave()
        loop.run()
        #expect(waiting[12].outcome == true && waiting.prefix(12).allSatisfy { $0.outcome == nil })
        admission.leave()
        loop.run()
        #expect(waiting[11].outcome == true && waiting[0].outcome == nil)
        while admission.callsWaiting > 0 {
            admission.leave()
            loop.run()
        }
        #expect(waiting.allSatisfy { $0.outcome == true })
        // Empty: every place again, first come first served.
        #expect(!admission.isStanding)
        for _ in 0..<3 { #expect(admission.tryEnter()) }
        #expect(admission.callsInProgress == 4)
        for _ in 0..<4 { admission.leave() }
        #expect(admission.callsInProgress == 0)
    }

    /// A closed load: each call admitted brings its client's next call. However long its queue,
    /// it never grows, so it never stands, and its calls are served first come first served.
    @Test func aClosedLoadsQueueMovesWithoutStanding() {
        let admission = Self.control(Self.standingLimits(places: 2))
        let loop = EmbeddedEventLoop()
        #expect(admission.tryEnter() && admission.tryEnter())
        // Twelve clients over the two places arrive at once: one window grew.
        var waiting = Self.arrive(admission, on: loop, windows: 1, perWindow: 10)
        var served = 0
        for _ in 0..<30 {
            // Per window: two places come back, their waiters are admitted, and their clients'
            // answers bring two calls.
            for _ in 0..<2 {
                admission.leave()
                loop.run()
                #expect(waiting[served].outcome == true)
                served += 1
                waiting.append(Self.wait(admission, on: loop))
            }
            loop.advanceTime(by: .milliseconds(10))
            #expect(!admission.isStanding)
        }
        #expect(admission.callsWaiting == 10 && waiting.allSatisfy { $0.outcome != false })
        while admission.callsWaiting > 0 {
            admission.leave()
            loop.run()
        }
        for _ in 0..<2 { admission.leave() }
        #expect(admission.callsInProgress == 0 && waiting.allSatisfy { $0.outcome == true })
    }

    /// Calls their clients send again after a refusal (`grpc-previous-rpc-attempts`) are the same
    /// load: however many come, they do not make the queue grow.
    @Test func retriesDoNotMakeTheQueueGrow() {
        let admission = Self.control(Self.standingLimits(places: 1))
        let loop = EmbeddedEventLoop()
        #expect(admission.tryEnter())
        let retried = Self.arrive(admission, on: loop, windows: 6, perWindow: 4, isRetry: true)
        #expect(!admission.isStanding)
        // New calls, as many a window, do.
        let fresh = Self.arrive(admission, on: loop, windows: 4, perWindow: 4)
        #expect(admission.isStanding)
        while admission.callsWaiting > 0 {
            admission.leave()
            loop.run()
        }
        admission.leave()
        #expect((retried + fresh).allSatisfy { $0.outcome == true } && admission.callsInProgress == 0)
    }

    /// The oldest waiters of a standing queue wait out their wait and are refused; the newest,
    /// served first, wait little.
    @Test func aStandingQueueRefusesItsOldestWhenTheirWaitRunsOut() {
        let admission = Self.control(.init(
            maxCallsInProgress: 2, maxWaiting: 64, maxWait: .milliseconds(100),
            standingWait: .milliseconds(20), standingCallsInProgress: 1, growthWindow: .milliseconds(10)))
        let loop = EmbeddedEventLoop()
        #expect(admission.tryEnter() && admission.tryEnter())
        // Five calls arrive every 10 ms and one place comes back every 10 ms: five times the throughput.
        var waiting: [Decision] = []
        for _ in 0..<20 {
            for _ in 0..<5 { waiting.append(Self.wait(admission, on: loop)) }
            loop.advanceTime(by: .milliseconds(10))
            admission.leave()
            loop.run()
        }
        #expect(admission.isStanding)
        // The first calls, queued before the queue stood, were served in order; then the newest
        // got each place, and the oldest of those left behind ran out of wait (100 ms).
        #expect(waiting[0].outcome == true)
        let refused = waiting.filter { $0.outcome == false }.count
        let served = waiting.filter { $0.outcome == true }.count
        #expect(refused > 0 && served > 0 && refused + served + admission.callsWaiting == waiting.count)
        #expect(waiting.suffix(6).contains { $0.outcome == true })
        while admission.callsWaiting > 0 {
            admission.leave()
            loop.run()
        }
        for _ in 0..<admission.callsInProgress { admission.leave() }
        #expect(admission.callsInProgress == 0)
    }

    @Test func refusalsCarryARandomizedRetryDelay() {
        let admission = Self.control(.init(
            maxCallsInProgress: 1, maxWaiting: 0, maxWait: .zero, retryDelay: .milliseconds(10) ... .milliseconds(20)))
        for _ in 0..<50 {
            let refusal = admission.refusal()
            #expect(refusal.code == .unavailable)
            let delay = refusal.retryDelay ?? .zero
            #expect(delay >= .milliseconds(10) && delay <= .milliseconds(20))
        }
    }

    /// Many threads take and give back places at once, some through the queue: at no time do more
    /// calls hold places than the limit, every call is decided exactly once, and all places come
    /// back (a count below zero would stop the process: `leave` checks it).
    @Test func placesStayWithinTheLimitUnderConcurrency() async throws {
        let limit = 4
        let admission = Self.control(.init(maxCallsInProgress: limit, maxWaiting: 6, maxWait: .seconds(5)))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 4)
        let tally = Tally()
        let workers = 16, rounds = 300
        await withTaskGroup(of: Void.self) { tasks in
            for _ in 0..<workers {
                tasks.addTask {
                    for _ in 0..<rounds {
                        let loop = group.next()
                        let entered: Bool = await withCheckedContinuation { continuation in
                            loop.execute {
                                if admission.tryEnter() { return continuation.resume(returning: true) }
                                admission.wait(on: loop, deadline: nil) { continuation.resume(returning: $0) }
                            }
                        }
                        guard entered else {
                            tally.refused.add(1, ordering: .relaxed)
                            continue
                        }
                        tally.admitted.add(1, ordering: .relaxed)
                        let now = tally.holding.add(1, ordering: .sequentiallyConsistent).newValue
                        var seen = tally.highest.load(ordering: .relaxed)
                        while now > seen {
                            let (exchanged, original) = tally.highest.compareExchange(expected: seen, desired: now, ordering: .relaxed)
                            if exchanged { break }
                            seen = original
                        }
                        await Task.yield()
                        tally.holding.subtract(1, ordering: .sequentiallyConsistent)
                        admission.leave()
                    }
                }
            }
        }
        #expect(tally.admitted.load(ordering: .relaxed) + tally.refused.load(ordering: .relaxed) == workers * rounds)
        #expect(tally.admitted.load(ordering: .relaxed) > 0)
        #expect(tally.highest.load(ordering: .relaxed) <= limit)
        #expect(admission.callsInProgress == 0 && admission.callsWaiting == 0)
        try await group.shutdownGracefully()
    }

    /// What the concurrent callers saw.
    final class Tally: Sendable {
        let holding = Atomic<Int>(0)
        let highest = Atomic<Int>(0)
        let admitted = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
    }

    // MARK: The hook in the call path

    /// `Hold` waits until the test opens its gate; `Echo` answers at once.
    static func router(_ admission: AdmissionControl, gate: Gate, completer: (any ErrorStatusCompleter)? = nil) -> GRPCRouter {
        GRPCRouter(
            services: [TestService(methods: [
                .unary("Hold") { (request: RawMessage, _: ServerContext) in
                    gate.arrived()
                    await gate.pass()
                    return request
                },
                .unary("Echo") { (request: RawMessage, _: ServerContext) in
                    gate.ran()
                    return request
                },
                .synchronousUnary("Check") { (request: RawMessage, _: ServerContext) in request },
                .clientStreaming("Count") { (requests: RPCReader<RawMessage>, _: ServerContext) in
                    var count: UInt8 = 0
                    for try await _ in requests { count += 1 }
                    return RawMessage([count])
                },
            ])],
            errorStatus: completer,
            configuration: .init(handlers: .threads(HandlerPlacements.handlerThreads), admission: admission),
            logger: quietLogger)
    }

    /// Holds handlers until opened, and counts the ones that ran.
    final class Gate: Sendable {
        private struct State {
            var open = false
            var waiters: [CheckedContinuation<Void, Never>] = []
            var arrivals: [CheckedContinuation<Void, Never>] = []
            var arrived = 0
            var ran = 0
        }
        private let state = NIOLockedValueBox(State())

        var ranCount: Int { state.withLockedValue { $0.ran } }
        func ran() { state.withLockedValue { $0.ran += 1 } }

        func arrived() {
            let ready = state.withLockedValue { state in
                state.arrived += 1
                defer { state.arrivals = [] }
                return state.arrivals
            }
            for continuation in ready { continuation.resume() }
        }

        /// Waits until a handler has arrived at the gate.
        func waitForArrival() async {
            await withCheckedContinuation { continuation in
                let ready = state.withLockedValue { state in
                    if state.arrived > 0 { return true }
                    state.arrivals.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        }

        func pass() async {
            await withCheckedContinuation { continuation in
                let open = state.withLockedValue { state in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if open { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLockedValue { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for continuation in waiters { continuation.resume() }
        }
    }

    static func details(_ events: [RecordingResponseStream.Event]) throws -> GoogleRPC.Status {
        let block = try #require(events.last?.headerBlock)
        let text = try #require(block["grpc-status-details-bin"])
        return try GoogleRPC.Status(decoding: try #require(MetadataBase64.decode(text[...])))
    }

    @Test func aCallFindingNoPlaceIsRefusedUnexecutedAndServedOnceThePlaceIsBack() async throws {
        let admission = Self.control(.init(maxCallsInProgress: 1, maxWaiting: 0, maxWait: .zero))
        let gate = Gate()
        let router = Self.router(admission, gate: gate)
        let held = CallDriver(router: router)
        try await held.open(path: "/souk.test.Test/Hold")
        try await held.send(messages: [[1]])
        await gate.waitForArrival()
        #expect(admission.callsInProgress == 1)

        let refused = try await CallDriver(router: router).unary(path: "/souk.test.Test/Echo", request: [2])
        #expect(refused.last?.headerBlock?["grpc-status"] == "14")
        let status = try Self.details(refused)
        #expect(status.code == 14)
        #expect(try status.details.contains { try $0.unpack(GoogleRPC.RetryInfo.self)?.retryDelay != nil })
        #expect(gate.ranCount == 0)

        // A synchronous method (a health check) still answers.
        let check = try await CallDriver(router: router).unary(path: "/souk.test.Test/Check", request: [3])
        #expect(check.last == .trailers([HTTP2Header("grpc-status", "0")]))

        gate.open()
        let done = await held.stream.waitForEnd()
        #expect(done.last == .trailers([HTTP2Header("grpc-status", "0")]))
        #expect(admission.callsInProgress == 0)
        let served = try await CallDriver(router: router).unary(path: "/souk.test.Test/Echo", request: [4])
        #expect(served.last == .trailers([HTTP2Header("grpc-status", "0")]))
        #expect(gate.ranCount == 1 && admission.callsInProgress == 0)
    }

    @Test func aCancelledCallGivesItsPlaceBack() async throws {
        let admission = Self.control(.init(maxCallsInProgress: 1, maxWaiting: 0, maxWait: .zero))
        let gate = Gate()
        let router = Self.router(admission, gate: gate)
        let held = CallDriver(router: router)
        try await held.open(path: "/souk.test.Test/Hold")
        try await held.send(messages: [[1]])
        await gate.waitForArrival()
        #expect(admission.callsInProgress == 1)
        try await held.close(.resetByPeer(errorCode: 8))
        #expect(admission.callsInProgress == 0)
        let served = try await CallDriver(router: router).unary(path: "/souk.test.Test/Echo", request: [2])
        #expect(served.last == .trailers([HTTP2Header("grpc-status", "0")]))
        gate.open()
    }

    @Test func aWaitingCallStartsWhenThePlaceComesBack() async throws {
        let admission = Self.control(.init(maxCallsInProgress: 1, maxWaiting: 1, maxWait: .seconds(60)))
        let gate = Gate()
        let router = Self.router(admission, gate: gate)
        let held = CallDriver(router: router)
        try await held.open(path: "/souk.test.Test/Hold")
        try await held.send(messages: [[1]])
        await gate.waitForArrival()
        let waiting = CallDriver(router: router)
        try await waiting.open(path: "/souk.test.Test/Echo")
        try await waiting.send(messages: [[2]])
        #expect(admission.callsWaiting == 1 && gate.ranCount == 0)
        gate.open()
        let served = await waiting.stream.waitForEnd()
        #expect(served.last == .trailers([HTTP2Header("grpc-status", "0")]))
        #expect(gate.ranCount == 1)
        _ = await held.stream.waitForEnd()
        #expect(admission.callsInProgress == 0 && admission.callsWaiting == 0)
    }

    @Test func aClientStreamThatWaitedGivesItsPlaceBackOnceItStarts() async throws {
        let admission = Self.control(.init(maxCallsInProgress: 1, maxWaiting: 1, maxWait: .seconds(60)))
        let gate = Gate()
        let router = Self.router(admission, gate: gate)
        let held = CallDriver(router: router)
        try await held.open(path: "/souk.test.Test/Hold")
        try await held.send(messages: [[1]])
        await gate.waitForArrival()
        let stream = CallDriver(router: router)
        try await stream.open(path: "/souk.test.Test/Count")
        #expect(admission.callsWaiting == 1)
        gate.open()
        _ = await held.stream.waitForEnd()
        // Started (its reader takes messages) yet holding no place: the client paces it.
        try await stream.send(messages: [[1], [2]], endStream: false)
        #expect(admission.callsInProgress == 0 && admission.callsWaiting == 0)
        let served = try await CallDriver(router: router).unary(path: "/souk.test.Test/Echo", request: [3])
        #expect(served.last == .trailers([HTTP2Header("grpc-status", "0")]))
        try await stream.send([], endStream: true)
        let counted = await stream.stream.waitForEnd()
        #expect(try messages(in: counted) == [[2]])
    }
}
