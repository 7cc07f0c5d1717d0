import Logging

/// Logs one structured line per call: method, status, duration and peer.
public struct LoggingInterceptor: ServerInterceptor {
    public let logger: Logger
    /// The level of calls that end OK or with a client-side status.
    public let level: Logger.Level
    /// The level of calls that end with a server-side failure (INTERNAL, UNKNOWN, DATA_LOSS, UNAVAILABLE).
    public let failureLevel: Logger.Level

    public init(logger: Logger, level: Logger.Level = .info, failureLevel: Logger.Level = .warning) {
        self.logger = logger
        self.level = level
        self.failureLevel = failureLevel
    }

    public nonisolated(nonsending) func intercept(_ context: ServerContext, next: nonisolated(nonsending) @Sendable () async throws -> Void) async throws {
        // Nothing to log at this level: spare the clock reads.
        guard logger.logLevel <= max(level, failureLevel) else {
            try await next()
            return
        }
        let start = ContinuousClock.now
        do {
            try await next()
            log(context, error: nil, since: start)
        } catch {
            log(context, error: error, since: start)
            throw error
        }
    }

    // Out of line, like the other helpers interceptors call around `next`: its locals then live on
    // the thread's stack rather than in the call's async frame, which the task allocates per call.
    @inline(never)
    private func log(_ context: ServerContext, error: (any Error)?, since start: ContinuousClock.Instant) {
        let status = error.map { ($0 as? RPCError) ?? RPCError(.unknown, "\($0)") }
        let code = status?.code ?? .ok
        let level: Logger.Level
        switch code {
        case .internalError, .unknown, .dataLoss, .unavailable: level = failureLevel
        default: level = self.level
        }
        guard logger.logLevel <= level else { return }
        let elapsed = ContinuousClock.now - start
        var metadata: Logger.Metadata = [
            "method": "\(context.method)",
            "status": "\(code)",
            "duration_ms": "\(milliseconds(elapsed))",
            "peer": "\(context.peer)",
        ]
        if let status, !status.message.isEmpty { metadata["message"] = "\(status.message)" }
        logger.log(level: level, "rpc", metadata: metadata)
    }

    private func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let whole = micros / 1000
        let fraction = micros % 1000
        let padded = String(fraction)
        return "\(whole).\(String(repeating: "0", count: 3 - padded.count))\(padded)"
    }
}
