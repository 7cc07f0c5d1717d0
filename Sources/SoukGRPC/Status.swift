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
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: StatusCode
    public var message: String
    /// Field violations, sent in `grpc-status-details-bin` so a client can show which field is wrong.
    public var fieldViolations: [FieldViolation]
    /// Extra trailing metadata to send with the status.
    public var trailers: Metadata

    public init(_ code: StatusCode, _ message: String, fieldViolations: [FieldViolation] = [], trailers: Metadata = Metadata()) {
        self.code = code
        self.message = message
        self.fieldViolations = fieldViolations
        self.trailers = trailers
    }

    /// An INVALID_ARGUMENT error naming the offending field.
    public static func invalidArgument(field: String, _ description: String) -> RPCError {
        RPCError(.invalidArgument, "\(field): \(description)", fieldViolations: [FieldViolation(field: field, description: description)])
    }

    public var description: String { "\(code): \(message)" }
}
