import NIOCore
import SoukGRPC
import SoukGRPCClient
import SoukJSON
import Synchronization

/// One virtual user: its template context, its own stats (merged at the end, never locked).
public struct VirtualUser: Sendable {
    public var context: TemplateContext
    public var stats = StatsTable()
    /// Whether its user setup succeeded (it is retried before the next iteration otherwise).
    public var ready = false
    /// The user setup steps done (a retry resumes after them: a sign-up is not repeated).
    var setupDone = 0
    let channel: GRPCChannel
}

/// Runs scenarios over `GRPCChannel`s: the shared setup, each user's setup, then iterations in
/// the closed model (each user loops) or the open model (iterations started on a schedule by
/// whichever user is free).
public final class ScenarioRunner: Sendable {
    public let scenario: Scenario
    let channels: [GRPCChannel]
    let json: ProtoJSON
    let clock: any LoadClock
    /// Which refused calls are sent again, and when.
    let refusalRetry: RefusalRetry
    public let progress = ProgressCounters()
    let run: String
    let today: (year: Int, month: Int, day: Int)
    /// The shared setup's captures and answers, the base of every user's context.
    private let base = Mutex<(vars: [String: JSON], steps: [String: JSON])>(([:], [:]))
    /// The shared setup's stats.
    private let setupStats = Mutex(StatsTable())

    public init(scenario: Scenario, channels: [GRPCChannel], registry: DescriptorRegistry, run: String, today: (year: Int, month: Int, day: Int), clock: any LoadClock = MonotonicClock(),
        refusalRetry: RefusalRetry = RefusalRetry()
    ) {
        self.scenario = scenario
        self.refusalRetry = refusalRetry
        self.channels = channels
        self.json = ProtoJSON(registry: registry)
        self.clock = clock
        self.run = run
        self.today = today
    }

    /// Resolves the marketplace and runs the shared setup; throws when a setup step fails.
    public func setUp() async throws {
        var user = makeUser(-1)
        for (key, value) in scenario.vars { user.context.vars[key] = value }
        if let marketplace = scenario.marketplace {
            user.context.vars["marketplaceId"] = .string(try await resolveMarketplace(marketplace, channel: user.channel))
        }
        for step in scenario.setup {
            if let failure = await execute(step, &user, intended: nil, phase: "setup") {
                throw LoadError("setup step \(step.name) failed: \(failure)")
            }
        }
        let vars = user.context.vars
        let steps = user.context.steps
        base.withLock { $0 = (vars, steps) }
        let stats = user.stats
        setupStats.withLock { $0.merge(stats) }
    }

    /// The stats of the setups (shared and per user), apart from the run's.
    public var setupTable: StatsTable { setupStats.withLock { $0 } }

    func makeUser(_ index: Int) -> VirtualUser {
        let seed = UInt64(bitPattern: Int64(index + 1)) &* 0x2545_F491_4F6C_DD1D ^ UInt64(truncatingIfNeeded: run.hashValue)
        var context = TemplateContext(vu: max(index, 0), run: run, seed: seed, today: today)
        let (vars, steps) = base.withLock { $0 }
        context.vars = vars
        context.steps = steps
        return VirtualUser(context: context, channel: channels[max(index, 0) % channels.count])
    }

    /// Creates `count` users and runs their setup, `concurrency` at a time (outside the timed run).
    public func makeUsers(_ count: Int, concurrency: Int) async -> [VirtualUser] {
        var users: [VirtualUser] = []
        users.reserveCapacity(count)
        await withTaskGroup(of: VirtualUser.self) { group in
            var next = 0
            func add() {
                let index = next
                next += 1
                group.addTask {
                    var user = self.makeUser(index)
                    await self.prepare(&user)
                    return user
                }
            }
            while next < min(concurrency, count) { add() }
            for await user in group {
                users.append(user)
                if next < count { add() }
            }
        }
        users.sort { $0.context.vu < $1.context.vu }
        for i in users.indices {
            let stats = users[i].stats
            setupStats.withLock { $0.merge(stats) }
            users[i].stats = StatsTable()
        }
        return users
    }

