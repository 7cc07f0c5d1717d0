import CProtobufC
import SoukProtoC

/// Swift types for `grpc.testing`, the messages of the gRPC interoperability test services.
public enum GRPCTesting {
    /// `grpc.testing.Empty`.
    public struct Empty: Sendable, Hashable {
        public init() {}
    }

    /// `grpc.testing.BoolValue`: a bool whose absence means "not asked".
    public struct BoolValue: Sendable, Hashable {
        public var value: Bool

        public init(value: Bool = false) {
            self.value = value
        }
    }

    /// `grpc.testing.PayloadType`.
    public enum PayloadType: ProtoEnum {
        case compressable
        case unrecognized(Int32)

        public init(rawValue: Int32) {
            self = rawValue == 0 ? .compressable : .unrecognized(rawValue)
        }

        public var rawValue: Int32 {
            switch self {
            case .compressable: 0
            case .unrecognized(let value): value
            }
        }
    }

    /// `grpc.testing.GrpclbRouteType`.
    public enum GrpclbRouteType: ProtoEnum {
        case unknown
        case fallback
        case backend
        case unrecognized(Int32)

        public init(rawValue: Int32) {
            switch rawValue {
            case 0: self = .unknown
            case 1: self = .fallback
            case 2: self = .backend
            default: self = .unrecognized(rawValue)
            }
        }

        public var rawValue: Int32 {
            switch self {
            case .unknown: 0
            case .fallback: 1
            case .backend: 2
            case .unrecognized(let value): value
            }
        }
    }

    /// `grpc.testing.Payload`: a block of bytes that makes a message larger.
    public struct Payload: Sendable, Hashable {
        public var type: PayloadType
        public var body: [UInt8]

        public init(type: PayloadType = .compressable, body: [UInt8] = []) {
            self.type = type
            self.body = body
        }
    }

    /// `grpc.testing.EchoStatus`: the status a client asks the server to end the call with.
    public struct EchoStatus: Sendable, Hashable {
        public var code: Int32
        public var message: String

        public init(code: Int32 = 0, message: String = "") {
            self.code = code
            self.message = message
        }
    }

    /// `grpc.testing.SimpleRequest`: the request of UnaryCall.
    public struct SimpleRequest: Sendable, Hashable {
        public var responseType: PayloadType
        public var responseSize: Int32
        public var payload: Payload?
        public var fillUsername: Bool
        public var fillOauthScope: Bool
        public var responseCompressed: BoolValue?
        public var responseStatus: EchoStatus?
        public var expectCompressed: BoolValue?
        public var fillServerID: Bool
        public var fillGrpclbRouteType: Bool

        public init(
            responseType: PayloadType = .compressable, responseSize: Int32 = 0, payload: Payload? = nil,
            fillUsername: Bool = false, fillOauthScope: Bool = false, responseCompressed: BoolValue? = nil,
            responseStatus: EchoStatus? = nil, expectCompressed: BoolValue? = nil,
            fillServerID: Bool = false, fillGrpclbRouteType: Bool = false
        ) {
            self.responseType = responseType
            self.responseSize = responseSize
            self.payload = payload
            self.fillUsername = fillUsername
            self.fillOauthScope = fillOauthScope
            self.responseCompressed = responseCompressed
            self.responseStatus = responseStatus
            self.expectCompressed = expectCompressed
            self.fillServerID = fillServerID
            self.fillGrpclbRouteType = fillGrpclbRouteType
        }
    }

    /// `grpc.testing.SimpleResponse`: the response of UnaryCall.
    public struct SimpleResponse: Sendable, Hashable {
        public var payload: Payload?
        public var username: String
        public var oauthScope: String
        public var serverID: String
        public var grpclbRouteType: GrpclbRouteType
        public var hostname: String

        public init(
            payload: Payload? = nil, username: String = "", oauthScope: String = "", serverID: String = "",
            grpclbRouteType: GrpclbRouteType = .unknown, hostname: String = ""
        ) {
            self.payload = payload
            self.username = username
            self.oauthScope = oauthScope
            self.serverID = serverID
            self.grpclbRouteType = grpclbRouteType
            self.hostname = hostname
        }
    }

    /// `grpc.testing.StreamingInputCallRequest`: one request of StreamingInputCall.
    public struct StreamingInputCallRequest: Sendable, Hashable {
        public var payload: Payload?
        public var expectCompressed: BoolValue?

        public init(payload: Payload? = nil, expectCompressed: BoolValue? = nil) {
            self.payload = payload
            self.expectCompressed = expectCompressed
        }
    }

    /// `grpc.testing.StreamingInputCallResponse`: the response of StreamingInputCall.
    public struct StreamingInputCallResponse: Sendable, Hashable {
        public var aggregatedPayloadSize: Int32

