import Logging

/// Logs one structured line per call: method, status, duration (since the request's headers) and peer.
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

    public func callEnded(_ context: ServerContext, status: RPCError?) {
        let code = status?.code ?? .ok
        let level: Logger.Level
        switch code {
        case .internalError, .unknown, .dataLoss, .unavailable: level = failureLevel
        default: level = self.level
        }
        guard logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = [
            "method": "\(context.method)",
            "status": "\(code)",
            "duration_ms": "\(milliseconds(ContinuousClock.now - context.started))",
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