    /// Picks the user's per-user rows and runs its setup steps.
    func prepare(_ user: inout VirtualUser) async {
        if user.setupDone == 0 { pickRows(&user, perIteration: false) }
        while user.setupDone < scenario.userSetup.count {
            if await execute(scenario.userSetup[user.setupDone], &user, intended: nil, phase: "setup") != nil { return }
            user.setupDone += 1
        }
        user.ready = true
    }

    func pickRows(_ user: inout VirtualUser, perIteration: Bool) {
        for (name, set) in scenario.data where set.perIteration == perIteration {
            let index: Int
            if set.random {
                index = Int.random(in: 0..<set.rows.count, using: &user.context.random)
            } else {
                index = (perIteration ? user.context.vu &+ user.context.iteration * 7919 : user.context.vu) % set.rows.count
            }
            user.context.data[name] = set.rows[index]
        }
    }

    /// One iteration of the scenario; `intended` is its intended start (open model).
    public func iterate(_ user: inout VirtualUser, intended: UInt64?) async {
        if !user.ready {
            await prepare(&user)
            if !user.ready {
                // Its failure is counted under the setup step; wait before trying again rather than spin.
                try? await Task.sleep(for: .seconds(1))
                return
            }
        }
        pickRows(&user, perIteration: true)
        let start = intended ?? clock.now()
        var first = true
        for step in scenario.steps {
            if step.probability < 1, Double.random(in: 0..<1, using: &user.context.random) >= step.probability { continue }
            // The first step's latency counts from the iteration's intended start (coordinated omission).
            let failed = await execute(step, &user, intended: first ? intended : nil, phase: "run") != nil
            first = false
            if failed { break }
            let think = step.thinkMax > step.think ? UInt64.random(in: step.think...step.thinkMax, using: &user.context.random) : step.think
            if think > 0 { try? await Task.sleep(for: .nanoseconds(Int64(think))) }
        }
        if intended != nil {
            let total = clock.now() - start
            user.stats.update("(iteration)") { $0.record(latency: total, status: "OK") }
        }
        user.context.iteration += 1
    }

    /// Runs `users` in the closed model until `end` (clock time) or each did `iterations`.
    public func runClosed(_ users: [VirtualUser], end: UInt64?, iterations: Int?) async -> StatsTable {
        await withTaskGroup(of: StatsTable.self) { group in
            for var user in users {
                group.addTask {
                    var done = 0
                    while !Task.isCancelled {
                        if let end, self.clock.now() >= end { break }
                        if let iterations, done >= iterations { break }
                        await self.iterate(&user, intended: nil)
                        done += 1
                    }
                    return user.stats
                }
            }
            var table = StatsTable()
            for await stats in group { table.merge(stats) }
            return table
        }
    }

