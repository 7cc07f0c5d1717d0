import CProtobufC
import SoukProtoC

/// Swift types for `grpc.health.v1`, the standard health checking protocol.
public enum GRPCHealth {
    /// `grpc.health.v1.HealthCheckRequest`.
    public struct HealthCheckRequest: Sendable, Hashable {
        /// The service asked about; "" means the whole server.
        public var service: String

        public init(service: String = "") {
            self.service = service
        }
    }

    /// `grpc.health.v1.HealthCheckResponse`.
    public struct HealthCheckResponse: Sendable, Hashable {
        /// `grpc.health.v1.HealthCheckResponse.ServingStatus`.
        public enum ServingStatus: ProtoEnum {
            case unknown
            case serving
            case notServing
            /// Sent by Watch only, for a service the server does not know.
            case serviceUnknown
            case unrecognized(Int32)

            public init(rawValue: Int32) {
                switch rawValue {
                case 0: self = .unknown
                case 1: self = .serving
                case 2: self = .notServing
                case 3: self = .serviceUnknown
                default: self = .unrecognized(rawValue)
                }
            }

            public var rawValue: Int32 {
                switch self {
                case .unknown: 0
                case .serving: 1
                case .notServing: 2
                case .serviceUnknown: 3
                case .unrecognized(let value): value
                }
            }
        }

        public var status: ServingStatus

        public init(status: ServingStatus = .unknown) {
            self.status = status
        }
    }
}

extension GRPCHealth.HealthCheckRequest: CProtoMessage {
    public static var protoName: String { "grpc.health.v1.HealthCheckRequest" }

    static func cInit(_ c: UnsafeMutablePointer<Grpc__Health__V1__HealthCheckRequest>) {
        grpc__health__v1__health_check_request__init(c)
    }

    init(c: Grpc__Health__V1__HealthCheckRequest) throws {
        service = try Unpacked.string(c.service, "service")
    }

    func fill(_ c: inout Grpc__Health__V1__HealthCheckRequest, _ arena: inout EncodingArena) {
        c.service = arena.string(service)
    }
}

extension GRPCHealth.HealthCheckResponse: CProtoMessage {
    public static var protoName: String { "grpc.health.v1.HealthCheckResponse" }

    static func cInit(_ c: UnsafeMutablePointer<Grpc__Health__V1__HealthCheckResponse>) {
        grpc__health__v1__health_check_response__init(c)
    }

    init(c: Grpc__Health__V1__HealthCheckResponse) throws {
        status = .init(cValue: c.status)
    }

    func fill(_ c: inout Grpc__Health__V1__HealthCheckResponse, _ arena: inout EncodingArena) {
        c.status = status.cValue()
    }
}
