import SoukStore
import Synchronization

/// `count` calls per `window`, as a token bucket: a full bucket holds `count` calls and
/// regains one every `window / count`.
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    public var count: Int
    public var window: Duration

    public init(count: Int, window: Duration) {
        self.count = count
        self.window = window
    }

    public var description: String { "\(count) per \(window.components.seconds) s" }
}

/// Counts calls per key in memory (one token bucket per key) and refuses those over their
/// limit. The table is bounded: when it holds `capacity` keys, the least recently used tenth
/// is dropped (those have most likely refilled, which is the same as absent). Keys should carry
/// everything that tells their limits apart (marketplace, kind of call, address or account).
public final class RateLimiter: Sendable {
    private struct Bucket {
        /// Calls left, in millionths of a call, as of `updated`.
        var tokens: Int64
        var updated: StoreTime
    }

    private let clock: @Sendable () -> StoreTime
    private let capacity: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    /// `clock` is the store's (tests move it); `capacity` bounds the keys kept.
    public init(capacity: Int = 100_000, clock: @escaping @Sendable () -> StoreTime) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.clock = clock
    }

    /// A refused call: which of the keys had no call left (the one with the longest wait), and
    /// how long until it has one.
    public struct Refusal: Sendable, Equatable {
        public let index: Int
        public let wait: Duration
    }

    /// Takes one call from `key`'s bucket under `limit`; nil when allowed, else the refusal
    /// (taking nothing).
    public func take(_ key: String, limit: RateLimit) -> Refusal? {
        takeAll([(key, limit)])
    }

    /// Takes one call from each bucket only when every one has a call left (a refused call
    /// spends nothing); otherwise names the empty bucket with the longest wait.
    public func takeAll(_ keys: [(key: String, limit: RateLimit)]) -> Refusal? {
        buckets.withLock { buckets in
            // Read under the lock, so each bucket's refill times only move forward.
            let now = clock()
            var refilled: [(String, Bucket)] = []
            var refusal: Refusal?
            for (index, (key, limit)) in keys.enumerated() {
                let bucket = Self.refill(buckets[key], limit: limit, now: now)
                if bucket.tokens < Self.oneCall {
                    let missing = Self.oneCall - bucket.tokens
                    let wait = Duration.microseconds(max(1, Self.microsecondsPerCall(limit) * missing / Self.oneCall))
                    if wait > refusal?.wait ?? .zero { refusal = Refusal(index: index, wait: wait) }
                }
                refilled.append((key, bucket))
            }
            if let refusal { return refusal }
            for (key, var bucket) in refilled {
                bucket.tokens -= Self.oneCall
                if buckets[key] == nil, buckets.count >= capacity { Self.evict(&buckets, keep: capacity - max(1, capacity / 10)) }
                buckets[key] = bucket
            }
            return nil
        }
    }

    /// The number of keys kept (for tests and metrics).
    public var keyCount: Int { buckets.withLock { $0.count } }

    private static let oneCall: Int64 = 1_000_000

    private static func microsecondsPerCall(_ limit: RateLimit) -> Int64 {
        let window = limit.window.components
        let micros = window.seconds * 1_000_000 + window.attoseconds / 1_000_000_000_000
        return max(1, micros / Int64(max(1, limit.count)))
    }

    /// The bucket as of `now`: full when new, otherwise refilled for the time since its update.
    private static func refill(_ bucket: Bucket?, limit: RateLimit, now: StoreTime) -> Bucket {
        let full = Int64(max(1, limit.count)) * oneCall
        guard let bucket else { return Bucket(tokens: full, updated: now) }
        let elapsed = max(0, now.microsecondsSinceEpoch - bucket.updated.microsecondsSinceEpoch)
        let gained = elapsed.multipliedReportingOverflow(by: oneCall)
        let added = gained.overflow ? full : gained.partialValue / microsecondsPerCall(limit)
        return Bucket(tokens: min(full, bucket.tokens + min(added, full)), updated: now)
    }

    /// Shrinks the table to at most `keep` keys, least recently used first. Runs once per
    /// tenth of the capacity, so its sort is paid rarely.
    private static func evict(_ buckets: inout [String: Bucket], keep: Int) {
        let excess = buckets.count - keep
        guard excess > 0 else { return }
        let oldest = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(excess).map(\.key)
        for key in oldest { buckets.removeValue(forKey: key) }
    }
}
