import NIOPosix

/// A fixed set of threads that run call handlers, so that an event loop never waits for what a
/// handler waits for (a store read that misses the cache, a lock).
///
/// A task started with this executor as its preference (`GRPCRouter.HandlerPlacement.threads`)
/// runs here, with its interceptors, child tasks and everything it awaits: it resumes here after
/// each suspension, not on the global executor, whose few threads (one per CPU) must not block.
/// A handler may block one of these threads; the others go on serving calls.
public final class HandlerThreads: TaskExecutor, Sendable {
    private let pool: NIOThreadPool
    /// How many threads run handlers.
    public let count: Int

    /// Starts `count` threads.
    public init(count: Int) {
        precondition(count > 0, "HandlerThreads needs at least one thread")
        self.count = count
        pool = NIOThreadPool(numberOfThreads: count)
        pool.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        // A pool already shut down calls the item at once, here: the job still runs (a task
        // is never dropped), on the thread that resumed it.
        pool.submit { _ in job.runSynchronously(on: executor) }
    }

    /// Stops the threads once the jobs queued have run. Call it after the server has drained.
    public func shutdown() async {
        try? await pool.shutdownGracefully()
    }
}
