import Logging
import ServiceLifecycle
import SoukStore

/// What runs when a timer of one key falls due: given the resource's id, inside the
/// transaction that removes the timer, so a firing and its effects commit together or not at all.
public struct TimerHandler: Sendable {
    public let key: String
    public let run: @Sendable (RecordID, Transaction) throws -> Void

    public init(key: String, run: @escaping @Sendable (RecordID, Transaction) throws -> Void) {
        self.key = key
        self.run = run
    }
}

/// Work the scheduler runs at start and then every `interval`: a sweep over an index that is
/// its own persisted schedule (bills past their due date, tomorrow's scheduled orders), or
/// housekeeping. Returns how many records it handled, for the log.
public struct ScheduledJob: Sendable {
    public let name: String
    /// Nil: once, at start (a migration of stored records).
    public let interval: Duration?
    public let run: @Sendable () async throws -> Int

    public init(_ name: String, every interval: Duration, run: @escaping @Sendable () async throws -> Int) {
        self.name = name
        self.interval = interval
        self.run = run
    }

    private init(once name: String, run: @escaping @Sendable () async throws -> Int) {
        self.name = name
        self.interval = nil
        self.run = run
    }

    /// Runs once, when the scheduler starts.
    public static func atStart(_ name: String, run: @escaping @Sendable () async throws -> Int) -> ScheduledJob {
        ScheduledJob(once: name, run: run)
    }
}

/// The domains' timers and scheduled jobs: a service of the server's `ServiceGroup`, so it
/// starts with the server and stops with it. Timers are read from the store
/// (`TimerTable.byDue`), so those that fell due while the server was down fire at start.
public struct Scheduler: Service {
    let store: Store
    let handlers: [String: TimerHandler]
    let jobs: [ScheduledJob]
    /// The longest wait between two looks at the due timers: how late a timer armed meanwhile may fire.
    let tick: Duration
    /// A timer whose handler failed is tried again this much later.
    let retryDelay: Duration
    /// Which of the nodes on the store runs the timers and jobs.
    let election: any RunnerElection
    let logger: Logger

    public init(
        store: Store, timers: [TimerHandler], jobs: [ScheduledJob], tick: Duration = .milliseconds(250),
        retryDelay: Duration = .seconds(60), election: any RunnerElection = SoleRunner(),
        logger: Logger = Logger(label: "souk.scheduler")
    ) {
        self.store = store
        self.handlers = Dictionary(timers.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.jobs = jobs
        self.tick = tick
        self.retryDelay = retryDelay
        self.election = election
        self.logger = logger
    }

    /// Runs until the group shuts down (gracefully: the current firing finishes) or the store closes.
    public func run() async throws {
        await cancelWhenGracefulShutdown { await loop() }
    }

    /// Timers and jobs run side by side, so a long sweep never holds up a due timer; only on the
    /// elected node (jobs that run at start run again on a node that becomes the runner: they are
    /// written to be run more than once).
    private func loop() async {
        await election.whileElected { await runTimersAndJobs() }
    }

    private func runTimersAndJobs() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await timerLoop() }
            if !jobs.isEmpty { group.addTask { await jobLoop() } }
        }
    }

    private func timerLoop() async {
        while !Task.isCancelled {
            do {
                let fired = try await fireDue()
                if fired > 0 { logger.debug("timers fired", metadata: ["timers": "\(fired)"]) }
            } catch StoreError.closed {
                return
            } catch {
                logger.error("timers failed", metadata: ["error": "\(error)"])
            }
            do { try await Task.sleep(for: tick) } catch { return }
        }
    }

    private func jobLoop() async {
        var lastRun = [String: ContinuousClock.Instant]()
        while !Task.isCancelled {
            for job in jobs where isDue(job, lastRun: lastRun[job.name]) {
                lastRun[job.name] = .now
                if await !runJob(job) { return }
            }
            do { try await Task.sleep(for: .seconds(1)) } catch { return }
        }
    }

    private func isDue(_ job: ScheduledJob, lastRun: ContinuousClock.Instant?) -> Bool {
        guard let lastRun else { return true }
        guard let interval = job.interval else { return false }
        return lastRun.duration(to: .now) >= interval
    }

    /// Runs `job`; false once the store is closed.
    private func runJob(_ job: ScheduledJob) async -> Bool {
        do {
            let count = try await job.run()
            if count > 0 { logger.info("scheduled job ran", metadata: ["job": "\(job.name)", "records": "\(count)"]) }
        } catch StoreError.closed {
            return false
        } catch {
            logger.error("scheduled job failed", metadata: ["job": "\(job.name)", "error": "\(error)"])
        }
        return true
    }

    /// Fires every timer due at the store's clock, one transaction per resource; returns how many
    /// fired. A handler that throws leaves its timer armed `retryDelay` later (logged), so one
    /// failing resource does not hold up the others.
    @discardableResult
    public func fireDue() async throws -> Int {
        var fired = 0
        var failed = Set<RecordID>()
        while true {
            let now = store.configuration.clock()
            let due = try store.list(
                TimerTable.table, TimerTable.byDue, .prefix([], before: [.time(now.adding(.microseconds(1)))]),
                page: PageRequest(size: 50))
            let ids = due.items.map(\.id).filter { !failed.contains($0) }
            if ids.isEmpty { return fired }
            for id in Set(ids) {
                do {
                    fired += try await store.write { transaction in try fire(id, transaction: transaction) }
                } catch StoreError.closed {
                    throw StoreError.closed
                } catch {
                    failed.insert(id)
                    logger.error("timer failed", metadata: ["resource": "\(id)", "error": "\(error)"])
                    try await postpone(id)
                }
            }
        }
    }

    /// Removes the due timers of resource `id` and runs their handlers; returns how many.
    private func fire(_ id: RecordID, transaction: Transaction) throws -> Int {
        guard let armed = try transaction.get(TimerTable.table, id) else { return 0 }
        let due = armed.value.timers.filter { $0.due <= transaction.now }
        guard !due.isEmpty else { return 0 }
        try transaction.setTimers(of: id, marketplaceID: armed.value.marketplaceID, due.map { ($0.key, nil) })
        for timer in due {
            guard let handler = handlers[timer.key] else {
                logger.warning("no handler for a due timer; dropped", metadata: ["timer": "\(timer.key)", "resource": "\(id)"])
                continue
            }
            try handler.run(id, transaction)
        }
        return due.count
    }

    private func postpone(_ id: RecordID) async throws {
        try await store.write { transaction in
            guard let armed = try transaction.get(TimerTable.table, id) else { return }
            let later = transaction.now.adding(retryDelay)
            try transaction.setTimers(
                of: id, marketplaceID: armed.value.marketplaceID,
                armed.value.timers.filter { $0.due <= transaction.now }.map { ($0.key, later) })
        }
    }
}
