#if canImport(Glibc)
import Glibc
#endif

/// A mutex with a condition to wait on: guards `State`, and lets a thread sleep until another
/// changes it. For the blocking callers of a `KeyValueEngine` (writer threads, never event loops).
final class ConditionLock<State>: @unchecked Sendable {
    // One owner each, freed once in deinit.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State

    init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Deadlines on the monotonic clock: a change of the wall clock does not stretch a wait.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Wakes every waiting thread (call after changing the state).
    func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Calls `body` under the lock until it answers non-nil, sleeping between calls until a
    /// broadcast; nil when `seconds` pass first.
    func wait<R>(seconds: Double, until body: (inout State) throws -> R?) rethrows -> R? {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + Int(seconds * 1_000_000_000)
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let answer = try body(&state) { return answer }
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return try body(&state) }
        }
    }
}
