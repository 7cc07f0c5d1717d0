import ArgumentParser
import Foundation
import NIOCore
import NIOPosix
import SoukGRPC
import SoukGRPCClient
import SoukHTTP2
import SoukJSON
import SoukLoadKit

/// `souk-load`: the load generator.
@main
struct SoukLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "souk-load",
        abstract: "Load a gRPC server: one RPC like ghz, or multi-step scenarios of the five apps; HDR latencies.",
        discussion: """
            Two ways to pace the load:
            - closed model (default): a fixed number of callers, each sending its next call as soon as \
            its last one ended (--concurrency streams per connection for `call`, --users virtual users \
            for `run`), for --duration or a number of calls/iterations;
            - open model (--rate or --stages): calls (or scenario iterations) start on a schedule \
            whatever the server does. Each latency is measured from the call's INTENDED send time, so \
            a server that stalls cannot hide the queue it causes (coordinated omission corrected). A \
            call sent more than --late-after past its time is counted late; one due while \
            --max-in-flight calls are running is dropped (counted, never sent).

            Latencies go into HDR histograms (1 µs resolution, 3 significant digits): p50, p90, p99, \
            p99.9, p99.99 and max per RPC or step, with errors by gRPC status and ErrorInfo reason. \
            On server streams, "messages (gap)" is the time from the send to the first message, then \
            between consecutive messages. A progress line goes to stderr every second; the table \
            at the end to stdout; --json and --csv write files for scripts.
            """,
        subcommands: [CallCommand.self, RunCommand.self, EtcdTxnCommand.self])
}

