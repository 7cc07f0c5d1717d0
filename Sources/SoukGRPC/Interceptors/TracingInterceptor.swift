import SoukTracing

/// The tracing of one call: its span (the handler's `Tracing.current`), the caller's span and
/// when the call started.
public struct TracedCall: Sendable {
    public let span: ActiveSpan
    public let parentSpanID: UInt64?
    public let start: UInt64
}

/// The key of a call's `TracedCall` in its `ServerContext`.
public enum TracedCallKey: ServerContextKey {
    public typealias Value = TracedCall
}

/// Traces every call: a server span per call, a child of the caller's span when the request
/// carries a W3C `traceparent`, else the root of a new trace; the handler runs with the span as
/// `Tracing.current`, so the store adds its transaction and commit spans under it. Put it first,
/// so that the span covers the other interceptors (authentication, limits).
public struct TracingInterceptor: ServerInterceptor {
    public let tracer: Tracer

    public init(tracer: Tracer) {
        self.tracer = tracer
    }

    public func callStarted(_ context: ServerContext) throws(RPCError) {
        let parent = context.requestMetadata["traceparent"].flatMap(TraceContext.init(traceparent:))
        let span = parent?.child() ?? TraceContext.newTrace()
        // The span starts when the request's headers were read.
        let waited = ContinuousClock.now - context.started
        let start = Tracing.now() &- UInt64(max(0, waited.components.seconds * 1_000_000_000 + waited.components.attoseconds / 1_000_000_000))
        context[TracedCallKey.self] = TracedCall(span: ActiveSpan(context: span, tracer: tracer), parentSpanID: parent?.spanID, start: start)
    }

    public func callEnded(_ context: ServerContext, status: RPCError?) {
        guard let call = context[TracedCallKey.self] else { return }
        let code = status?.code ?? .ok
        tracer.export(SpanRecord(
            context: call.span.context, parentSpanID: call.parentSpanID, name: context.method.description, kind: .server,
            start: call.start, end: Tracing.now(),
            attributes: [
                ("rpc.system", .string("grpc")), ("rpc.service", .string(context.method.service)),
                ("rpc.method", .string(context.method.method)), ("rpc.grpc.status_code", .int(Int64(code.rawValue))),
                ("client.address", .string(context.peer)),
            ],
            // OpenTelemetry's rule for gRPC servers: only the server's own failures are errors.
            error: Self.isServerFailure(code) ? "\(code): \(status?.message ?? "")" : nil))
    }

    private static func isServerFailure(_ code: StatusCode) -> Bool {
        switch code {
        case .unknown, .deadlineExceeded, .unimplemented, .internalError, .unavailable, .dataLoss: true
        default: false
        }
    }
}
