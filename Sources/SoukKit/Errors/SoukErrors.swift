import Logging
import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore

/// The trailer carrying a packed `souk.v1.ErrorDetail` next to every domain error.
public let soukErrorTrailer = "souk-error-bin"

extension RPCError {
    /// An error from a domain rule: the status, a message, and an `ErrorDetail` (reason, field,
    /// user message, retry time) in the `souk-error-bin` trailer. With a field, the message is
    /// prefixed with its path and a `google.rpc.BadRequest` names it too.
    public static func souk(
        _ code: StatusCode, _ reason: SoukV1.ErrorReason, _ message: String,
        field: String? = nil, retryTime: Timestamp? = nil
    ) -> RPCError {
        var trailers = Metadata()
        let detail = SoukV1.ErrorDetail(reason: reason, field: field ?? "", userMessage: message, retryTime: retryTime)
        trailers.add(soukErrorTrailer, bytes: detail.encoded())
        guard let field else { return RPCError(code, message, trailers: trailers) }
        return RPCError(
            code, "\(field): \(message)", fieldViolations: [FieldViolation(field: field, description: message)], trailers: trailers)
    }

    /// INVALID_ARGUMENT for one field; the message starts with the field path as the contract asks.
    public static func invalidField(_ field: String, _ problem: String, reason: SoukV1.ErrorReason = .fieldInvalid) -> RPCError {
        souk(.invalidArgument, reason, problem, field: field)
    }

    /// NOT_FOUND for a resource of the caller's marketplace (or one that lives in another).
    public static func notFound(_ what: String, _ id: String) -> RPCError {
        RPCError(.notFound, "\(what) \(id) not found")
    }

    /// ABORTED because the resource changed since the version the client read.
    public static func staleVersion(_ what: String, expected: UInt64, actual: UInt64) -> RPCError {
        souk(.aborted, .staleVersion, "\(what) is at version \(actual), not \(expected); read it again")
    }
}

/// Turns what a handler threw into the call's status: store errors become their canonical codes
/// (conflicts ABORTED, missing records NOT_FOUND, reused request ids and bad page tokens
/// INVALID_ARGUMENT, ...); an `RPCError` passes unchanged; anything else is INTERNAL and logged.
public func rpcError(from error: any Error, logger: Logger? = nil) -> any Error {
    if error is RPCError || error is CancellationError { return error }
    guard let error = error as? StoreError else {
        logger?.error("unexpected error", metadata: ["error": "\(error)"])
        return RPCError(.internalError, "internal error")
    }
    switch error {
    case .versionMismatch(let table, let id, let expected, let actual):
        return RPCError.staleVersion("\(singular(table)) \(id)", expected: expected, actual: actual)
    case .conflict:
        return RPCError.souk(.aborted, .unspecified, "the request collided with concurrent changes; try again")
    case .notFound(let table, let id):
        return RPCError.notFound(singular(table), id.description)
    case .alreadyExists, .uniqueViolation:
        return RPCError.souk(.alreadyExists, .duplicate, "a record with the same unique key already exists")
    case .idempotencyKeyReused:
        return RPCError.invalidField("request_id", "was already used with a different request", reason: .requestIDReused)
    case .invalidPageToken:
        return RPCError.invalidField("page_token", "is not a token from a previous page of this list with the same filters")
    case .eventsExpired(_, let oldest):
        return RPCError.souk(.outOfRange, .eventsExpired, "events before \(oldest) are no longer kept; read the state again and watch from 0")
    case .closed, .indexNotReady:
        return RPCError(.unavailable, "\(error)")
    case .rocksDB, .corruptRecord, .corruptValue, .encodingFailed, .unknownSchemaObject, .invalidSchema:
        logger?.error("store failure", metadata: ["error": "\(error)"])
        return RPCError(.internalError, "internal error")
    }
}

/// "accounts" → "account", for messages.
private func singular(_ table: String) -> String {
    table.hasSuffix("s") ? String(table.dropLast()) : table
}

extension RPCError {
    /// The `ErrorDetail` this error carries in `souk-error-bin`, if any.
    public var errorDetail: SoukV1.ErrorDetail? {
        trailers.binaryValues(soukErrorTrailer).first.flatMap { try? SoukV1.ErrorDetail(decoding: $0) }
    }
}
