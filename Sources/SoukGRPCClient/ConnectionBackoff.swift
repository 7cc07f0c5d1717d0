/// How long to wait between connection attempts, as gRPC's connection-backoff document says
/// (doc/connection-backoff.md): the first retry after `initial`, each next one `multiplier` times
/// longer up to `maximum`, every delay spread by ±`jitter` of itself, and each attempt given at
/// least `minimumConnectTimeout` to complete.
public struct ConnectionBackoff: Sendable, Equatable {
    /// INITIAL_BACKOFF.
    public var initial: Duration = .seconds(1)
    /// MULTIPLIER.
    public var multiplier: Double = 1.6
    /// JITTER: each delay is randomized by up to this fraction of itself, either way.
    public var jitter: Double = 0.2
    /// MAX_BACKOFF.
    public var maximum: Duration = .seconds(120)
    /// MIN_CONNECT_TIMEOUT.
    public var minimumConnectTimeout: Duration = .seconds(20)

    public init() {}

    public init(initial: Duration, multiplier: Double = 1.6, jitter: Double = 0.2, maximum: Duration = .seconds(120)) {
        self.initial = initial
        self.multiplier = multiplier
        self.jitter = jitter
        self.maximum = maximum
    }

    /// The delays of successive retries, each counted from the start of the attempt that failed.
    public struct Delays: Sendable {
        let backoff: ConnectionBackoff
        /// The un-jittered delay of the latest retry; nil before the first.
        var current: Duration?

        init(_ backoff: ConnectionBackoff) {
            self.backoff = backoff
        }

        /// The next delay, jittered with `random` (a value in -1 ... 1). The first is `initial`
        /// exactly, as in the document's loop; later ones grow and are jittered.
        public mutating func next(random: Double = Double.random(in: -1 ... 1)) -> Duration {
            guard let previous = current else {
                current = backoff.initial
                return backoff.initial
            }
            let base = min(backoff.maximum, previous * backoff.multiplier)
            current = base
            return max(.zero, base + base * (backoff.jitter * random))
        }
    }

    /// A fresh sequence of delays.
    public func delays() -> Delays { Delays(self) }
}
