import CProtobufC
import SoukProtoC

/// Swift types for `google.rpc`: the rich error model sent in `grpc-status-details-bin`.
public enum GoogleRPC {
    /// `google.rpc.Status`: a status code, a developer-facing message and typed details.
    public struct Status: Sendable, Hashable {
        /// A gRPC status code number.
        public var code: Int32
        public var message: String
        /// Typed details, for example a packed `BadRequest`.
        public var details: [GoogleProtobuf.AnyMessage]

        public init(code: Int32 = 0, message: String = "", details: [GoogleProtobuf.AnyMessage] = []) {
            self.code = code
            self.message = message
            self.details = details
        }
    }

    /// `google.rpc.BadRequest`: which fields of a request are wrong.
    public struct BadRequest: Sendable, Hashable {
        /// `google.rpc.BadRequest.FieldViolation`: one wrong field.
        public struct FieldViolation: Sendable, Hashable {
            /// The field's path, for example `items[2].quantity`.
            public var field: String
            /// What is wrong with it.
            public var description: String

            public init(field: String = "", description: String = "") {
                self.field = field
                self.description = description
            }
        }

        public var fieldViolations: [FieldViolation]

        public init(fieldViolations: [FieldViolation] = []) {
            self.fieldViolations = fieldViolations
        }
    }

    /// `google.rpc.RetryInfo`: how long a client should wait before retrying.
    public struct RetryInfo: Sendable, Hashable {
        public var retryDelay: Duration?

        public init(retryDelay: Duration? = nil) {
            self.retryDelay = retryDelay
        }
    }

    /// `google.rpc.ErrorInfo`: a machine-readable reason, its domain and details.
    public struct ErrorInfo: Sendable, Hashable {
        /// An UPPER_SNAKE_CASE constant, for example `ORDER_ALREADY_CANCELLED`.
        public var reason: String
        /// Who defines the reason, for example `souk.v1`.
        public var domain: String
        public var metadata: [String: String]

        public init(reason: String = "", domain: String = "", metadata: [String: String] = [:]) {
            self.reason = reason
            self.domain = domain
            self.metadata = metadata
        }
    }

    /// `google.rpc.LocalizedMessage`: an error message translated for the user.
    public struct LocalizedMessage: Sendable, Hashable {
        /// The BCP 47 language of `message`, for example `ar`.
        public var locale: String
        public var message: String

        public init(locale: String = "", message: String = "") {
            self.locale = locale
            self.message = message
        }
    }
}

extension GoogleRPC.Status: CProtoMessage {
    public static var protoName: String { "google.rpc.Status" }

    static func cInit(_ c: UnsafeMutablePointer<Google__Rpc__Status>) {
        google__rpc__status__init(c)
    }

    init(c: Google__Rpc__Status) throws {
        self.init(
            code: c.code,
            message: try Unpacked.string(c.message, "message"),
            details: try Unpacked.messages(c.n_details, c.details, "details")
        )
    }

    func fill(_ c: inout Google__Rpc__Status, _ arena: inout EncodingArena) {
        c.code = code
        c.message = arena.string(message)
        c.n_details = details.count
        c.details = arena.messages(details)
    }
}

extension GoogleRPC.BadRequest: CProtoMessage {
    public static var protoName: String { "google.rpc.BadRequest" }

    static func cInit(_ c: UnsafeMutablePointer<Google__Rpc__BadRequest>) {
        google__rpc__bad_request__init(c)
    }

    init(c: Google__Rpc__BadRequest) throws {
        self.init(fieldViolations: try Unpacked.messages(c.n_field_violations, c.field_violations, "field_violations"))
    }

    func fill(_ c: inout Google__Rpc__BadRequest, _ arena: inout EncodingArena) {
        c.n_field_violations = fieldViolations.count
        c.field_violations = arena.messages(fieldViolations)
    }
}

extension GoogleRPC.BadRequest.FieldViolation: CProtoMessage {
    public static var protoName: String { "google.rpc.BadRequest.FieldViolation" }

    static func cInit(_ c: UnsafeMutablePointer<Google__Rpc__BadRequest__FieldViolation>) {
        google__rpc__bad_request__field_violation__init(c)
    }

    init(c: Google__Rpc__BadRequest__FieldViolation) throws {
        self.init(field: try Unpacked.string(c.field, "field"), description: try Unpacked.string(c.description, "description"))
    }

    func fill(_ c: inout Google__Rpc__BadRequest__FieldViolation, _ arena: inout EncodingArena) {
        c.field = arena.string(field)
        c.description = arena.string(description)
    }
}

extension GoogleRPC.RetryInfo: CProtoMessage {
    public static var protoName: String { "google.rpc.RetryInfo" }

    static func cInit(_ c: UnsafeMutablePointer<Google__Rpc__RetryInfo>) {
        google__rpc__retry_info__init(c)
    }

    init(c: Google__Rpc__RetryInfo) throws {
        self.init(retryDelay: try Unpacked.duration(c.retry_delay, "retry_delay"))
    }

    func fill(_ c: inout Google__Rpc__RetryInfo, _ arena: inout EncodingArena) {
        c.retry_delay = arena.duration(retryDelay)
    }
}

extension Google__Rpc__ErrorInfo__MetadataEntry: MapEntryStruct {
    static func initialise(_ c: UnsafeMutablePointer<Self>) { google__rpc__error_info__metadata_entry__init(c) }
}

extension GoogleRPC.ErrorInfo: CProtoMessage {
    public static var protoName: String { "google.rpc.ErrorInfo" }

    static func cInit(_ c: UnsafeMutablePointer<Google__Rpc__ErrorInfo>) {
        google__rpc__error_info__init(c)
    }

    init(c: Google__Rpc__ErrorInfo) throws {
        self.init(
            reason: try Unpacked.string(c.reason, "reason"),
            domain: try Unpacked.string(c.domain, "domain"),
            metadata: try Unpacked.map(c.n_metadata, c.metadata, "metadata")
        )
    }

    func fill(_ c: inout Google__Rpc__ErrorInfo, _ arena: inout EncodingArena) {
        c.reason = arena.string(reason)
        c.domain = arena.string(domain)
        (c.n_metadata, c.metadata) = arena.map(metadata)
    }
}

extension GoogleRPC.LocalizedMessage: CProtoMessage {
    public static var protoName: String { "google.rpc.LocalizedMessage" }

    static func cInit(_ c: UnsafeMutablePointer<Google__Rpc__LocalizedMessage>) {
        google__rpc__localized_message__init(c)
    }

    init(c: Google__Rpc__LocalizedMessage) throws {
        self.init(locale: try Unpacked.string(c.locale, "locale"), message: try Unpacked.string(c.message, "message"))
    }

    func fill(_ c: inout Google__Rpc__LocalizedMessage, _ arena: inout EncodingArena) {
        c.locale = arena.string(locale)
        c.message = arena.string(message)
    }
}
