import SoukGRPC
import SoukJSON
import SoukLoadKit
import SoukMessages
import Testing

@Suite("Templates and captures")
struct TemplateTests {
    func context() -> TemplateContext {
        var context = TemplateContext(vu: 7, iteration: 3, run: "r1", seed: 42, today: (2026, 11, 27))
        context.steps["list"] = try! JSON.parse(#"""
            {"products": [{"name": "Barbera", "id": "p1", "price": {"amountMinor": "8990"}},
                          {"name": "Syrah", "id": "p2", "optionGroups": [{"id": "g"}]}],
             "windows": [{"available": false, "window": {"start": 1}}, {"available": true, "window": {"start": 2}}]}
            """#)
        context.vars["orderId"] = .string("o-9")
        context.data["account"] = try! JSON.parse(#"{"email": "a@example.com"}"#)
        return context
    }

    @Test func wholeStringExpressionKeepsTheValuesType() throws {
        var c = context()
        let rendered = try Template.render(try JSON.parse(#"{"n": "{{vu}}", "price": "{{steps.list.products[0].price}}", "window": "{{steps.list.windows[available].window}}"}"#), &c)
        #expect(rendered == (try JSON.parse(#"{"n": 7, "price": {"amountMinor": "8990"}, "window": {"start": 2}}"#)))
    }

    @Test func expressionsInsideTextAreInterpolated() throws {
        var c = context()
        let rendered = try Template.render(.string("load-{{run}}-{{vu}}-{{iteration}} {{steps.list.products[0].name}} {{vars.orderId}} {{account.email}}"), &c)
        #expect(rendered == .string("load-r1-7-3 Barbera o-9 a@example.com"))
    }

    @Test func pathFiltersAndNegativeIndexes() throws {
        let list = context().steps["list"]!
        #expect(try JSONPath.value(at: "products[name=Syrah].id", in: list) == .string("p2"))
        #expect(try JSONPath.value(at: "products[!optionGroups].id", in: list) == .string("p1"))
        #expect(try JSONPath.value(at: "products[optionGroups].id", in: list) == .string("p2"))
        #expect(try JSONPath.value(at: "products[-1].name", in: list) == .string("Syrah"))
        #expect(try JSONPath.value(at: "products[5].name", in: list) == nil)
        #expect(try JSONPath.value(at: "missing.field", in: list) == nil)
    }

    @Test func missingValuesAreErrorsNamingThePath() {
        var c = context()
        #expect(throws: LoadError.self) { try Template.render(.string("{{steps.nope.id}}"), &c) }
        #expect(throws: LoadError.self) { try Template.render(.string("{{steps.list.products[9].id}}"), &c) }
        #expect(throws: LoadError.self) { try Template.render(.string("{{unknownFunction 1}}"), &c) }
    }

    @Test func randomIsWithinBoundsAndRepeatableFromTheSeed() throws {
        var a = context()
        var b = context()
        for _ in 0..<100 {
            let x = try Template.evaluate("random 3 5", &a)
            #expect(x == (try Template.evaluate("random 3 5", &b)))
            guard case .number(let text) = x, let n = Int(text) else { Issue.record("not a number"); return }
            #expect((3...5).contains(n))
        }
        #expect(try Template.evaluate("uuid", &a).text.count == 36)
    }

    @Test func datesAndRegex() throws {
        var c = context()
        #expect(try Template.evaluate("date 5", &c) == (try JSON.parse(#"{"year": 2026, "month": 12, "day": 2}"#)))
        #expect(try Template.evaluate("monthStart 2", &c) == (try JSON.parse(#"{"year": 2027, "month": 1, "day": 1}"#)))
        c.steps["mail"] = try JSON.parse(#"{"messages": [{"body": "old 111111"}, {"body": "Your code is 482913. It expires."}]}"#)
        #expect(try Template.evaluate(#"regex \b(\d{6})\b steps.mail.messages[-1].body"#, &c) == .string("482913"))
    }

    @Test func constantTemplatesAreRecognised() throws {
        #expect(Template.isConstant(try JSON.parse(#"{"a": [1, "x"], "b": {"c": true}}"#)))
        #expect(!Template.isConstant(try JSON.parse(#"{"a": [1, "{{vu}}"]}"#)))
    }

    @Test func jsonRoundTripKeepsBigNumbersAndEscapes() throws {
        let text = #"{"id":"x","big":12345678901234567890,"s":"a\"b\\c\n\u00e9","list":[true,false,null,1.5e3]}"#
        let value = try JSON.parse(text)
        #expect(value.serialized() == #"{"id":"x","big":12345678901234567890,"s":"a\"b\\c\n"# + "\u{e9}" + #"","list":[true,false,null,1.5e3]}"#)
        #expect(throws: LoadError.self) { try JSON.parse("{\"a\": }") }
    }
}

@Suite("Rate schedules")
struct ScheduleTests {
    @Test func constantRateSpacesCallsEvenly() {
        let schedule = RateSchedule(rate: 1000, duration: 1_000_000_000)
        #expect(schedule.totalCalls == 1000)
        #expect(schedule.sendTime(ofCall: 0) == 0)
        #expect(schedule.sendTime(ofCall: 1) == 1_000_000)
        #expect(schedule.sendTime(ofCall: 999) == 999_000_000)
        #expect(schedule.sendTime(ofCall: 1000) == nil)
    }

    @Test func rampSendsEverCloserAtTheIntegratedRate() throws {
        // 0 → 200 calls/s over 1 s: 100 calls; call n goes at t with 100·t² = n, t = √(n/100).
        let schedule = try RateSchedule.parse(stages: "1s@0->200")
        #expect(schedule.totalCalls == 100)
        #expect(schedule.sendTime(ofCall: 0) == 0)
        #expect(schedule.sendTime(ofCall: 1) == 100_000_000)
        #expect(schedule.sendTime(ofCall: 25) == 500_000_000)
        #expect(schedule.sendTime(ofCall: 64) == 800_000_000)
        #expect(schedule.sendTime(ofCall: 100) == nil)
        var previousGap = UInt64.max
        var previous: UInt64 = 0
        for n in UInt64(1)..<100 {
            let t = schedule.sendTime(ofCall: n)!
            #expect(t - previous <= previousGap)
            previousGap = t - previous
            previous = t
        }
    }

    @Test func stagesFollowEachOther() throws {
        // 2 s at 10/s (20 calls), a 1 s pause, then 1 s ramping 10 → 30 (20 calls).
        let schedule = try RateSchedule.parse(stages: "2s@10,1s@0,1s@10->30")
        #expect(schedule.duration == 4_000_000_000)
        #expect(schedule.totalCalls == 40)
        #expect(schedule.sendTime(ofCall: 19) == 1_900_000_000)
        #expect(schedule.sendTime(ofCall: 20) == 3_000_000_000)
        // In the ramp: 10t + 10t² = 11 → t = (−10 + √(100 + 440)) / 20.
        let expected = 3_000_000_000 + UInt64(((-10 + (540.0).squareRoot()) / 20 * 1e9).rounded())
        #expect(schedule.sendTime(ofCall: 31) == expected)
        #expect(schedule.sendTime(ofCall: 40) == nil)
    }

    @Test func badStagesAreRefused() {
        #expect(throws: LoadError.self) { try RateSchedule.parse(stages: "10s") }
        #expect(throws: LoadError.self) { try RateSchedule.parse(stages: "10x@5") }
        #expect(throws: LoadError.self) { try RateSchedule.parse(stages: "10s@-5") }
        #expect(throws: LoadError.self) { try RateSchedule.parse(stages: "10s@5->") }
    }

    @Test func durations() throws {
        #expect(try parseDuration("250ms") == 250_000_000)
        #expect(try parseDuration("2m") == 120_000_000_000)
        #expect(try parseDuration("1.5") == 1_500_000_000)
        #expect(try parseDuration("40us") == 40_000)
    }
}

/// A clock moved by hand.
final class FakeClock: LoadClock, @unchecked Sendable {
    var time: UInt64 = 0
    func now() -> UInt64 { time }
}

@Suite("Coordinated omission")
struct OpenLoopTests {
    @Test func aStallCountsTheWholeQueueNotJustTheServiceTime() {
        // 1000 calls/s from t = 1 s; the server answers each call 1 ms after it is sent, except
        // that it stalls for 100 ms at the first call. A closed loop would record one slow call;
        // the open model sends the calls due during the stall late, and measures each from its
        // intended time.
        let clock = FakeClock()
        clock.time = 1_000_000_000
        var pacer = OpenLoopPacer(schedule: RateSchedule(rate: 1000, duration: 200_000_000), start: clock.time, maxInFlight: 1000, lateTolerance: 0)
        var latencies: [UInt64] = []
        var lateCount = 0
        // The sender only gets to run at these times (its loop is blocked by the stall in between).
        var wakeups: [UInt64] = [0]
        wakeups += Array(stride(from: UInt64(100_000_000), through: 200_000_000, by: 1_000_000))
        for wake in wakeups {
            clock.time = 1_000_000_000 + wake
            while let (intended, decision) = pacer.nextDue(now: clock.time) {
                guard case .send(let late) = decision else { Issue.record("dropped"); continue }
                if late { lateCount += 1 }
                let service: UInt64 = intended == 1_000_000_000 ? 100_000_000 : 1_000_000
                latencies.append(pacer.completed(intended: intended, now: clock.time + service))
            }
        }
        #expect(pacer.isFinished)
        #expect(latencies.count == 200)
        #expect(pacer.sent == 200)
        // Calls 1...99 were due during the stall and sent at t = 100 ms: late.
        #expect(lateCount == 99)
        #expect(pacer.late == 99)
        #expect(latencies[0] == 100_000_000)
        // Call 1 was due at 1 ms, sent at 100 ms and answered at 101 ms: 100 ms, not 1 ms.
        #expect(latencies[1] == 100_000_000)
        #expect(latencies[50] == 51_000_000)
        #expect(latencies[99] == 2_000_000)
        #expect(latencies[150] == 1_000_000)
    }

    @Test func callsOverTheInFlightBoundAreDroppedNotQueued() {
        let clock = FakeClock()
        var pacer = OpenLoopPacer(schedule: RateSchedule(rate: 1000, duration: 10_000_000), start: 0, maxInFlight: 3, lateTolerance: 500_000)
        var running: [UInt64] = []
        var decisions: [OpenLoopDecision] = []
        // Nothing completes for the first 5 ms: calls 0, 1, 2 run; 3, 4, 5 are dropped.
        for t in stride(from: UInt64(0), through: 5_000_000, by: 1_000_000) {
            clock.time = t
            while let (intended, decision) = pacer.nextDue(now: clock.time) {
                decisions.append(decision)
                if case .send = decision { running.append(intended) }
            }
        }
        #expect(decisions == [.send(late: false), .send(late: false), .send(late: false), .drop, .drop, .drop])
        #expect(pacer.dropped == 3)
        #expect(pacer.inFlight == 3)
        // One ends at 5.5 ms: the next due call (6 ms) goes again.
        _ = pacer.completed(intended: running.removeFirst(), now: 5_500_000)
        clock.time = 6_000_000
        #expect(pacer.nextDue(now: clock.time)?.decision == .send(late: false))
        // A call sent 0.6 ms after its time is late with a 0.5 ms tolerance.
        _ = pacer.completed(intended: running.removeFirst(), now: 6_100_000)
        #expect(pacer.nextDue(now: 7_600_000)?.decision == .send(late: true))
    }
}

@Suite("Statistics")
struct StatsTests {
    @Test func mergedTablesAddCountsAndKeepPercentilesOrdered() {
        var a = StatsTable()
        var b = StatsTable()
        for i in 1...1000 { a.update("EmptyCall") { $0.recordOK(latency: UInt64(i) * 1_000) } }
        b.update("EmptyCall") {
            $0.record(latency: 5_000_000, status: "UNAVAILABLE", reason: "OVERLOADED", message: "busy")
            $0.record(latency: 7_000_000, status: "RESOURCE_EXHAUSTED")
        }
        a.merge(b)
        a.settle()
        let stats = a["EmptyCall"]
        #expect(stats.calls == 1002)
        #expect(stats.errors == 2)
        #expect(stats.statuses == ["OK": 1000, "UNAVAILABLE": 1, "RESOURCE_EXHAUSTED": 1])
        #expect(stats.reasons == ["UNAVAILABLE/OVERLOADED": 1, "RESOURCE_EXHAUSTED/": 1])
        let values = Report.percentiles.map { stats.latency.valueAtPercentile($0.1) } + [stats.latency.max]
        #expect(values == values.sorted())
        let report = Report(mode: "closed", target: "t", workload: "w", elapsed: 1, settings: [], table: a, setup: StatsTable())
        #expect(report.csv().hasPrefix(Report.csvHeader + "\nEmptyCall,1002,1000,2,"))
        #expect(report.json()["calls"] == .number("1002"))
    }

    @Test func admittedLatencyLeavesOutTheRefusalsAndTheirWaits() {
        var a = StatsTable()
        var b = StatsTable()
        // 990 executed calls of 1-2 ms; 10 refusals after a 100 ms wait, merged from another table.
        for i in 0..<990 { a.update("Checkout") { $0.recordOK(latency: 1_000_000 + UInt64(i) * 1_000) } }
        for _ in 0..<10 { b.update("Checkout") { $0.record(latency: 100_000_000, status: "UNAVAILABLE", reason: "OVERLOADED", refused: true) } }
        // An executed call that failed is admitted; a call refused once, then executed, is not.
        b.update("Checkout") { $0.record(latency: 1_500_000, status: "FAILED_PRECONDITION") }
        b.update("Checkout") { $0.record(latency: 150_000_000, status: "OK", refused: true) }
        a.merge(b)
        a.settle()
        let stats = a["Checkout"]
        #expect(stats.calls == 1002)
        #expect(stats.latency.valueAtPercentile(99) >= 100_000_000)
        let admitted = stats.admittedLatency
        #expect(admitted.totalCount == 991)
        #expect(admitted.max < 2_100_000)
        #expect(admitted.valueAtPercentile(99) < 2_100_000)
        let report = Report(mode: "open", target: "t", workload: "w", elapsed: 1, settings: [], table: a, setup: StatsTable())
        guard case .array(let rpcs) = report.json()["rpcs"] else {
            Issue.record("no rpcs in the report")
            return
        }
        let reported = rpcs.first?["admitted_latency_ms"]?["max"].flatMap { Double($0.text) }
        #expect(reported.map { $0 > 1.9 && $0 < 2.1 } == true)
    }
}

@Suite("Refused calls sent again")
struct RefusalRetryTests {
    static func refusal(
        _ code: StatusCode, reason: String? = nil, executed: String? = nil, retryDelay: Duration? = nil
    ) -> RPCError {
        var error = RPCError(code, "refused", retryDelay: retryDelay)
        if let reason {
            error.errorInfo = GoogleRPC.ErrorInfo(reason: reason, domain: "souk.v1", metadata: executed.map { ["executed": $0] } ?? [:])
        }
        return error
    }

    @Test func anOverloadRefusalIsSentAgainAfterItsRetryDelayAtMostThreeTimes() {
        var random = SystemRandomNumberGenerator()
        let policy = RefusalRetry()
        let overloaded = Self.refusal(.unavailable, reason: "OVERLOADED", executed: "false", retryDelay: .milliseconds(200))
        // The RetryInfo delay, doubled for each refusal after the first, stretched by up to a half.
        for (attempt, base) in [(1, 200), (2, 400), (3, 800)] {
            for _ in 0..<20 {
                let delay = policy.delay(after: overloaded, attempt: attempt, using: &random)
                #expect(delay.map { $0 >= .milliseconds(base) && $0 < .milliseconds(base * 3 / 2) } == true)
            }
        }
        #expect(policy.delay(after: overloaded, attempt: 4, using: &random) == nil)
        #expect(RefusalRetry(attempts: 0).delay(after: overloaded, attempt: 1, using: &random) == nil)
        // Without RetryInfo: a backoff that doubles from 100 ms.
        let bare = Self.refusal(.unavailable, reason: "OVERLOADED")
        let third = policy.delay(after: bare, attempt: 3, using: &random)
        #expect(third.map { $0 >= .milliseconds(400) && $0 < .milliseconds(600) } == true)
    }

    @Test func onlyCallsTheServerSaysItDidNotExecuteAreSentAgain() {
        var random = SystemRandomNumberGenerator()
        let policy = RefusalRetry()
        func retried(_ error: RPCError) -> Bool { policy.delay(after: error, attempt: 1, using: &random) != nil }
        // RESOURCE_EXHAUSTED with RetryInfo, unexecuted: sent again.
        #expect(retried(Self.refusal(.resourceExhausted, reason: "SOMETHING_FULL", executed: "false", retryDelay: .milliseconds(50))))
        // A limit that may have counted the call (no executed=false), or no RetryInfo: not sent again.
        #expect(!retried(Self.refusal(.resourceExhausted, reason: "RATE_LIMITED", retryDelay: .seconds(1))))
        #expect(!retried(Self.refusal(.resourceExhausted, reason: "TOO_MANY_STREAMS", retryDelay: .seconds(1))))
        #expect(!retried(Self.refusal(.resourceExhausted, reason: "SOMETHING_FULL", executed: "false")))
        // UNAVAILABLE from the transport (a connection lost mid-call: maybe executed): not sent again.
        #expect(!retried(Self.refusal(.unavailable, retryDelay: .milliseconds(50))))
        // Other codes, even marked unexecuted, are the step's `retry` to decide.
        #expect(!retried(Self.refusal(.aborted, reason: "CONCURRENT_CHANGE", executed: "false", retryDelay: .milliseconds(50))))
        #expect(RefusalRetry.notExecuted(Self.refusal(.unavailable, reason: "OVERLOADED")))
        #expect(!RefusalRetry.notExecuted(Self.refusal(.unavailable, reason: "OTHER", executed: "true")))
    }

    @Test func refusedRetriesAreReportedApartFromErrorsAndRetries() {
        var table = StatsTable()
        table.update("Checkout") {
            $0.recordOK(latency: 1_000_000)
            $0.refusedRetries += 2
            $0.retries += 1
        }
        var other = StatsTable()
        other.update("Checkout") {
            $0.record(latency: 2_000_000, status: "UNAVAILABLE", reason: "OVERLOADED")
            $0.refusedRetries += 3
        }
        table.merge(other)
        let report = Report(mode: "closed", target: "t", workload: "w", elapsed: 1, settings: [], table: table, setup: StatsTable())
        let json = report.json()
        #expect(json["refused_retries"] == .number("5"))
        #expect(json["retries"] == .number("1"))
        #expect(json["errors"] == .number("1"))
        #expect(report.text().contains("sent again after a refusal unexecuted (not errors unless the last try failed): Checkout 5"))
    }
}

@Suite("Scenario pauses")
struct ThinkTests {
    func scenario(think: String) throws -> Scenario {
        let text = #"{"name": "t", "steps": [{"call": "grpc.testing.TestService/EmptyCall", "think": "\#(think)"}]}"#
        return try Scenario.load(text, directory: ".", registry: .embedded) { _ in "" }
    }

    @Test func aPauseIsOneDurationOrARange() throws {
        let fixed = try scenario(think: "1s").steps[0]
        #expect(fixed.think == 1_000_000_000 && fixed.thinkMax == 1_000_000_000)
        let range = try scenario(think: "500ms..1500ms").steps[0]
        #expect(range.think == 500_000_000 && range.thinkMax == 1_500_000_000)
        #expect(throws: LoadError.self) { try scenario(think: "2s..1s") }
        #expect(throws: LoadError.self) { try scenario(think: "1s..2s..3s") }
    }
}