    /// Runs iterations in the open model: iteration n starts at its intended time on a free user;
    /// with no user free (or `maxInFlight` running) it is dropped; sent later than
    /// `lateTolerance`, it is late.
    public func runOpen(_ users: [VirtualUser], schedule: RateSchedule, maxInFlight: Int, lateTolerance: UInt64) async -> StatsTable {
        let pool = UserPool(users)
        let start = clock.now()
        var pacer = OpenLoopPacer(schedule: schedule, start: start, maxInFlight: maxInFlight, lateTolerance: lateTolerance)
        var dropped: UInt64 = 0
        var late: UInt64 = 0
        await withDiscardingTaskGroup { group in
            while let next = pacer.nextTime {
                let now = clock.now()
                if next > now { try? await Task.sleep(for: .nanoseconds(Int64(next - now))) }
                // Calls that ended free their place in the pacer's in-flight count.
                for _ in 0..<pool.finished.exchange(0, ordering: .relaxed) { _ = pacer.completed(intended: 0, now: 0) }
                while let (intended, decision) = pacer.nextDue(now: clock.now()) {
                    guard case .send(let isLate) = decision, let user = pool.users.withLock({ $0.popLast() }) else {
                        if case .send = decision { _ = pacer.completed(intended: 0, now: 0) }
                        dropped += 1
                        progress.dropped.add(1, ordering: .relaxed)
                        continue
                    }
                    if isLate {
                        late += 1
                        progress.late.add(1, ordering: .relaxed)
                    }
                    let taken = user
                    group.addTask {
                        var user = taken
                        await self.iterate(&user, intended: intended)
                        let done = user
                        pool.users.withLock { $0.append(done) }
                        pool.finished.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        var table = StatsTable()
        for user in pool.users.withLock({ $0 }) { table.merge(user.stats) }
        table.update("(iteration)") {
            $0.dropped += dropped
            $0.late += late
        }
        return table
    }

    // MARK: Steps

    /// Runs one step; returns nil when it ended normally, else a description of the failure.
    func execute(_ step: Scenario.Step, _ user: inout VirtualUser, intended: UInt64?, phase: String) async -> String? {
        let name = step.name
        let sent = clock.now()
        let from = intended ?? sent
        let request: ByteBuffer
        var options = CallOptions(timeout: (step.streamFor ?? step.timeout).map { .nanoseconds(Int64($0)) })
        do {
            request = try encodeRequest(step, &user.context)
            for (key, template) in (step.inheritMetadata ? scenario.metadata : []) + step.metadata {
                guard let value = try? Template.render(template, &user.context), !value.text.isEmpty else { continue }
                options.metadata.add(key, value.text)
            }
        } catch {
            user.stats.update(name) { $0.record(latency: clock.now() - from, status: "LOCAL", reason: "TEMPLATE", message: "\(error)") }
            progress.calls.add(1, ordering: .relaxed)
            progress.errors.add(1, ordering: .relaxed)
            return "\(error)"
        }
        var answer: ByteBuffer?
        var failure: RPCError?
        var messages: [UInt64] = []
        var attempt = 0
        var refusedAttempt = 0
        while true {
            failure = nil
            options.previousAttempts = attempt + refusedAttempt
            do {
                if step.method.serverStreaming {
                    let limit = step.streamMessages
                    let keep = step.keepAnswer
                    let clock = self.clock
                    (answer, messages) = try await user.channel.serverStreaming(step.method.path, request: request, options: options) { call in
                        var last: ByteBuffer?
                        var times: [UInt64] = []
                        do {
                            for try await message in call.responses {
                                times.append(clock.now())
                                if keep { last = message }
                                if let limit, times.count >= limit { break }
                            }
                        } catch let error as RPCError where error.code == .deadlineExceeded && step.streamFor != nil {
                            // Read for the step's time: the end of reading, not a failure.
                        }
                        return (last, times)
                    }
                } else {
                    answer = try await user.channel.unary(step.method.path, request: request, options: options).message
                }
            } catch let error as RPCError {
                failure = error
            } catch {
                failure = RPCError(.unknown, "\(error)")
            }
            // A retried call counts once, from its first send; its retries are counted apart.
            guard let failed = failure else { break }
            // Refused unexecuted (an overloaded server): sent again after the server's RetryInfo delay.
            if let delay = refusalRetry.delay(after: failed, attempt: refusedAttempt + 1, using: &user.context.random) {
                refusedAttempt += 1
                user.stats.update(name) { $0.refusedRetries += 1 }
                try? await Task.sleep(for: delay)
                continue
            }
            guard attempt < step.retries, step.retryOn.contains(failed.code.description) else { break }
            attempt += 1
            user.stats.update(name) { $0.retries += 1 }
            try? await Task.sleep(for: .milliseconds(5 * attempt))
        }
        let end = clock.now()
        progress.calls.add(1, ordering: .relaxed)
        if let failure, !step.accept.contains(failure.code.description) {
            progress.errors.add(1, ordering: .relaxed)
            user.stats.update(name) {
                $0.record(latency: end - from, status: failure.code.description, reason: failure.errorInfo?.reason, message: failure.message,
                          refused: refusedAttempt > 0 || RefusalRetry.notExecuted(failure))
            }
            return "\(failure.code) \(failure.errorInfo?.reason ?? "") \(failure.message)"
        }
        user.stats.update(name) {
            $0.record(latency: end - from, status: failure?.code.description ?? "OK", refused: refusedAttempt > 0)
            var previous = sent
            for time in messages {
                _ = $0.messageGaps.record(max(time - previous, 1))
                previous = time
            }
            $0.messages += UInt64(messages.count)
        }
        if step.keepAnswer, let answer {
            do {
                let text = try json.json(fromBinary: Array(answer.readableBytesView), messageType: step.method.outputType)
                let value = try JSON.parse(String(decoding: text, as: UTF8.self))
                user.context.steps[name] = value
                for (key, path) in step.capture {
                    guard let captured = try JSONPath.value(at: path, in: value) else {
                        throw LoadError("capture \(key): nothing at \(path) in the answer of \(name)")
                    }
                    user.context.vars[key] = captured
                }
            } catch {
                user.stats.update(name) { $0.record(latency: 0, status: "LOCAL", reason: "CAPTURE", message: "\(error)") }
                progress.errors.add(1, ordering: .relaxed)
                return "\(error)"
            }
        }
        return nil
    }

    /// The request's protobuf bytes: the marketplace and a new request id where the message has
    /// them and the template leaves them out (first, so a value the template sets wins), then the
    /// rendered template.
    func encodeRequest(_ step: Scenario.Step, _ context: inout TemplateContext) throws -> ByteBuffer {
        if let constant = step.constantRequest { return ByteBuffer(bytes: constant) }
        var bytes: [UInt8] = []
        let type = step.method.inputType
        let message = step.fill ? json.registry.message(named: type) : nil
        if case .string(let marketplace)? = context.vars["marketplaceId"], message?.field(named: "marketplace_id")?.kind == .string {
            bytes += try json.binary(fromJSON: "{\"marketplaceId\": \"\(marketplace)\"}", messageType: type)
        }
        if message?.field(named: "request_id")?.kind == .string {
            bytes += try json.binary(fromJSON: "{\"requestId\": \"\(context.uuid())\"}", messageType: type)
        }
        let rendered = try Template.render(step.request, &context)
        bytes += try json.binary(fromJSON: rendered.serialized(), messageType: type)
        return ByteBuffer(bytes: bytes)
    }

    /// The id of a marketplace given by slug, display name or id (case-insensitive).
    func resolveMarketplace(_ wanted: String, channel: GRPCChannel) async throws -> String {
        let folded = wanted.lowercased()
        var token = ""
        repeat {
            let request = try json.binary(fromJSON: "{\"pageSize\": 100, \"pageToken\": \"\(token)\"}", messageType: "souk.v1.ListMarketplacesRequest")
            let answer = try await channel.unary("/souk.v1.Marketplaces/ListMarketplaces", request: ByteBuffer(bytes: request), options: CallOptions(timeout: .seconds(30)))
            let text = try json.json(fromBinary: Array(answer.message.readableBytesView), messageType: "souk.v1.ListMarketplacesResponse")
            let page = try JSON.parse(String(decoding: text, as: UTF8.self))
            if case .array(let items)? = page["marketplaces"] {
                for m in items {
                    let id = m["id"]?.text ?? ""
                    if id == wanted || (m["slug"]?.text ?? "").lowercased() == folded || (m["displayName"]?.text ?? "").lowercased() == folded { return id }
                }
            }
            token = page["nextPageToken"]?.text ?? ""
        } while !token.isEmpty
        throw LoadError("no marketplace with slug, name or id \"\(wanted)\"")
    }
}

/// The open model's free users, and how many iterations ended since the pacer last looked.
final class UserPool: Sendable {
    let users: Mutex<[VirtualUser]>
    let finished = Atomic<Int>(0)

    init(_ users: [VirtualUser]) {
        self.users = Mutex(users)
    }
}