        public init(aggregatedPayloadSize: Int32 = 0) {
            self.aggregatedPayloadSize = aggregatedPayloadSize
        }
    }

    /// `grpc.testing.ResponseParameters`: one response a streaming call asks for.
    public struct ResponseParameters: Sendable, Hashable {
        public var size: Int32
        public var intervalUs: Int32
        public var compressed: BoolValue?

        public init(size: Int32 = 0, intervalUs: Int32 = 0, compressed: BoolValue? = nil) {
            self.size = size
            self.intervalUs = intervalUs
            self.compressed = compressed
        }
    }

    /// `grpc.testing.StreamingOutputCallRequest`: the request of the server- and bidirectional-streaming calls.
    public struct StreamingOutputCallRequest: Sendable, Hashable {
        public var responseType: PayloadType
        public var responseParameters: [ResponseParameters]
        public var payload: Payload?
        public var responseStatus: EchoStatus?

        public init(
            responseType: PayloadType = .compressable, responseParameters: [ResponseParameters] = [],
            payload: Payload? = nil, responseStatus: EchoStatus? = nil
        ) {
            self.responseType = responseType
            self.responseParameters = responseParameters
            self.payload = payload
            self.responseStatus = responseStatus
        }
    }

    /// `grpc.testing.StreamingOutputCallResponse`: one response of the streaming calls.
    public struct StreamingOutputCallResponse: Sendable, Hashable {
        public var payload: Payload?

        public init(payload: Payload? = nil) {
            self.payload = payload
        }
    }
}

// MARK: - protobuf-c mirrors

extension GRPCTesting.Empty: CProtoMessage {
    public static var protoName: String { "grpc.testing.Empty" }
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Testing__Empty>) { grpc__testing__empty__init(c) }
    init(c: Grpc__Testing__Empty) throws {}
    func fill(_ c: inout Grpc__Testing__Empty, _ arena: inout EncodingArena) {}
}

extension GRPCTesting.BoolValue: CProtoMessage {
    public static var protoName: String { "grpc.testing.BoolValue" }
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Testing__BoolValue>) { grpc__testing__bool_value__init(c) }

    init(c: Grpc__Testing__BoolValue) throws {
        value = c.value != 0
    }

    func fill(_ c: inout Grpc__Testing__BoolValue, _ arena: inout EncodingArena) {
        c.value = value ? 1 : 0
    }
}

extension GRPCTesting.Payload: CProtoMessage {
    public static var protoName: String { "grpc.testing.Payload" }
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Testing__Payload>) { grpc__testing__payload__init(c) }

    init(c: Grpc__Testing__Payload) throws {
        type = .init(cValue: c.type)
        body = Unpacked.bytes(c.body)
    }

    func fill(_ c: inout Grpc__Testing__Payload, _ arena: inout EncodingArena) {
        c.type = type.cValue()
        c.body = arena.bytes(body)
    }
}

extension GRPCTesting.EchoStatus: CProtoMessage {
    public static var protoName: String { "grpc.testing.EchoStatus" }
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Testing__EchoStatus>) { grpc__testing__echo_status__init(c) }

    init(c: Grpc__Testing__EchoStatus) throws {
        code = c.code
        message = try Unpacked.string(c.message, "message")
    }

    func fill(_ c: inout Grpc__Testing__EchoStatus, _ arena: inout EncodingArena) {
        c.code = code
        c.message = arena.string(message)
    }
}

