import SoukGRPC
import SoukMessages

/// Which failed calls a scenario sends again because the server refused them without executing
/// them (an overloaded server's UNAVAILABLE, reason OVERLOADED; a RESOURCE_EXHAUSTED with
/// RetryInfo and ErrorInfo metadata `executed` "false"), and after how long: the server's RetryInfo
/// delay, doubled for each refusal of the same call after the first (a burst the server needs
/// longer than one delay to work through is not met again by the same clients at once), and
/// stretched at random by up to a half so that the refused users do not all come back in the same
/// instant. Any other failure may have been executed and is never sent again
/// here (a step's `retry` decides on those).
public struct RefusalRetry: Sendable {
    /// Sends after a refusal, at most, per call.
    public var attempts: Int
    /// The pause before the first retry when the refusal carries no RetryInfo.
    public var fallbackDelay: Duration

    public init(attempts: Int = 3, fallbackDelay: Duration = .milliseconds(100)) {
        self.attempts = attempts
        self.fallbackDelay = fallbackDelay
    }

    /// Whether the server said it did not execute the call.
    public static func notExecuted(_ error: RPCError) -> Bool {
        notExecuted(error.errorInfo)
    }

    /// Whether a failure's ErrorInfo says the server did not execute the call.
    public static func notExecuted(_ info: GoogleRPC.ErrorInfo?) -> Bool {
        guard let info else { return false }
        return info.reason == "OVERLOADED" || info.metadata["executed"] == "false"
    }

    /// The pause before sending the call again as retry number `attempt` (from 1) after `error`;
    /// nil when it is not sent again.
    public func delay(after error: RPCError, attempt: Int, using random: inout some RandomNumberGenerator) -> Duration? {
        guard attempt >= 1, attempt <= attempts, Self.notExecuted(error) else { return nil }
        switch error.code {
        case .unavailable: break
        case .resourceExhausted where error.retryDelay != nil: break
        default: return nil
        }
        let base = (error.retryDelay ?? fallbackDelay) * (1 << min(attempt - 1, 16))
        return base * Double.random(in: 1.0 ..< 1.5, using: &random)
    }
}
