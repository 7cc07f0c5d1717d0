import Logging
import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore

/// The `google.rpc.ErrorInfo.domain` of every error Souk answers.
public let soukErrorDomain = "souk.v1"

extension SoukV1.ErrorReason {
    /// The name sent as `ErrorInfo.reason`: the contract's name without its prefix, for example `STALE_VERSION`.
    public var reasonName: String { String(protoName.dropFirst("ERROR_REASON_".count)) }

    /// The reason an `ErrorInfo.reason` names; nil when it is not in the catalogue.
    public init?(reasonName: String) {
        guard let reason = Self.allCases.first(where: { $0.reasonName == reasonName }) else { return nil }
        self = reason
    }

    /// The reason of an error raised without one (by the gRPC layer, or outside the domain rules),
    /// chosen by its status code.
    public static func fallback(for code: StatusCode) -> SoukV1.ErrorReason {
        switch code {
        case .invalidArgument, .outOfRange: .fieldInvalid
        case .notFound: .resourceNotFound
        case .alreadyExists: .duplicate
        case .permissionDenied: .notAllowed
        case .unauthenticated: .tokenInvalid
        case .failedPrecondition: .invalidTransition
        case .aborted: .concurrentChange
        case .resourceExhausted: .messageTooLarge
        case .unimplemented: .notImplemented
        case .deadlineExceeded: .deadlineExceeded
        case .cancelled: .cancelled
        case .unavailable: .unavailable
        case .ok, .unknown, .internalError, .dataLoss: .internalError
        }
    }
}

extension RPCError {
    /// An error from a domain rule: the status, a message for developers, and an `ErrorInfo`
    /// with the reason and `metadata`. With a field, the message is prefixed with its path, and
    /// the field is named by a `google.rpc.BadRequest` and by the metadata key `field`.
    public static func souk(
        _ code: StatusCode, _ reason: SoukV1.ErrorReason, _ message: String,
        field: String? = nil, metadata: [String: String] = [:], retryDelay: Duration? = nil
    ) -> RPCError {
        var metadata = metadata
        if let field { metadata["field"] = field }
        let info = GoogleRPC.ErrorInfo(reason: reason.reasonName, domain: soukErrorDomain, metadata: metadata)
        guard let field else { return RPCError(code, message, errorInfo: info, retryDelay: retryDelay) }
        return RPCError(
            code, "\(field): \(message)", errorInfo: info, fieldViolations: [FieldViolation(field: field, description: message)],
            retryDelay: retryDelay)
    }

    /// INVALID_ARGUMENT for one field; the message starts with the field path as the contract asks.
    public static func invalidField(_ field: String, _ problem: String, reason: SoukV1.ErrorReason = .fieldInvalid) -> RPCError {
        souk(.invalidArgument, reason, problem, field: field)
    }

    /// NOT_FOUND for a resource of the caller's marketplace (or one that lives in another).
    public static func notFound(_ what: String, _ id: String) -> RPCError {
        souk(.notFound, .resourceNotFound, "\(what) \(id) not found", metadata: ["resource_type": what, "resource_id": id])
    }

    /// ABORTED because the resource changed since the version the client read.
    public static func staleVersion(_ what: String, _ id: String, expected: UInt64, actual: UInt64) -> RPCError {
        souk(
            .aborted, .staleVersion, "\(what) \(id) is at version \(actual), not \(expected); read it again",
            metadata: ["resource_type": what, "resource_id": id, "current_version": "\(actual)"])
    }

    /// The reason of an error with a Souk `ErrorInfo`; nil for other errors.
    public var soukReason: SoukV1.ErrorReason? {
        guard let errorInfo, errorInfo.domain == soukErrorDomain else { return nil }
        return SoukV1.ErrorReason(reasonName: errorInfo.reason)
    }
}

/// Turns what a handler threw into the call's status: store errors become their canonical codes
/// (conflicts ABORTED, missing records NOT_FOUND, reused request ids and bad page tokens
/// INVALID_ARGUMENT, ...); an `RPCError` passes unchanged; anything else is INTERNAL and logged.
public func rpcError(from error: any Error, logger: Logger? = nil) -> any Error {
    if error is RPCError || error is CancellationError { return error }
    guard let error = error as? StoreError else {
        logger?.error("unexpected error", metadata: ["error": "\(error)"])
        return RPCError.souk(.internalError, .internalError, "internal error")
    }
    switch error {
    case .versionMismatch(let table, let id, let expected, let actual):
        return RPCError.staleVersion(singular(table), id.description, expected: expected, actual: actual)
    case .conflict:
        // Store.write already retried the transaction; the client may try again.
        return RPCError.souk(.aborted, .concurrentChange, "the request kept colliding with concurrent changes; try again")
    case .notFound(let table, let id):
        return RPCError.notFound(singular(table), id.description)
    case .alreadyExists, .uniqueViolation:
        return RPCError.souk(.alreadyExists, .duplicate, "a record with the same unique key already exists")
    case .idempotencyKeyReused:
        return RPCError.invalidField("request_id", "was already used with a different request", reason: .requestIDReused)
    case .invalidPageToken:
        return RPCError.invalidField("page_token", "is not a token from a previous page of this list with the same filters")
    case .eventsExpired(_, let oldest):
        return RPCError.souk(
            .outOfRange, .eventsExpired, "events before \(oldest) are no longer kept: reload (read the state again, then watch after the sequence that read gives, or from 0)",
            metadata: ["oldest_sequence": "\(oldest)"])
    case .closed, .indexNotReady:
        return RPCError.souk(.unavailable, .unavailable, "\(error)")
    case .engine:
        // The replicated engine is unreachable or has no leader (an election): a retry may succeed.
        logger?.warning("store engine failure", metadata: ["error": "\(error)"])
        return RPCError.souk(.unavailable, .unavailable, "the store is unavailable; try again")
    case .rocksDB, .corruptRecord, .corruptValue, .encodingFailed, .unknownSchemaObject, .invalidSchema:
        logger?.error("store failure", metadata: ["error": "\(error)"])
        return RPCError.souk(.internalError, .internalError, "internal error")
    }
}

/// "accounts" → "account", "addresses" → "address": the resource type in messages and metadata.
private func singular(_ table: String) -> String {
    if table.hasSuffix("sses") { return String(table.dropLast(2)) }
    return table.hasSuffix("s") ? String(table.dropLast()) : table
}
