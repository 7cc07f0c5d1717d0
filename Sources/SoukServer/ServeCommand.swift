import ArgumentParser
import Foundation
import Logging
import Metrics
import NIOCore
import NIOPosix
import Prometheus
import SoukAccess
import SoukKit
import SoukDemo
import SoukEtcd
import SoukGRPC
import SoukHTTP2
import SoukIdentity
import SoukJSON
import SoukMedia
import SoukPayments
import SoukReports
import SoukStandardServices
import SoukStore
import SoukWeb
import SoukStoreTools
import SoukTracing
import ServiceLifecycle

/// `souk-server` (default subcommand `serve`): runs the gRPC server on an embedded store.
@main
struct SoukServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "souk-server",
        abstract: "Souk: a gRPC backend for on-demand marketplaces.",
        subcommands: [ServeCommand.self, StoreCommand<SoukSchema>.self, StateMachinesCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}

extension SimulatedGateway.Fault: ExpressibleByArgument {}

/// Starts the server and runs until SIGTERM or SIGINT, then drains and stops cleanly.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the gRPC server.")

    @Option(help: "Address to listen on.") var host = "0.0.0.0"
    @Option(help: "Port to listen on (0 picks a free one).") var port = 50051
    @Option(help: "Directory of the embedded RocksDB store, and of this node's files (media, the simulated gateway's journal).") var dataDir = "./data"
    @Option(help: "Where the records live: `rocksdb` (embedded, in --data-dir: the default) or `etcd://HOST:PORT,...`, an etcd cluster several souk-server nodes share (Sources/SoukEtcd/README.md).")
    var store = "rocksdb"
    @Option(help: "PEM certificate chain: serve TLS (ALPN h2) instead of cleartext h2c.") var tlsCert: String?
    @Option(help: "PEM private key for --tls-cert.") var tlsKey: String?
    @Option(help: "Port of the Prometheus /metrics endpoint (off when absent).") var metricsPort: Int?
    @Option(help: "trace, debug, info, notice, warning, error or critical.") var logLevel: Logger.Level = .info
    @Option(help: "Largest request message accepted, in bytes.") var maxReceiveMessageSize = 4 * 1024 * 1024
    @Option(help: "SETTINGS_MAX_CONCURRENT_STREAMS per connection.") var maxConcurrentStreams = 100
    @Option(help: "Largest request header list, in bytes.") var maxHeaderListSize = 16 * 1024
    @Option(help: "Streaming calls (Watch…, ReportLocation, media) open at once on one connection.")
    var maxStreamsPerConnection = StreamLimits.default.perConnection
    @Option(help: "Streaming calls open at once by one signed-in account, over all its connections.")
    var maxStreamsPerAccount = StreamLimits.default.perAccount
    @Option(help: "Bytes of events a Watch stream queues for a client that does not read them; past it the stream ends with READER_TOO_SLOW, resumable.")
    var maxStreamQueueBytes = StreamLimits.default.queueBytes
    @Option(help: "Seconds events are kept for Watch RPCs to resume from (7 days; short values only for tests).")
    var eventRetentionSeconds = 7 * 24 * 3600
    @Option(help: "Seconds a connection with no open stream is kept.") var idleTimeout = 300
    @Option(help: "HTTP/2 answers made while reading one batch of requests after which the server sends them before reading on, while no other connection on its event loop is reading (lower: earlier answers, more writes).")
    var answersPerEarlyFlush = HTTP2ServerConfiguration(host: "", port: 0).answersPerEarlyFlush
    @Option(help: ArgumentHelp(
        "Trace every call and export the spans (the call, its store transactions and commits) to this OpenTelemetry collector over OTLP/HTTP, for example http://127.0.0.1:4318; a request's W3C traceparent makes its call part of the caller's trace. Off when absent.",
        valueName: "url")) var otlpEndpoint: String?
    @Option(help: ArgumentHelp(
        "An origin whose web pages may call the server through gRPC-Web (CORS), for example https://admin.example.com; repeat for several, * for any.",
        valueName: "origin")) var corsOrigin: [String] = []
    @Option(help: ArgumentHelp(
        "The address clients reach this server at, which media URLs start with (for example https://souk.example.com behind a proxy; default: http://HOST:PORT of the listening socket).",
        valueName: "url")) var publicUrl: String?
    @Option(help: "Seconds a signed URL of private media stays valid.") var mediaUrlLifetime = 3600
    @Option(help: "Bytes of media answers (originals and image sizes) kept in memory and answered on the event loop; 0: none.")
    var mediaCacheBytes = MediaCache.defaultCapacityBytes
    @Option(help: "Seconds a new connection has to finish its HTTP/2 preface.") var handshakeTimeout = 10
    @Option(help: "Event-loop threads serving connections (default: the CPUs this process may run on).") var eventLoops: Int?
    @Option(help: ArgumentHelp(
        "Threads running the handlers, which may wait for the store (default: the CPUs this process may run on, at least 2; 0: on the event loops, to compare only: debug builds stop at the first store read there).",
        valueName: "count")) var handlerThreads: Int?
    @Option(help: ArgumentHelp(
        "Calls the server works on at once (unary calls until they answer, streams while they start); more wait in the admission queue, or are refused with UNAVAILABLE (OVERLOADED); 0: no bound. Default: 16 per handler thread, at least 32.",
        valueName: "count")) var maxCallsInProgress: Int?
    @Option(help: ArgumentHelp(
        "Calls that may wait for a place when all are taken (0: refuse at once). Default: 512 per handler thread, at least 2048.",
        valueName: "count")) var admissionQueue: Int?
    @Option(help: "Longest wait of a call in the admission queue, in milliseconds (less when its deadline is nearer), unless the queue is overloaded: the calls leaving it waited nine tenths of this or more for as long as this.")
    var admissionWaitMs = 100
    @Option(help: "Longest wait in the admission queue while it is overloaded (until it refused nothing for --admission-wait-ms), in milliseconds.")
    var admissionOverloadWaitMs = 5
    @Option(help: "The admission queue's overload evidence: a call that waited this long or more, in milliseconds. Default: nine tenths of --admission-wait-ms.")
    var admissionTargetMs: Int?
    @Option(help: "How long the evidence must last before the admission queue is overloaded, and how long without refusals before it is not, in milliseconds. Default: --admission-wait-ms.")
    var admissionIntervalMs: Int?
    @Option(help: "The admission queue stands while it grows (more calls come to it than it admits, retries left out, over three windows of 25 ms in a row) and its oldest call has waited this long, in milliseconds, and while it is overloaded: newest call first, and at most --admission-standing-calls calls in progress, so that calls admitted under overload neither wait long nor share the processor with many others. A closed load (clients that wait for each answer) does not make it grow. 0: it never stands, first come first served.")
    var admissionStandingMs = 2
    @Option(help: ArgumentHelp(
        "Calls in progress at once while the admission queue stands (--admission-standing-ms). Default: two per processor the server may run on.",
        valueName: "count")) var admissionStandingCalls: Int?
    @Option(help: "RocksDB block cache for data blocks, in MiB.") var blockCacheMib = StoreConfiguration(path: "").blockCacheBytes >> 20
    @Flag(help: "Read data files past the page cache (direct I/O): every block cache miss waits for the disk (benchmarks).")
    var directReads = false
    @Option(help: "Seconds calls in flight may take to finish after SIGTERM.") var shutdownGracePeriod = 30
    @Option(help: "fsync every commit group (sync) or leave writes to the OS (none).") var sync: SyncOption = .sync
    @Flag(help: "Serve grpc.testing.TestService for interoperability tests and benchmarks.") var enableTestService = false
    @Flag(help: "Load the five demo marketplaces and their demo accounts, and print the demo logins on stdout.") var demo = false
    @Option(help: ArgumentHelp(
        "E-mail of the platform operator created at first start (default: $SOUK_OPERATOR_EMAIL); its password comes from $SOUK_OPERATOR_PASSWORD.",
        valueName: "email")) var operatorEmail: String?
    @Option(help: "Longest access-token lifetime, in seconds (a marketplace setting may shorten it).") var accessTokenTtl = 3600
    @Option(help: "Longest refresh-token lifetime, in seconds (a marketplace setting may shorten it).") var refreshTokenTtl = 2_592_000
    @Option(help: ArgumentHelp(
        "Journal of the simulated payment gateway: its authorizations and refunds, kept outside the store as an outside provider keeps them (default: <data-dir>.simulated-gateway.jsonl, beside the data directory).",
        valueName: "path")) var simulatedGatewayJournal: String?
    @Option(help: ArgumentHelp(
        "For tests only: a fault the simulated payment gateway injects. stall-after-authorize: every authorization is recorded and never answered.",
        valueName: "fault")) var simulatedGatewayFault: SimulatedGateway.Fault?
    @Flag(help: "Rebuild the dashboards' totals from the stored orders, payments, bills and accounts at start (a repair; a store without totals gets them at its first start anyway).")
    var rebuildReportTotals = false
    @Option(help: "For tests only: seconds between two looks at the due lifecycle timers; a long one holds the timers due meanwhile until the next start.")
    var timerTickSeconds = 0.25
    @Option(help: "Argon2id memory per password hash, in KiB (libsodium's interactive cost by default; small values only for tests).")
    var passwordHashMemoryKib = PasswordHasher.defaultMemoryKiB

    func validate() throws {
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        guard maxReceiveMessageSize > 0 else { throw ValidationError("--max-receive-message-size must be positive") }
        guard eventLoops.map({ $0 > 0 }) ?? true else { throw ValidationError("--event-loops must be positive") }
        guard maxConcurrentStreams > 0 else { throw ValidationError("--max-concurrent-streams must be positive") }
        guard maxStreamsPerConnection > 0, maxStreamsPerAccount > 0 else {
            throw ValidationError("--max-streams-per-connection and --max-streams-per-account must be positive")
        }
        guard handlerThreads.map({ $0 >= 0 }) ?? true else { throw ValidationError("--handler-threads must not be negative") }
        guard maxCallsInProgress.map({ $0 >= 0 }) ?? true else { throw ValidationError("--max-calls-in-progress must not be negative") }
        guard admissionQueue.map({ $0 >= 0 }) ?? true, admissionWaitMs >= 0, admissionOverloadWaitMs >= 0,
              (admissionTargetMs ?? 0) >= 0, (admissionIntervalMs ?? 0) >= 0, admissionStandingMs >= 0 else {
            throw ValidationError("--admission-queue and the --admission-…-ms options must not be negative")
        }
        guard admissionStandingCalls.map({ $0 >= 1 }) ?? true else { throw ValidationError("--admission-standing-calls must be at least 1") }
        guard blockCacheMib > 0 else { throw ValidationError("--block-cache-mib must be positive") }
        guard maxStreamQueueBytes >= 1 else { throw ValidationError("--max-stream-queue-bytes must be at least 1") }
        guard eventRetentionSeconds >= 1 else { throw ValidationError("--event-retention-seconds must be at least 1") }
        guard timerTickSeconds >= 0.001, timerTickSeconds <= 86_400 else { throw ValidationError("--timer-tick-seconds must be 0.001...86400") }
        guard idleTimeout > 0, handshakeTimeout > 0, shutdownGracePeriod >= 0 else {
            throw ValidationError("timeouts must be positive")
        }
        guard store == "rocksdb" || store.hasPrefix("etcd://") else {
            throw ValidationError(SoukSchema.storeChoices)
        }
        guard mediaUrlLifetime > 0 else { throw ValidationError("--media-url-lifetime must be positive") }
        guard answersPerEarlyFlush >= 1 else { throw ValidationError("--answers-per-early-flush must be at least 1") }
        guard mediaCacheBytes >= 0 else { throw ValidationError("--media-cache-bytes must not be negative") }
        guard publicUrl.map({ $0.hasPrefix("http://") || $0.hasPrefix("https://") }) ?? true else {
            throw ValidationError("--public-url must start with http:// or https://")
        }
        guard accessTokenTtl > 0, refreshTokenTtl > 0 else { throw ValidationError("token lifetimes must be positive") }
        guard passwordHashMemoryKib >= PasswordHasher.minimumMemoryKiB else {
            throw ValidationError("--password-hash-memory-kib must be at least \(PasswordHasher.minimumMemoryKiB)")
        }
    }

    func run() async throws {
        let logLevel = self.logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel
            return handler
        }
        let logger = Logger(label: "souk.server")
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))

        var storeConfiguration = StoreConfiguration(path: dataDir)
        storeConfiguration.syncPolicy = sync.policy
        storeConfiguration.blockCacheBytes = blockCacheMib << 20
        storeConfiguration.directReads = directReads
        storeConfiguration.eventRetention = .seconds(eventRetentionSeconds)
        storeConfiguration.logger = Logger(label: "souk.store")
        let (store, election) = try openStore(storeConfiguration)
        logger.info("store open", metadata: ["store": "\(self.store)", "path": "\(dataDir)", "sync": "\(sync.rawValue)"])
        let built = try await store.buildPendingIndexes()
        if !built.isEmpty { logger.info("indexes built", metadata: ["indexes": "\(built.joined(separator: ","))"]) }
        // `souk-server store backup|verify|build-index|compact` reach the running server through this socket.
        let control = try StoreControlServer(store: store)

        // Every contract RPC's Access line, read from the embedded descriptor set: the server does
        // not start when one is missing or malformed.
        let rules = try AccessRules.contract()
        let openStreams = OpenStreams(limits: StreamLimits(perConnection: maxStreamsPerConnection, perAccount: maxStreamsPerAccount, queueBytes: maxStreamQueueBytes))
        // Every listed domain, made in order over the store: each finds the domains before it
        // and the server's settings in `context`, and registers its hooks there.
        let context = DomainContext(store: store)
        context.provide(identityConfiguration())
        context.provide(openStreams)
        context.provide(MediaURLSettings(publicURL: publicUrl, signedLifetime: .seconds(mediaUrlLifetime)))
        // The simulated payment gateway keeps its authorizations beside the data directory, as an
        // outside provider would keep them apart from the store.
        let journal = simulatedGatewayJournal ?? (dataDir.hasSuffix("/") ? String(dataDir.dropLast()) : dataDir) + ".simulated-gateway.jsonl"
        let gateway = SimulatedGateway(store: store, book: try SimulatedGatewayBook(journalPath: journal), fault: simulatedGatewayFault)
        if let simulatedGatewayFault { logger.warning("the simulated payment gateway injects a fault", metadata: ["fault": "\(simulatedGatewayFault.rawValue)"]) }
        context.provide(gateway)
        let domains = try context.mount(Domains.all)
        let identity = try context.require(Identity.self)
        try await bootstrapOperator(identity, logger: logger)
        // Accounts stored by earlier releases hand their vertical's fields to the vertical, once
        // every domain registered its part, before any call reads them.
        _ = try await identity.moveLegacyVerticalFields()
        // No call of the previous process is running: whatever it left with the gateway is settled now.
        let recovered = try await context.require(Payments.self).recoverAtStart()
        if recovered > 0 { logger.info("payment gateway calls of the previous run settled", metadata: ["calls": "\(recovered)"]) }
        // A store whose orders, payments, bills or accounts predate the dashboards' totals gets
        // them built once, before any call or timer can change what they count.
        let reports = try context.require(Reports.self)
        if let replayed = rebuildReportTotals ? try await reports.rebuild() : try await reports.rebuildIfNeeded() {
            logger.info("dashboard totals built", metadata: ["records": "\(replayed)"])
        }
        // The domains' timers and scheduled jobs, and the store's housekeeping, in one scheduler:
        // a service of the group, which stops it before the store closes.
        let scheduler = Scheduler(
            store: store, timers: domains.flatMap(\.background.timers),
            jobs: [Self.storeHousekeeping(store)] + domains.flatMap(\.background.jobs), tick: .milliseconds(Int64(timerTickSeconds * 1000)),
            election: election)
        let background = ServiceGroup(services: [scheduler], logger: Logger(label: "souk.services"))
        let backgroundRun = Task { try await background.run() }
        if demo {
            let loader = DemoLoader(identity: identity)
            let logins = try await loader.load()
            let demoContext = try loader.context(logins)
            for domain in domains { try await domain.loadDemo(demoContext) }
            for login in logins { print(login.line) }
            fflush(nil)  // stdout may be a pipe: the logins must reach it now
        }

        let kit = ServiceKit(rules: rules, marketplaces: identity.marketplaces, logger: Logger(label: "souk.rpc"), streams: openStreams)
        let services = makeServices(domains: domains, kit: kit)
        // Handlers read the store: they run on threads of their own, never on an event loop.
        // As many as the CPUs: a handler mostly computes, and a read that waits for the disk holds
        // its thread for a fraction of a millisecond. More threads only switched more (bench/loops).
        let handlerCount = handlerThreads ?? max(2, ProcessorAffinity.availableCount)
        let handlers = handlerCount > 0 ? HandlerThreads(count: handlerCount) : nil
        // Off by default: an untraced server has no tracing interceptor and reads no span per call.
        let tracer = try otlpEndpoint.map { try Tracer(endpoint: $0) }
        let router = GRPCRouter(
            services: services.all,
            interceptors: (tracer.map { [TracingInterceptor(tracer: $0)] } ?? []) + [
                LoggingInterceptor(logger: Logger(label: "souk.rpc")), MetricsInterceptor(),
                AuthenticationInterceptor(authenticator: identity.sessions, rules: rules), AuthorizationInterceptor(rules: rules),
            ],
            errorStatus: SoukErrorStatus(rules: rules),
            configuration: .init(
                maxReceiveMessageSize: maxReceiveMessageSize, handlers: handlers.map { .threads($0) } ?? .eventLoop,
                admission: admissionControl(handlerThreads: handlerCount, logger: logger)),
            logger: Logger(label: "souk.grpc")
        )
        let loopCount = eventLoops ?? ProcessorAffinity.availableCount
        let group = MultiThreadedEventLoopGroup(numberOfThreads: loopCount)
        // gRPC-Web on the same port, for browsers.
        // Media files and image sizes at their URLs, and the admin console, on the same port.
        let media = try context.require(Media.self)
        let console = try ConsoleRoute.bundled()
        if console == nil { logger.warning("admin console not served: its files are not beside the executable (Souk_SoukServer.resources)") }
        let web = GRPCWebRouter(
            grpc: router, cors: CORSPolicy(allowedOrigins: Set(corsOrigin)), json: ProtoJSON(),
            routes: [MediaHTTPRoute(media: media, cacheBytes: mediaCacheBytes)] + (console.map { [$0] } ?? []))
        let server = HTTP2Server(configuration: http2Configuration(), router: web, logger: logger, group: group)
        let address = try await server.start()
        if publicUrl == nil {
            // A wildcard address is no address to reach: the URLs name this host by loopback then.
            let reachable = host == "0.0.0.0" || host == "::" ? "localhost" : host.contains(":") ? "[\(host)]" : host
            media.urls.setPublicURL("\(tlsCert == nil ? "http" : "https")://\(reachable):\(address.port ?? port)")
        }
        logger.info("listening", metadata: [
            "address": "\(address)", "tls": "\(tlsCert != nil)", "event_loops": "\(loopCount)", "handler_threads": "\(handlerCount)", "services": "\(Set(services.all.map(\.serviceName)).sorted().joined(separator: ","))",
        ])

        // The admin console, on the same port (a wildcard address is reached on localhost).
        if console != nil {
            let consoleHost = host == "0.0.0.0" || host == "::" ? "localhost" : host.contains(":") ? "[\(host)]" : host
            logger.info("admin console", metadata: ["url": "\(tlsCert == nil ? "http" : "https")://\(consoleHost):\(address.port ?? port)/console/"])
        }

        var metricsChannel: (any Channel)?
        if let metricsPort {
            metricsChannel = try await MetricsEndpoint(registry: registry, logger: logger)
                .start(host: host, port: metricsPort, group: group)
        }

        let signal = await ShutdownSignal.wait()
        logger.info("draining", metadata: ["signal": "\(signal)", "grace_period_s": "\(shutdownGracePeriod)"])
        services.health.setAllNotServing()
        await server.shutdown(gracePeriod: .seconds(shutdownGracePeriod))
        try? await metricsChannel?.close()
        await background.triggerGracefulShutdown()
        do { try await backgroundRun.value } catch { logger.error("background services failed", metadata: ["error": "\(error)"]) }
        control.stop()
        await store.close()
        await handlers?.shutdown()
        try? await group.shutdownGracefully()
        tracer?.shutdown()
        logger.info("stopped")
    }

    /// The bound on the calls in progress. Sized by the handler threads: a call in progress mostly
    /// waits (for the store's commit group, a thread), so a few times the threads keep them busy
    /// and let commit groups batch. The queue absorbs bursts and a closed load of up to about its
    /// size in clients (virtual users that each wait for their answer) while it moves within
    /// --admission-wait-ms; under sustained overload (waits near their limit for as long as the
    /// limit: arrivals faster than the server serves) its wait drops to
    /// --admission-overload-wait-ms, so admitted calls keep their latency and the rest are refused.
    private func admissionControl(handlerThreads: Int, logger: Logger) -> AdmissionControl? {
        if maxCallsInProgress == 0 { return nil }
        let threads = handlerThreads > 0 ? handlerThreads : max(1, ProcessorAffinity.availableCount)
        let limits = AdmissionControl.Limits(
            maxCallsInProgress: maxCallsInProgress ?? max(32, 16 * threads),
            maxWaiting: admissionQueue ?? max(2048, 512 * threads),
            maxWait: .milliseconds(admissionWaitMs), overloadedWait: .milliseconds(admissionOverloadWaitMs),
            target: admissionTargetMs.map { .milliseconds($0) }, interval: admissionIntervalMs.map { .milliseconds($0) },
            standingWait: admissionStandingMs > 0 ? .milliseconds(admissionStandingMs) : nil,
            // Under overload only the processors do work: two calls each keep one busy while the
            // other waits (a commit, a lock), and no more share it.
            standingCallsInProgress: admissionStandingCalls ?? 2 * max(1, ProcessorAffinity.availableCount))
        return AdmissionControl(
            limits: limits,
            refusal: .souk(
                .unavailable, .overloaded, "the server is overloaded: the call was not executed, retry after the RetryInfo delay",
                metadata: ["executed": "false"]),
            logger: logger)
    }

    /// The store `--store` names, and how the nodes on it choose the one that runs timers and
    /// scheduled jobs: the only node of an embedded store, or the holder of an etcd lease.
    private func openStore(_ configuration: StoreConfiguration) throws -> (Store, any RunnerElection) {
        guard store.hasPrefix("etcd://") else {
            return (try Store(configuration, schema: SoukSchema.schema), SoleRunner())
        }
        let (opened, engine) = try SoukSchema.openEtcdStore(url: store, configuration: configuration)
        let candidate = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(port)"
        let election = EtcdLeaseElection(client: engine.client, key: "souk/runner", candidate: candidate, logger: Logger(label: "souk.election"))
        return (opened, election)
    }

    /// Every five minutes (and at start): expired idempotency records and events past retention.
    static func storeHousekeeping(_ store: Store) -> ScheduledJob {
        ScheduledJob("store housekeeping", every: .seconds(300)) {
            try await store.purgeExpiredIdempotencyRecords() + store.purgeExpiredEvents()
        }
    }

    private func identityConfiguration() -> IdentityConfiguration {
        var configuration = IdentityConfiguration()
        configuration.accessTokenTTL = .seconds(accessTokenTtl)
        configuration.refreshTokenTTL = .seconds(refreshTokenTtl)
        configuration.passwordHashMemoryKiB = passwordHashMemoryKib
        configuration.logger = Logger(label: "souk.identity")
        return configuration
    }

    /// Creates the platform operator at first start from --operator-email (or $SOUK_OPERATOR_EMAIL)
    /// and $SOUK_OPERATOR_PASSWORD; never from a flag or a built-in password.
    private func bootstrapOperator(_ identity: Identity, logger: Logger) async throws {
        let environment = ProcessInfo.processInfo.environment
        let email = operatorEmail ?? environment["SOUK_OPERATOR_EMAIL"].flatMap { $0.isEmpty ? nil : $0 }
        let password = environment["SOUK_OPERATOR_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        guard let email else {
            logger.debug("no operator e-mail given; no operator is created")
            return
        }
        guard let password else {
            if try identity.hasOperator() { return }
            throw ValidationError("--operator-email needs the operator's password in $SOUK_OPERATOR_PASSWORD")
        }
        if try await identity.bootstrapOperator(email: email, password: password) {
            logger.info("platform operator created", metadata: ["email": "\(email)"])
        } else {
            logger.info("a platform operator exists already; --operator-email is not used")
        }
    }

    private func makeServices(domains: [any SoukDomain], kit: ServiceKit) -> (all: [any RPCService], health: HealthService) {
        var services = ServiceAssembly.assemble(domains.flatMap { $0.services(kit) })
        services += UnimplementedMethods.services(rules: kit.rules, implemented: services)
        if enableTestService {
            services += [InteropTestService(), UnimplementedService()] as [any RPCService]
        }
        let names = Array(Set(services.map(\.serviceName))).sorted() + ["grpc.health.v1.Health"] + ReflectionService.serviceNames
        let health = HealthService(servingServices: names)
        services.append(health)
        services += ReflectionService.allVersions(registeredServices: names) as [any RPCService]
        return (services, health)
    }

    private func http2Configuration() -> HTTP2ServerConfiguration {
        var configuration = HTTP2ServerConfiguration(
            host: host,
            port: port,
            tls: tlsCert.map { HTTP2ServerConfiguration.TLS(certificateChainPath: $0, privateKeyPath: tlsKey!) }
        )
        configuration.maxConcurrentStreams = maxConcurrentStreams
        configuration.maxHeaderListSize = maxHeaderListSize
        configuration.answersPerEarlyFlush = answersPerEarlyFlush
        configuration.idleTimeout = .seconds(idleTimeout)
        configuration.handshakeTimeout = .seconds(handshakeTimeout)
        return configuration
    }
}

