import Metrics
import Synchronization

/// Records swift-metrics for every call:
/// - `souk_rpc_calls_total` (counter; dimensions `method`, `status`),
/// - `souk_rpc_duration_seconds` (timer; dimension `method`; from the request's headers to the status),
/// - `souk_rpc_active_calls` (meter: calls running now).
public final class MetricsInterceptor: ServerInterceptor {
    public static let callsLabel = "souk_rpc_calls_total"
    public static let durationLabel = "souk_rpc_duration_seconds"
    public static let activeCallsLabel = "souk_rpc_active_calls"

    private let factory: any MetricsFactory
    private let activeCalls: Meter
    /// Metric objects by method, made once (making one costs a factory lookup); one lookup per call.
    private let methods = Mutex<[MethodDescriptor: MethodMetrics]>([:])

    /// One method's timer and its counters by status code (made on first use).
    private struct MethodMetrics {
        var timer: Timer
        var counters: [Counter?]
    }

    /// Metrics made by `factory` (by default the one `MetricsSystem` was bootstrapped with).
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
        self.activeCalls = Meter(label: Self.activeCallsLabel, factory: factory)
    }

    public func callStarted(_ context: ServerContext) throws(RPCError) {
        activeCalls.increment()
    }

    public func callEnded(_ context: ServerContext, status: RPCError?) {
        activeCalls.decrement()
        let (seconds, attoseconds) = (ContinuousClock.now - context.started).components
        let (timer, counter) = metrics(context.method, status?.code ?? .ok)
        timer.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        counter.increment()
    }

    private func metrics(_ method: MethodDescriptor, _ code: StatusCode) -> (Timer, Counter) {
        methods.withLock { methods in
            var entry = methods[method] ?? MethodMetrics(
                timer: Timer(label: Self.durationLabel, dimensions: [("method", method.description)], factory: factory),
                counters: Array(repeating: nil, count: StatusCode.allCases.count))
            if let counter = entry.counters[code.rawValue] { return (entry.timer, counter) }
            let counter = Counter(
                label: Self.callsLabel,
                dimensions: [("method", method.description), ("status", code.description)],
                factory: factory
            )
            entry.counters[code.rawValue] = counter
            methods[method] = entry
            return (entry.timer, counter)
        }
    }
}