/// Options of every run.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "host:port of the server.")
    var target = "localhost:50051"

    @Flag(name: .long, help: "Connect with TLS (ALPN h2), trusting the system's roots or --ca.")
    var tls = false

    @Option(name: .long, help: "A PEM file of CA certificates to trust (implies --tls).")
    var ca: String?

    @Option(name: [.customShort("H"), .long], help: "Request metadata `key: value` (repeatable).")
    var header: [String] = []

    @Option(name: .long, help: "HTTP/2 connections (default: 1 for `call`, 8 for `run`).")
    var connections: Int?

    @Option(name: .long, help: "How long the timed run lasts: 500ms, 10s, 2m (default 10s unless a count is given).")
    var duration: String?

    @Option(name: .long, help: "Open model: a constant rate in calls (or iterations) a second for --duration.")
    var rate: Double?

    @Option(name: .long, help: "Open model: stages DURATION@RATE or DURATION@FROM->TO, comma-separated: 10s@500,30s@500->2000.")
    var stages: String?

    @Option(name: .customLong("max-in-flight"), help: "Open model: calls running at once beyond which a due call is dropped.")
    var maxInFlight = 10_000

    @Option(name: .customLong("late-after"), help: "Open model: how far past its intended time a call counts late.")
    var lateAfter = "1ms"

    @Option(name: .long, help: "Event loops (threads) sending: default one per core.")
    var threads: Int?

    @Option(name: .long, help: "Each call's deadline: 5s, 500ms (default none). Unary `call`s only send it as grpc-timeout (the server enforces it); scenario steps also end the call locally.")
    var timeout: String?

    @Option(name: .long, help: "Write the summary as JSON to this file.")
    var json: String?

    @Option(name: .long, help: "Write one CSV line per RPC (or step) to this file.")
    var csv: String?

    @Flag(name: .long, help: "No progress line.")
    var quiet = false

    func hostPort() throws -> (String, Int) {
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]) else {
            throw ValidationError("invalid --target \"\(target)\" (use host:port)")
        }
        var host = String(target[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port)
    }

    func tlsSettings() throws -> HTTP2ClientTLS? {
        guard tls || ca != nil else { return nil }
        return try HTTP2ClientTLS(trust: ca.map { .certificateFile($0) } ?? .systemDefault)
    }

    func metadata() throws -> [(String, String)] {
        try header.map { header in
            guard let colon = header.firstIndex(of: ":") else { throw ValidationError("invalid header \"\(header)\" (use key: value)") }
            return (header[..<colon].trimmingCharacters(in: .whitespaces).lowercased(), header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// The open model's schedule, nil for the closed model.
    func schedule() throws -> RateSchedule? {
        if let stages {
            guard rate == nil else { throw ValidationError("give --rate or --stages, not both") }
            return try RateSchedule.parse(stages: stages)
        }
        guard let rate else { return nil }
        guard rate > 0 else { throw ValidationError("--rate must be positive") }
        return RateSchedule(rate: rate, duration: try parseDuration(duration ?? "10s"))
    }

    var threadCount: Int { max(1, threads ?? System.coreCount) }

    func timeoutNanoseconds() throws -> UInt64? { try timeout.map(parseDuration) }

    func write(_ report: Report) throws {
        if let json { try (report.json().serialized() + "\n").write(toFile: json, atomically: true, encoding: .utf8) }
        if let csv { try report.csv().write(toFile: csv, atomically: true, encoding: .utf8) }
        print(report.text(), terminator: "")
    }

    func settings(_ extra: [(String, JSON)]) -> [(String, JSON)] {
        var out: [(String, JSON)] = [("threads", .number(String(threadCount)))]
        if let rate { out.append(("rate", .number(String(rate)))) }
        if let stages { out.append(("stages", .string(stages))) }
        if let duration { out.append(("duration", .string(duration))) }
        return out + extra
    }
}

/// Prints a progress line to stderr every second until cancelled.
func reportProgress(_ counters: @escaping @Sendable () -> [ProgressCounters], start: UInt64, quiet: Bool) -> Task<Void, Never> {
    Task {
        guard !quiet else { return }
        var previous = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            if Task.isCancelled { break }
            let all = counters()
            let calls = all.reduce(0) { $0 + $1.calls.load(ordering: .relaxed) }
            let errors = all.reduce(0) { $0 + $1.errors.load(ordering: .relaxed) }
            let late = all.reduce(0) { $0 + $1.late.load(ordering: .relaxed) }
            let dropped = all.reduce(0) { $0 + $1.dropped.load(ordering: .relaxed) }
            let inFlight = all.reduce(0) { $0 + $1.inFlight.load(ordering: .relaxed) }
            let seconds = Double(MonotonicClock().now() - start) / 1e9
            var line = String(format: "[%5.1fs] calls %d (%d/s)  errors %d", seconds, calls, calls - previous, errors)
            if late > 0 || dropped > 0 { line += "  late \(late)  dropped \(dropped)" }
            if inFlight > 0 { line += "  in flight \(inFlight)" }
            previous = calls
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}

func today() -> (year: Int, month: Int, day: Int) {
    let (y, m, d) = Template.civil(fromDays: Int(Date().timeIntervalSince1970 / 86_400))
    return (y, m, d)
}

func runID() -> String {
    String(UInt32.random(in: 0...UInt32.max), radix: 16)
}

/// `souk-load call`: one RPC, like ghz.
struct CallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Load one RPC with one request (unary: the fast path; server streams: read as a scenario step).",
        discussion: """
            The request is proto3 JSON, encoded once with the contract's descriptor set; every call \
            sends the same bytes. Unary calls run entirely on the event loops, the answer's bytes \
            released unread (its status and ErrorInfo reason are read).

              souk-load call grpc.testing.TestService/EmptyCall --connections 4 --concurrency 10 --duration 10s
              souk-load call grpc.testing.TestService/UnaryCall -d '{"responseSize": 1024}' --rate 5000 --duration 30s
              souk-load call souk.v1.Catalog/ListRestaurants -d '{"marketplaceId": "..."}' --stages 10s@100,20s@100->1000
            """)

    @Argument(help: "The method: package.Service/Method.")
    var method: String

    @Option(name: [.customShort("d"), .long], help: "The request as JSON, or @FILE.")
    var data = "{}"

    @Option(name: .long, help: "Closed model: calls in flight per connection.")
    var concurrency = 1

    @Option(name: [.customShort("n"), .long], help: "Closed model: stop after this many calls in all.")
    var calls: UInt64?

    @Option(name: .long, help: "Server streams: messages to read per call (default: to the end).")
    var messages: Int?

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let registry = DescriptorRegistry.embedded
        guard let descriptor = registry.method(named: method) else { throw ValidationError("unknown method \"\(method)\"") }
        guard !descriptor.clientStreaming else { throw ValidationError("client and bidirectional streams cannot be loaded with `call`") }
        let text = data.hasPrefix("@") ? try String(contentsOfFile: String(data.dropFirst()), encoding: .utf8) : data
        let request: [UInt8]
        do {
            request = try ProtoJSON(registry: registry).binary(fromJSON: text, messageType: descriptor.inputType)
        } catch {
            throw ValidationError("the request is not a valid \(descriptor.inputType): \(error)")
        }
        let schedule = try common.schedule()
        if descriptor.serverStreaming {
            try await runStream(descriptor, request: text, schedule: schedule)
            return
        }
        let (host, port) = try common.hostPort()
        let tls = try common.tlsSettings()
        let connections = max(1, common.connections ?? 1)
        let loops = min(common.threadCount, connections)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: loops)
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let plan = FastUnaryPlan(
            name: String(descriptor.path.dropFirst()), path: descriptor.path, authority: authority, tls: tls != nil,
            message: ByteBuffer(bytes: request), metadata: try common.metadata(), timeout: try common.timeoutNanoseconds())
        let clock = MonotonicClock()
        let duration = try parseDuration(common.duration ?? (calls == nil ? "10s" : "0"))
        var runners: [FastUnaryLoop] = []
        for index in 0..<loops {
            let share = connections / loops + (index < connections % loops ? 1 : 0)
            let mode: FastMode
            if let schedule {
                mode = .open(
                    schedule: schedule.scaled(by: Double(share) / Double(connections)),
                    maxInFlight: max(1, common.maxInFlight * share / connections), lateTolerance: try parseDuration(common.lateAfter))
            } else {
                let perLoopCalls = calls.map { $0 * UInt64(share) / UInt64(connections) + (index == 0 ? $0 % UInt64(connections) : 0) }
                mode = .closed(streams: concurrency, end: nil, calls: perLoopCalls)
            }
            let runner = FastUnaryLoop(eventLoop: group.next(), plan: plan, mode: mode, clock: clock)
            try await runner.connect(host: host, port: port, tls: tls, count: share).get()
            runners.append(runner)
        }
        let start = clock.now()
        let counters = runners.map(\.progress)
        let loopRunners = runners
        let progress = reportProgress({ counters }, start: start, quiet: common.quiet)
        for runner in runners { runner.start(at: start) }
        // The closed model's duration: stop every loop at the same time.
        var stopper: Task<Void, Never>?
        if schedule == nil, duration > 0 {
            stopper = Task {
                try? await Task.sleep(for: .nanoseconds(Int64(duration)))
                for runner in loopRunners { runner.stop() }
            }
        }
        for runner in runners { try await runner.finished.get() }
        stopper?.cancel()
        progress.cancel()
        var stats = CallStats()
        var end = start
        for runner in runners {
            let (loopStats, lastEnd) = try await runner.eventLoop.submit { (runner.stats, runner.lastEnd) }.get()
            stats.add(loopStats)
            end = max(end, lastEnd)
            runner.close()
        }
        try? await group.shutdownGracefully()
        var table = StatsTable()
        table[plan.name] = stats
        let elapsed = Double(end - start) / 1e9
        let report = Report(
            mode: schedule == nil ? "closed" : "open", target: common.target, workload: plan.name, elapsed: elapsed,
            settings: common.settings([("connections", .number(String(connections))), ("concurrency", .number(String(concurrency)))]),
            table: table, setup: StatsTable())
        try common.write(report)
    }

    /// A server-streaming method: a one-step scenario.
    func runStream(_ descriptor: SoukJSON.MethodDescriptor, request: String, schedule: RateSchedule?) async throws {
        var streamPart = ""
        if let messages { streamPart = ", \"stream\": {\"messages\": \(messages)}" }
        let text = "{\"name\": \"\(descriptor.path.dropFirst())\", \"steps\": [{\"name\": \"\(descriptor.path.dropFirst())\", \"call\": \"\(descriptor.path.dropFirst())\", \"request\": \(request)\(streamPart)}]}"
        let scenario = try Scenario.load(text, directory: ".", registry: .embedded) { try String(contentsOfFile: $0, encoding: .utf8) }
        try await runScenario(
            scenario, common: common, users: max(1, (common.connections ?? 1) * concurrency), iterations: calls.map { Int($0) },
            schedule: schedule, setupConcurrency: 1, refusalRetry: RefusalRetry(attempts: 0))
    }
}