extension GRPCTesting.SimpleRequest: CProtoMessage {
    public static var protoName: String { "grpc.testing.SimpleRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Testing__SimpleRequest>) { grpc__testing__simple_request__init(c) }

    init(c: Grpc__Testing__SimpleRequest) throws {
        responseType = .init(cValue: c.response_type)
        responseSize = c.response_size
        payload = try Unpacked.message(c.payload, "payload")
        fillUsername = c.fill_username != 0
        fillOauthScope = c.fill_oauth_scope != 0
        responseCompressed = try Unpacked.message(c.response_compressed, "response_compressed")
        responseStatus = try Unpacked.message(c.response_status, "response_status")
        expectCompressed = try Unpacked.message(c.expect_compressed, "expect_compressed")
        fillServerID = c.fill_server_id != 0
        fillGrpclbRouteType = c.fill_grpclb_route_type != 0
    }

    func fill(_ c: inout Grpc__Testing__SimpleRequest, _ arena: inout EncodingArena) {
        c.response_type = responseType.cValue()
        c.response_size = responseSize
        c.payload = arena.message(payload)
        c.fill_username = fillUsername ? 1 : 0
        c.fill_oauth_scope = fillOauthScope ? 1 : 0
        c.response_compressed = arena.message(responseCompressed)
        c.response_status = arena.message(responseStatus)
        c.expect_compressed = arena.message(expectCompressed)
        c.fill_server_id = fillServerID ? 1 : 0
        c.fill_grpclb_route_type = fillGrpclbRouteType ? 1 : 0
    }
}

extension GRPCTesting.SimpleResponse: CProtoMessage {
    public static var protoName: String { "grpc.testing.SimpleResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Testing__SimpleResponse>) { grpc__testing__simple_response__init(c) }

    init(c: Grpc__Testing__SimpleResponse) throws {
        payload = try Unpacked.message(c.payload, "payload")
        username = try Unpacked.string(c.username, "username")
        oauthScope = try Unpacked.string(c.oauth_scope, "oauth_scope")
        serverID = try Unpacked.string(c.server_id, "server_id")
        grpclbRouteType = .init(cValue: c.grpclb_route_type)
        hostname = try Unpacked.string(c.hostname, "hostname")
    }

    func fill(_ c: inout Grpc__Testing__SimpleResponse, _ arena: inout EncodingArena) {
        c.payload = arena.message(payload)
        c.username = arena.string(username)
        c.oauth_scope = arena.string(oauthScope)
        c.server_id = arena.string(serverID)
        c.grpclb_route_type = grpclbRouteType.cValue()
        c.hostname = arena.string(hostname)
    }
}

extension GRPCTesting.StreamingInputCallRequest: CProtoMessage {
    public static var protoName: String { "grpc.testing.StreamingInputCallRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Testing__StreamingInputCallRequest>) {
        grpc__testing__streaming_input_call_request__init(c)
    }

    init(c: Grpc__Testing__StreamingInputCallRequest) throws {
        payload = try Unpacked.message(c.payload, "payload")
        expectCompressed = try Unpacked.message(c.expect_compressed, "expect_compressed")
    }

    func fill(_ c: inout Grpc__Testing__StreamingInputCallRequest, _ arena: inout EncodingArena) {
        c.payload = arena.message(payload)
        c.expect_compressed = arena.message(expectCompressed)
    }
}

extension GRPCTesting.StreamingInputCallResponse: CProtoMessage {
    public static var protoName: String { "grpc.testing.StreamingInputCallResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Testing__StreamingInputCallResponse>) {
        grpc__testing__streaming_input_call_response__init(c)
    }

    init(c: Grpc__Testing__StreamingInputCallResponse) throws {
        aggregatedPayloadSize = c.aggregated_payload_size
    }

    func fill(_ c: inout Grpc__Testing__StreamingInputCallResponse, _ arena: inout EncodingArena) {
        c.aggregated_payload_size = aggregatedPayloadSize
    }
}

extension GRPCTesting.ResponseParameters: CProtoMessage {
    public static var protoName: String { "grpc.testing.ResponseParameters" }
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Testing__ResponseParameters>) {
        grpc__testing__response_parameters__init(c)
    }

    init(c: Grpc__Testing__ResponseParameters) throws {
        size = c.size
        intervalUs = c.interval_us
        compressed = try Unpacked.message(c.compressed, "compressed")
    }

    func fill(_ c: inout Grpc__Testing__ResponseParameters, _ arena: inout EncodingArena) {
        c.size = size
        c.interval_us = intervalUs
        c.compressed = arena.message(compressed)
    }
}

extension GRPCTesting.StreamingOutputCallRequest: CProtoMessage {
    public static var protoName: String { "grpc.testing.StreamingOutputCallRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Testing__StreamingOutputCallRequest>) {
        grpc__testing__streaming_output_call_request__init(c)
    }

    init(c: Grpc__Testing__StreamingOutputCallRequest) throws {
        responseType = .init(cValue: c.response_type)
        responseParameters = try Unpacked.messages(c.n_response_parameters, c.response_parameters, "response_parameters")
        payload = try Unpacked.message(c.payload, "payload")
        responseStatus = try Unpacked.message(c.response_status, "response_status")
    }

    func fill(_ c: inout Grpc__Testing__StreamingOutputCallRequest, _ arena: inout EncodingArena) {
        c.response_type = responseType.cValue()
        c.n_response_parameters = responseParameters.count
        c.response_parameters = arena.messages(responseParameters)
        c.payload = arena.message(payload)
        c.response_status = arena.message(responseStatus)
    }
}

extension GRPCTesting.StreamingOutputCallResponse: CProtoMessage {
    public static var protoName: String { "grpc.testing.StreamingOutputCallResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Grpc__Testing__StreamingOutputCallResponse>) {
        grpc__testing__streaming_output_call_response__init(c)
    }

    init(c: Grpc__Testing__StreamingOutputCallResponse) throws {
        payload = try Unpacked.message(c.payload, "payload")
    }

    func fill(_ c: inout Grpc__Testing__StreamingOutputCallResponse, _ arena: inout EncodingArena) {
        c.payload = arena.message(payload)
    }
}
