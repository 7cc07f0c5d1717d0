import SoukMessages

/// The canonical gRPC status codes.
public enum StatusCode: Int, Sendable, CaseIterable, CustomStringConvertible {
    case ok = 0
    case cancelled = 1
    case unknown = 2
    case invalidArgument = 3
    case deadlineExceeded = 4
    case notFound = 5
    case alreadyExists = 6
    case permissionDenied = 7
    case resourceExhausted = 8
    case failedPrecondition = 9
    case aborted = 10
    case outOfRange = 11
    case unimplemented = 12
    case internalError = 13
    case unavailable = 14
    case dataLoss = 15
    case unauthenticated = 16

    /// The upper-case name used in logs and metrics, for example `INVALID_ARGUMENT`.
    public var description: String {
        switch self {
        case .ok: "OK"
        case .cancelled: "CANCELLED"
        case .unknown: "UNKNOWN"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .notFound: "NOT_FOUND"
        case .alreadyExists: "ALREADY_EXISTS"
        case .permissionDenied: "PERMISSION_DENIED"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .aborted: "ABORTED"
        case .outOfRange: "OUT_OF_RANGE"
        case .unimplemented: "UNIMPLEMENTED"
        case .internalError: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .dataLoss: "DATA_LOSS"
        case .unauthenticated: "UNAUTHENTICATED"
        }
    }
}

/// One field's problem in a request, sent to the client as a `google.rpc.BadRequest` field violation.
public struct FieldViolation: Sendable, Equatable {
    /// The field's path, for example `email` or `items[2].quantity`.
    public var field: String
    /// What is wrong with it, in words a client can show.
    public var description: String

    public init(field: String, description: String) {
        self.field = field
        self.description = description
    }
}

/// An error that ends a call with a gRPC status. Any other error a handler throws ends it as INTERNAL.
///
/// Besides the code and message, an error carries the rich details of Google's error model
/// (AIP-193), sent as a `google.rpc.Status` in `grpc-status-details-bin`.
///
/// Its fields live behind one reference, copied when a shared error is changed: every call's
/// state holds an `RPCError?`, and the fields inline (136 bytes, five references) were copied
/// byte by byte and retained field by field at each step of every call, failed or not.
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The fields. Never changed while shared (`fields` copies it first), so safe to send.
    private final class Fields: @unchecked Sendable {
        var code: StatusCode
        var message: String
        var errorInfo: GoogleRPC.ErrorInfo?
        var fieldViolations: [FieldViolation]
        var retryDelay: Duration?
        var localizedMessage: GoogleRPC.LocalizedMessage?
        var trailers: Metadata

        init(
            code: StatusCode, message: String, errorInfo: GoogleRPC.ErrorInfo?, fieldViolations: [FieldViolation],
            retryDelay: Duration?, localizedMessage: GoogleRPC.LocalizedMessage?, trailers: Metadata
        ) {
            self.code = code
            self.message = message
            self.errorInfo = errorInfo
            self.fieldViolations = fieldViolations
            self.retryDelay = retryDelay
            self.localizedMessage = localizedMessage
            self.trailers = trailers
        }

        func copy() -> Fields {
            Fields(
                code: code, message: message, errorInfo: errorInfo, fieldViolations: fieldViolations, retryDelay: retryDelay,
                localizedMessage: localizedMessage, trailers: trailers)
        }
    }

    private var storage: Fields

    /// The fields, for a change: copied first when another error shares them.
    private var fields: Fields {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    public var code: StatusCode {
        get { storage.code }
        set { fields.code = newValue }
    }
    /// For developers: logged and sent as `grpc-message`. Users get `localizedMessage`.
    public var message: String {
        get { storage.message }
        set { fields.message = newValue }
    }
    /// Why the call failed, as a reason constant of a domain: a program branches on it.
    public var errorInfo: GoogleRPC.ErrorInfo? {
        get { storage.errorInfo }
        set { fields.errorInfo = newValue }
    }
    /// Field violations, sent as a `google.rpc.BadRequest` so a client can show which field is wrong.
    public var fieldViolations: [FieldViolation] {
        get { storage.fieldViolations }
        set { fields.fieldViolations = newValue }
    }
    /// How long to wait before retrying, sent as a `google.rpc.RetryInfo`.
    public var retryDelay: Duration? {
        get { storage.retryDelay }
        set { fields.retryDelay = newValue }
    }
    /// The error in words for the user, in their language.
    public var localizedMessage: GoogleRPC.LocalizedMessage? {
        get { storage.localizedMessage }
        set { fields.localizedMessage = newValue }
    }
    /// Extra trailing metadata to send with the status.
    public var trailers: Metadata {
        get { storage.trailers }
        set { fields.trailers = newValue }
    }

    public init(
        _ code: StatusCode, _ message: String, errorInfo: GoogleRPC.ErrorInfo? = nil, fieldViolations: [FieldViolation] = [],
        retryDelay: Duration? = nil, localizedMessage: GoogleRPC.LocalizedMessage? = nil, trailers: Metadata = Metadata()
    ) {
        storage = Fields(
            code: code, message: message, errorInfo: errorInfo, fieldViolations: fieldViolations, retryDelay: retryDelay,
            localizedMessage: localizedMessage, trailers: trailers)
    }

    public static func == (lhs: RPCError, rhs: RPCError) -> Bool {
        let (a, b) = (lhs.storage, rhs.storage)
        return a === b
            || (a.code == b.code && a.message == b.message && a.errorInfo == b.errorInfo && a.fieldViolations == b.fieldViolations
                && a.retryDelay == b.retryDelay && a.localizedMessage == b.localizedMessage && a.trailers == b.trailers)
    }

    /// An INVALID_ARGUMENT error naming the offending field.
    public static func invalidArgument(field: String, _ description: String) -> RPCError {
        RPCError(.invalidArgument, "\(field): \(description)", fieldViolations: [FieldViolation(field: field, description: description)])
    }

    /// The `google.rpc.Status` sent in `grpc-status-details-bin`: the code, the message and the
    /// details in the order ErrorInfo, BadRequest, RetryInfo, LocalizedMessage. Nil when the
    /// error carries no details.
    public var statusDetails: GoogleRPC.Status? {
        var details: [GoogleProtobuf.AnyMessage] = []
        if let errorInfo { details.append(GoogleProtobuf.AnyMessage(packing: errorInfo)) }
        if !fieldViolations.isEmpty {
            let violations = fieldViolations.map { GoogleRPC.BadRequest.FieldViolation(field: $0.field, description: $0.description) }
            details.append(GoogleProtobuf.AnyMessage(packing: GoogleRPC.BadRequest(fieldViolations: violations)))
        }
        if let retryDelay { details.append(GoogleProtobuf.AnyMessage(packing: GoogleRPC.RetryInfo(retryDelay: retryDelay))) }
        if let localizedMessage { details.append(GoogleProtobuf.AnyMessage(packing: localizedMessage)) }
        guard !details.isEmpty else { return nil }
        return GoogleRPC.Status(code: Int32(code.rawValue), message: message, details: details)
    }

    public var description: String { "\(code): \(message)" }
}

/// Completes the error status of every call just before it is sent, so that what a server's
/// clients expect on all errors (a reason for errors raised without one, a message in the
/// caller's language) is added in one place rather than at each throw. Runs on the event loop
/// once per failed call, after the interceptors ended: it must not block.
public protocol ErrorStatusCompleter: Sendable {
    func complete(_ error: inout RPCError, context: ServerContext)
}
