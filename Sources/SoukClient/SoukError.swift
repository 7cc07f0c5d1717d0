import SoukGRPC
import SoukMessages

/// Every error of a souk.v1 call: the status and what `grpc-status-details-bin` said about it.
public struct SoukError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The gRPC status code.
    public var code: StatusCode
    /// For developers (`grpc-message`); show `localizedMessage` to users.
    public var message: String
    /// The ErrorInfo reason as souk.v1 declares it; nil when there is none or it is not souk.v1's
    /// (`reasonName` has it as sent).
    public var reason: SoukV1.ErrorReason?
    /// The ErrorInfo reason as sent (for example `OUT_OF_STOCK`), empty when there is none.
    public var reasonName: String
    /// The ErrorInfo's domain (`souk.v1`) and metadata (for example `field`, `last_sequence`).
    public var errorDomain: String
    public var errorMetadata: [String: String]
    /// Every wrong field of the request (BadRequest).
    public var fieldViolations: [FieldViolation]
    /// How long to wait before trying again (RetryInfo).
    public var retryDelay: Duration?
    /// The error in words for the user, in their language (LocalizedMessage).
    public var localizedMessage: String?
    /// The language of `localizedMessage` (BCP 47, for example `ar`).
    public var locale: String?
    /// The call's trailing metadata.
    public var trailers: Metadata

    /// The error as the transport reported it.
    public init(_ error: RPCError) {
        code = error.code
        message = error.message
        reasonName = error.errorInfo?.reason ?? ""
        errorDomain = error.errorInfo?.domain ?? ""
        errorMetadata = error.errorInfo?.metadata ?? [:]
        reason = errorDomain == "souk.v1" || errorDomain.isEmpty ? Self.reason(named: reasonName) : nil
        fieldViolations = error.fieldViolations
        retryDelay = error.retryDelay
        localizedMessage = error.localizedMessage?.message
        locale = error.localizedMessage?.locale
        trailers = error.trailers
    }

    /// A souk.v1 reason by its name without the `ERROR_REASON_` prefix (as ErrorInfo carries it).
    static func reason(named name: String) -> SoukV1.ErrorReason? {
        guard !name.isEmpty else { return nil }
        return reasonsByName["ERROR_REASON_" + name]
    }

    private static let reasonsByName: [String: SoukV1.ErrorReason] = Dictionary(
        SoukV1.ErrorReason.allCases.map { ($0.protoName, $0) }, uniquingKeysWith: { first, _ in first })

    /// The resume point of a Watch is older than the server keeps: reload the resource, then
    /// watch it again from its current state.
    public var mustReload: Bool { reason == .eventsExpired }

    /// The violation of one field, if the request had one there.
    public func violation(of field: String) -> FieldViolation? {
        fieldViolations.first { $0.field == field }
    }

    /// The server refused the call before doing anything (UNAVAILABLE, OVERLOADED): sending it
    /// again after `retryDelay` is safe, even for a call that is never repeated otherwise.
    public var wasNotExecuted: Bool { code == .unavailable && reason == .overloaded }

    /// Whether a unary call of this `retry` kind may be sent again after this error.
    func allowsRetry(_ retry: SoukRetry) -> Bool {
        code == .unavailable && (retry == .idempotent || wasNotExecuted)
    }

    var isExpiredToken: Bool { code == .unauthenticated && reason == .tokenExpired }

    /// A Watch stream that broke this way resumes after its last event.
    var resumesWatch: Bool {
        switch code {
        case .unavailable: return true
        case .resourceExhausted: return reason == .readerTooSlow
        case .unauthenticated: return reason == .tokenExpired
        default: return false
        }
    }

    public var description: String {
        var text = "\(code)"
        if !reasonName.isEmpty { text += " (\(reasonName))" }
        if !message.isEmpty { text += ": \(message)" }
        if !fieldViolations.isEmpty { text += " [" + fieldViolations.map { "\($0.field): \($0.description)" }.joined(separator: "; ") + "]" }
        return text
    }
}