/// `souk-load run`: a scenario file.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario file: multi-step sessions with captures, per-user sign-in, data sets.",
        discussion: """
            Closed model: --users virtual users each loop over the scenario's steps for --duration \
            (or --iterations each). Open model (--rate/--stages): iterations start on the schedule, \
            each on a free user of the --users pool (none free: dropped); the first step's latency \
            and "(iteration)" count from the intended start. The shared setup and each user's \
            setup (sign-up, sign-in) run before the timed run; their calls are reported apart.

              souk-load run bench/load/scenarios/dineswift.json --users 50 --duration 30s
              souk-load run bench/load/scenarios/chateau-du-nox.json --users 100 --rate 200 --duration 20s --json out.json

            The file format is in the README (section souk-load).
            """)

    @Argument(help: "The scenario file (JSON).")
    var scenario: String

    @Option(name: .long, help: "Virtual users (closed model), or the pool of users (open model).")
    var users = 10

    @Option(name: .long, help: "Closed model: iterations per user (instead of a duration).")
    var iterations: Int?

    @Option(name: .customLong("var"), help: "A value templates read as {{vars.NAME}}: NAME=VALUE (repeatable; over the file's \"vars\").")
    var vars: [String] = []

    @Option(name: .customLong("setup-concurrency"), help: "Users set up (signed up/in) at once before the run.")
    var setupConcurrency = 16

    @Option(name: .customLong("refusal-retries"), help: "Times a call the server refused unexecuted (UNAVAILABLE OVERLOADED, or executed=false with RetryInfo) is sent again, after its RetryInfo delay; 0: never.")
    var refusalRetries = 3

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let text = try String(contentsOfFile: scenario, encoding: .utf8)
        let directory = (scenario as NSString).deletingLastPathComponent
        var loaded = try Scenario.load(text, directory: directory.isEmpty ? "." : directory, registry: .embedded) {
            try String(contentsOfFile: $0, encoding: .utf8)
        }
        for assignment in vars {
            guard let equals = assignment.firstIndex(of: "=") else { throw ValidationError("invalid --var \"\(assignment)\" (use NAME=VALUE)") }
            loaded.vars[String(assignment[..<equals])] = .string(String(assignment[assignment.index(after: equals)...]))
        }
        try await runScenario(loaded, common: common, users: users, iterations: iterations, schedule: try common.schedule(), setupConcurrency: setupConcurrency,
            refusalRetry: RefusalRetry(attempts: max(0, refusalRetries)))
    }
}

