import SoukAccess
import SoukGRPC
import SoukMessages

/// Contract RPCs that no service implements yet answer UNIMPLEMENTED ("souk.v1.Orders/CancelOrder
/// is not implemented yet"), but only after authentication and authorization ran, so a caller
/// without the right role still learns UNAUTHENTICATED or PERMISSION_DENIED first.
public enum UnimplementedMethods {
    /// One service per contract service with methods missing from `implemented`; each handler
    /// has its method's call shape and throws from inside the interceptor chain.
    public static func services(rules: AccessRules, implemented: [any RPCService]) -> [any RPCService] {
        var present = Set<MethodDescriptor>()
        for service in implemented {
            for method in service.methods { present.insert(MethodDescriptor(service: service.serviceName, method: method.name)) }
        }
        var missing: [String: [RPCMethod]] = [:]
        var order: [String] = []
        for method in rules.methods where !present.contains(MethodDescriptor(service: method.service, method: method.name)) {
            if missing[method.service] == nil { order.append(method.service) }
            missing[method.service, default: []].append(Self.method(method))
        }
        return order.map { FallbackService(serviceName: $0, methods: missing[$0]!) }
    }

    /// The error every fallback handler throws.
    public static func error(_ method: MethodDescription) -> RPCError {
        RPCError.souk(.unimplemented, .notImplemented, "\(method.fullName) is not implemented yet")
    }

    /// A method with `method`'s call shape that answers UNIMPLEMENTED.
    static func method(_ method: MethodDescription) -> RPCMethod {
        let error = error(method)
        let handler: RPCHandler
        switch (method.clientStreaming, method.serverStreaming) {
        case (false, false): handler = .unary { _, _ in throw error }
        case (false, true): handler = .serverStreaming { _, _, _ in throw error }
        case (true, false): handler = .clientStreaming { _, _ in throw error }
        case (true, true): handler = .bidirectionalStreaming { _, _, _ in throw error }
        }
        return RPCMethod(name: method.name, handler: handler)
    }
}

/// The not-yet-implemented methods of one contract service.
struct FallbackService: RPCService {
    let serviceName: String
    let methods: [RPCMethod]
}