extension SoukSchema {
    /// What `--store` accepts.
    static let storeChoices = "--store must be rocksdb or etcd://HOST:PORT,..."

    /// `souk-server store verify --store etcd://...` opens the store as a node does.
    static func openStore(url: String, configuration: StoreConfiguration) throws -> Store {
        guard url.hasPrefix("etcd://") else { throw ValidationError(SoukSchema.storeChoices) }
        return try openEtcdStore(url: url, configuration: configuration).store
    }

    /// The store over the etcd cluster of a store URL; `configuration.path` is this node's
    /// directory (media files).
    static func openEtcdStore(url: String, configuration: StoreConfiguration) throws -> (store: Store, engine: EtcdKeyValueEngine) {
        let etcd = try EtcdKeyValueEngine.Configuration(storeURL: url)
        let engine = EtcdKeyValueEngine(configuration: etcd)
        try FileManager.default.createDirectory(atPath: configuration.path, withIntermediateDirectories: true)
        var configuration = configuration
        // Optimistic transactions collide where RocksDB's would wait for a lock: a hot row (the
        // last bottles of a popular wine) needs more attempts than the embedded store's.
        configuration.maxAttempts = max(configuration.maxAttempts, 100)
        guard etcd.mirror else {
            return (try Store(engine: engine, configuration: configuration, schema: SoukSchema.schema), engine)
        }
        // Reads from this node's copy of the key space: one round trip per transaction, not per read.
        let mirror = MirroredKeyValueEngine(base: engine)
        try mirror.start()
        return (try Store(engine: mirror, configuration: configuration, schema: SoukSchema.schema), engine)
    }
}

/// The `--sync` choices.
enum SyncOption: String, ExpressibleByArgument, CaseIterable {
    case sync, none

    var policy: SyncPolicy { self == .sync ? .syncEveryCommit : .none }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