/// Runs a scenario in either model and writes the report.
func runScenario(
    _ scenario: Scenario, common: CommonOptions, users: Int, iterations: Int?, schedule: RateSchedule?, setupConcurrency: Int,
    refusalRetry: RefusalRetry = RefusalRetry()
) async throws {
    let (host, port) = try common.hostPort()
    let tls = try common.tlsSettings()
    let connections = max(1, common.connections ?? min(8, users))
    let group = MultiThreadedEventLoopGroup(numberOfThreads: min(common.threadCount, connections))
    var configuration = GRPCChannel.Configuration()
    configuration.userAgent = "souk-load/1"
    configuration.maxConnections = 1
    let channels = (0..<connections).map { _ in
        GRPCChannel(target: GRPCTarget(host: host, port: port, tls: tls), configuration: configuration, eventLoop: group.next())
    }
    var scenario = scenario
    // -H headers go with every step.
    scenario.metadata += try common.metadata().map { ($0.0, JSON.string($0.1)) }
    if let timeout = try common.timeoutNanoseconds() {
        for i in scenario.steps.indices where scenario.steps[i].timeout == nil { scenario.steps[i].timeout = timeout }
    }
    let clock = MonotonicClock()
    let runner = ScenarioRunner(scenario: scenario, channels: channels, registry: .embedded, run: runID(), today: today(), clock: clock, refusalRetry: refusalRetry)
    try await runner.setUp()
    if !common.quiet { FileHandle.standardError.write(Data("setting up \(users) users...\n".utf8)) }
    let prepared = await runner.makeUsers(users, concurrency: max(1, setupConcurrency))
    let unready = prepared.filter { !$0.ready }.count
    if unready > 0 { FileHandle.standardError.write(Data("warning: \(unready) of \(users) users failed their setup (retried in the run)\n".utf8)) }
    let start = clock.now()
    let progress = reportProgress({ [runner.progress] }, start: start, quiet: common.quiet)
    let table: StatsTable
    if let schedule {
        table = await runner.runOpen(prepared, schedule: schedule, maxInFlight: common.maxInFlight, lateTolerance: try parseDuration(common.lateAfter))
    } else {
        let duration = try parseDuration(common.duration ?? (iterations == nil ? "10s" : "0"))
        table = await runner.runClosed(prepared, end: duration > 0 ? start + duration : nil, iterations: iterations)
    }
    let elapsed = Double(clock.now() - start) / 1e9
    progress.cancel()
    for channel in channels { await channel.close() }
    try? await group.shutdownGracefully()
    let report = Report(
        mode: schedule == nil ? "closed" : "open", target: common.target, workload: scenario.name, elapsed: elapsed,
        settings: common.settings([
            ("users", .number(String(users))), ("connections", .number(String(connections))),
            ("refusal_retries", .number(String(refusalRetry.attempts))),
        ]),
        table: table, setup: runner.setupTable)
    try common.write(report)
}
