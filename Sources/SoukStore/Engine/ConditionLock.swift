#if canImport(Glibc)
import Glibc
#endif

/// A mutex with waits on its state: guards `State`, and lets a thread sleep until another changes
/// it so that the waiter's condition holds. For the blocking callers of a `KeyValueEngine` (writer
/// threads, never event loops).
///
/// A waiter sleeps on its own condition variable, and the thread that changed the state checks
/// the waiters' conditions for them (`broadcast`), waking only those whose condition now holds.
/// With one shared condition variable every change woke every waiter (on etcd, tens of threads
/// waiting for a revision or a commit slot), and each went back to sleep but one.
final class ConditionLock<State>: @unchecked Sendable {
    /// A sleeping thread: its condition (run under the lock; true once it has its answer) and the
    /// condition variable it sleeps on. One owner each, freed once in deinit.
    private final class Waiter {
        let holds: (inout State) -> Bool
        let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        var answered = false

        init(_ holds: @escaping (inout State) -> Bool) {
            self.holds = holds
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            // Deadlines on the monotonic clock: a change of the wall clock does not stretch a wait.
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(wake, &attributes)
            pthread_condattr_destroy(&attributes)
        }

        deinit {
            pthread_cond_destroy(wake)
            wake.deallocate()
        }
    }

    // One owner, freed once in deinit.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var state: State
    /// Sleeping threads, in the order they began to wait.
    private var waiters: [Waiter] = []

    init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Checks the sleeping threads' conditions, in the order they began to wait, and wakes each
    /// whose condition now holds (call after changing the state). A condition may change the state
    /// (take a turn), so the check goes round again after any waiter is answered.
    func broadcast() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var answered = true
        while answered, !waiters.isEmpty {
            answered = false
            waiters.removeAll { waiter in
                guard waiter.holds(&state) else { return false }
                waiter.answered = true
                pthread_cond_signal(waiter.wake)
                answered = true
                return true
            }
        }
    }

    /// Calls `body` under the lock until it answers non-nil, sleeping between calls until a
    /// `broadcast` finds it answers; nil when `seconds` pass first. `body` runs on the waiting
    /// thread or on the one that calls `broadcast`, always under the lock, and never again once it
    /// has answered.
    func wait<R>(seconds: Double, until body: (inout State) -> R?) -> R? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let answer = body(&state) { return answer }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + Int(seconds * 1_000_000_000)
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        // The waiter is in `waiters` only while this call sleeps, so `body` does not outlive it.
        return withoutActuallyEscaping(body) { body in
            var answer: R?
            let waiter = Waiter { state in
                answer = body(&state)
                return answer != nil
            }
            waiters.append(waiter)
            while !waiter.answered {
                if pthread_cond_timedwait(waiter.wake, mutex, &deadline) == ETIMEDOUT, !waiter.answered {
                    waiters.removeAll { $0 === waiter }
                    return body(&state)
                }
            }
            return answer
        }
    }
}
