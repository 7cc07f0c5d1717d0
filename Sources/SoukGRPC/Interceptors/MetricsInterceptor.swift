import Metrics
import Synchronization

/// Records swift-metrics for every call:
/// - `souk_rpc_calls_total` (counter; dimensions `method`, `status`),
/// - `souk_rpc_duration_seconds` (timer; dimension `method`),
/// - `souk_rpc_active_calls` (meter: calls running now).
public final class MetricsInterceptor: ServerInterceptor {
    public static let callsLabel = "souk_rpc_calls_total"
    public static let durationLabel = "souk_rpc_duration_seconds"
    public static let activeCallsLabel = "souk_rpc_active_calls"

    private let factory: any MetricsFactory
    private let activeCalls: Meter
    /// Metric objects by method (and status), made once: making one costs a factory lookup.
    private let counters = Mutex<[CounterKey: Counter]>([:])
    private let timers = Mutex<[MethodDescriptor: Timer]>([:])

    private struct CounterKey: Hashable {
        var method: MethodDescriptor
        var code: StatusCode
    }

    /// Metrics made by `factory` (by default the one `MetricsSystem` was bootstrapped with).
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
        self.activeCalls = Meter(label: Self.activeCallsLabel, factory: factory)
    }

    public func intercept(_ context: ServerContext, next: @Sendable () async throws -> Void) async throws {
        let start = ContinuousClock.now
        activeCalls.increment()
        defer { activeCalls.decrement() }
        do {
            try await next()
            record(context.method, .ok, since: start)
        } catch {
            record(context.method, (error as? RPCError)?.code ?? .unknown, since: start)
            throw error
        }
    }

    private func record(_ method: MethodDescriptor, _ code: StatusCode, since start: ContinuousClock.Instant) {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        timer(method).recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        counter(method, code).increment()
    }

    private func counter(_ method: MethodDescriptor, _ code: StatusCode) -> Counter {
        let key = CounterKey(method: method, code: code)
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: Self.callsLabel,
                dimensions: [("method", method.description), ("status", code.description)],
                factory: factory
            )
            counters[key] = counter
            return counter
        }
    }

    private func timer(_ method: MethodDescriptor) -> Timer {
        timers.withLock { timers in
            if let timer = timers[method] { return timer }
            let timer = Timer(label: Self.durationLabel, dimensions: [("method", method.description)], factory: factory)
            timers[method] = timer
            return timer
        }
    }
}
