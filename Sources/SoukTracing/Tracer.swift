import Foundation
import Synchronization

/// One finished span, ready to export.
public struct SpanRecord: Sendable {
    public enum Kind: Int, Sendable {
        case `internal` = 1
        case server = 2
    }

    /// An attribute value (OTLP's string, int and bool values).
    public enum Value: Sendable, Equatable {
        case string(String)
        case int(Int64)
        case bool(Bool)
    }

    public var context: TraceContext
    public var parentSpanID: UInt64?
    public var name: String
    public var kind: Kind
    /// Unix time in nanoseconds.
    public var start: UInt64
    public var end: UInt64
    public var attributes: [(String, Value)]
    /// nil: OK; otherwise the error's description.
    public var error: String?

    public init(
        context: TraceContext, parentSpanID: UInt64?, name: String, kind: Kind, start: UInt64, end: UInt64,
        attributes: [(String, Value)] = [], error: String? = nil
    ) {
        self.context = context
        self.parentSpanID = parentSpanID
        self.name = name
        self.kind = kind
        self.start = start
        self.end = end
        self.attributes = attributes
        self.error = error
    }
}

/// The span a piece of work belongs to, with the tracer its children go to. Handlers run with the
/// call's span as `Tracing.current`; the store adds its transaction and commit spans under it.
public struct ActiveSpan: Sendable {
    public let context: TraceContext
    public let tracer: Tracer

    public init(context: TraceContext, tracer: Tracer) {
        self.context = context
        self.tracer = tracer
    }

    /// Records a finished child span of this one.
    public func recordChild(
        _ name: String, start: UInt64, end: UInt64, attributes: [(String, SpanRecord.Value)] = [], error: String? = nil
    ) {
        tracer.export(SpanRecord(
            context: context.child(), parentSpanID: context.spanID, name: name, kind: .internal, start: start, end: end,
            attributes: attributes, error: error))
    }
}

/// Where the current task's span is kept.
public enum Tracing {
    /// The span of the call the current task serves; nil when tracing is off or the task serves none.
    @TaskLocal public static var current: ActiveSpan?

    /// Now, as Unix nanoseconds.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// Collects finished spans and sends them in batches to an OpenTelemetry collector over OTLP/HTTP
/// (JSON encoding, `POST <endpoint>/v1/traces`), from a thread of its own, so that no call waits
/// for the collector. At most `maxQueued` spans wait; more are dropped and counted (a collector
/// that is down or slow must not grow the server's memory).
public final class Tracer: Sendable {
    /// The service name the spans are reported under (`service.name`).
    public let serviceName: String
    private let endpoint: CollectorEndpoint
    private let maxQueued: Int
    private let maxBatch = 512
    private let state = Mutex(State())
    private let wakeUp = NSCondition()

    private struct State {
        var queued: [SpanRecord] = []
        var dropped = 0
        var stopped = false
        var exported = 0
    }

    /// A tracer exporting to `endpoint` (`http://HOST:PORT`); throws when it is not such a URL.
    public init(endpoint: String, serviceName: String = "souk-server", maxQueued: Int = 8192) throws {
        self.endpoint = try CollectorEndpoint(endpoint)
        self.serviceName = serviceName
        self.maxQueued = maxQueued
        let thread = Thread { [self] in run() }
        thread.name = "souk-trace-export"
        thread.start()
    }

    /// Queues a finished span for export.
    public func export(_ span: SpanRecord) {
        let wake = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            guard state.queued.count < maxQueued else {
                state.dropped += 1
                return false
            }
            state.queued.append(span)
            return state.queued.count >= maxBatch
        }
        if wake { wakeUp.broadcast() }
    }

    /// Spans sent to the collector so far, and spans dropped (queue full or collector unreachable).
    public var counts: (exported: Int, dropped: Int) {
        state.withLock { ($0.exported, $0.dropped) }
    }

    /// Sends what is queued, then stops.
    public func shutdown() {
        state.withLock { $0.stopped = true }
        wakeUp.broadcast()
    }

    private func run() {
        while true {
            wakeUp.lock()
            _ = wakeUp.wait(until: Date(timeIntervalSinceNow: 0.2))
            wakeUp.unlock()
            let (batch, stopped) = state.withLock { state -> ([SpanRecord], Bool) in
                let batch = Array(state.queued.prefix(maxBatch))
                state.queued.removeFirst(batch.count)
                return (batch, state.stopped && state.queued.isEmpty)
            }
            if !batch.isEmpty {
                let sent = endpoint.post(path: "/v1/traces", json: OTLPJSON.traces(batch, serviceName: serviceName))
                state.withLock {
                    if sent { $0.exported += batch.count } else { $0.dropped += batch.count }
                }
            }
            if stopped { return }
        }
    }
}
