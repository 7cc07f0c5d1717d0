import SoukGRPC
import SoukMessages
import Synchronization

/// Contract services that several domains serve parts of (the shops and food delivery both serve
/// `souk.v1.Orders`; payments and the orders' cash on delivery both serve `souk.v1.Payments`):
/// each domain declares the whole service, its RPCs with handlers and the others
/// `.unimplemented`, and the server assembles one service per name from the declarations.
///
/// An RPC served by one declaration is built as declared. An RPC served by several is routed by
/// the vertical of the marketplace its request names: each declaration serves it for its own
/// `verticals:` (the sets must not overlap), and at most one serves it for every other vertical
/// (no `verticals:`). Anything else stops the server at startup, naming the RPC.
public enum ServiceAssembly {
    /// `services` with every group of declarations of one contract service assembled into one
    /// service; other services pass unchanged.
    public static func assemble(_ services: [any RPCService]) -> [any RPCService] {
        var order: [String] = []
        var declared: [String: [DeclaredService]] = [:]
        var assembled: [any RPCService] = []
        for service in services {
            guard let declaration = service as? DeclaredService else {
                assembled.append(service)
                continue
            }
            if declared[declaration.serviceName] == nil { order.append(declaration.serviceName) }
            declared[declaration.serviceName, default: []].append(declaration)
        }
        for name in order {
            let group = declared[name]!
            guard group.count > 1 else {
                assembled.append(group[0])
                continue
            }
            let routes = ServiceRoutes(service: name)
            for declaration in group { _ = declaration.declaration.methods(declaration.kit.builder(name, routes: routes)) }
            routes.finishRecording()
            let first = group[0]
            assembled.append(BuiltService(serviceName: name, methods: first.declaration.methods(first.kit.builder(name, routes: routes))))
        }
        return assembled
    }
}

/// The served RPCs of several declarations of one contract service: recorded from each, then
/// merged per RPC when the service is built.
final class ServiceRoutes: Sendable {
    let service: String
    private let recorded = Mutex<[String: [any Sendable]]>([:])
    private let recording = Atomic<Bool>(true)

    init(service: String) {
        self.service = service
    }

    func finishRecording() {
        recording.store(false, ordering: .sequentiallyConsistent)
    }

    /// While recording: keeps `rpc` when it is served, and answers `.unimplemented`. Then: the
    /// RPC `name` as every declaration together serves it.
    func route<RPC: RoutableRPC>(_ name: String, _ rpc: RPC) -> RPC {
        if recording.load(ordering: .sequentiallyConsistent) {
            if rpc.isServed { recorded.withLock { $0[name, default: []].append(rpc) } }
            return RPC.unserved
        }
        let routes = recorded.withLock { $0[name] ?? [] }.map { $0 as! RPC }
        switch routes.count {
        case 0: return RPC.unserved
        case 1: return routes[0]
        default: return RPC.merging(routes, name: "\(service)/\(name)")
        }
    }
}

/// An RPC value of a generated declaration, as `ServiceRoutes` records and merges it.
protocol RoutableRPC: Sendable {
    var isServed: Bool { get }
    static var unserved: Self { get }
    /// One RPC serving each vertical through the route declared for it. Stops the server when
    /// the routes overlap.
    static func merging(_ routes: [Self], name: String) -> Self
}

/// The options of several routes of one RPC merged, and which route serves a call.
struct VerticalRoutes<Request, Body: Sendable>: Sendable {
    let options: MethodOptions<Request>
    private let byVertical: [SoukV1.Vertical: Body]
    private let fallback: Body?

    init(_ routes: [(options: MethodOptions<Request>, body: Body)], name: String) {
        let scopes = Set(routes.map { "\($0.options.scope)" })
        precondition(scopes.count == 1, "\(name) is served by several domains with different marketplace scopes")
        var byVertical: [SoukV1.Vertical: Body] = [:]
        var owners: [SoukV1.Vertical: Ownership<Request>] = [:]
        var fallback: (options: MethodOptions<Request>, body: Body)?
        for route in routes {
            guard let verticals = route.options.verticals else {
                precondition(fallback == nil, "\(name) is served by several domains for every vertical")
                fallback = route
                continue
            }
            for vertical in verticals {
                precondition(byVertical[vertical] == nil, "\(name) is served by several domains in \(vertical.protoName) marketplaces")
                byVertical[vertical] = route.body
                owners[vertical] = route.options.owner
            }
        }
        let (served, ownerOf, fallbackOwner) = (Set(byVertical.keys), owners, fallback?.options.owner)
        let owner: Ownership<Request>? = routes.allSatisfy({ $0.options.owner == nil }) ? nil : Ownership { request, call, caller, roles in
            // The rule of the route serving the call; a route without one owns nothing.
            let rule: Ownership<Request>?
            if let vertical = call.marketplace?.vertical, served.contains(vertical) { rule = ownerOf[vertical] } else { rule = fallbackOwner }
            return try rule?.isOwner(request, call, caller, roles) ?? false
        }
        self.options = MethodOptions(
            scope: routes[0].options.scope, verticals: fallback == nil ? Set(byVertical.keys) : nil, owner: owner)
        self.byVertical = byVertical
        self.fallback = fallback?.body
    }

    /// The body serving `call`'s marketplace.
    func body(_ call: SoukCall) throws -> Body {
        if let vertical = call.marketplace?.vertical, let body = byVertical[vertical] { return body }
        if let fallback { return fallback }
        throw RPCError.souk(.failedPrecondition, .wrongVertical, "\(call.context.method) is not available here")
    }
}

extension UnaryRPC: RoutableRPC {
    var isServed: Bool { served != nil }
    static var unserved: Self { .unimplemented }
    static func merging(_ routes: [Self], name: String) -> Self {
        let merged = VerticalRoutes(routes.map { $0.served! }, name: name)
        return Self(served: (merged.options, { request, call in try await merged.body(call)(request, call) }))
    }
}

extension ServerStreamingRPC: RoutableRPC {
    var isServed: Bool { served != nil }
    static var unserved: Self { .unimplemented }
    static func merging(_ routes: [Self], name: String) -> Self {
        let merged = VerticalRoutes(routes.map { $0.served! }, name: name)
        return Self(served: (merged.options, { request, writer, call in try await merged.body(call)(request, writer, call) }))
    }
}

extension ClientStreamingRPC: RoutableRPC {
    var isServed: Bool { served != nil }
    static var unserved: Self { .unimplemented }
    static func merging(_ routes: [Self], name: String) -> Self {
        let merged = VerticalRoutes(routes.map { $0.served! }, name: name)
        return Self(served: (merged.options, { requests, call in try await merged.body(call)(requests, call) }))
    }
}

extension BidirectionalStreamingRPC: RoutableRPC {
    var isServed: Bool { served != nil }
    static var unserved: Self { .unimplemented }
    static func merging(_ routes: [Self], name: String) -> Self {
        let merged = VerticalRoutes(routes.map { $0.served! }, name: name)
        return Self(served: (merged.options, { requests, writer, call in try await merged.body(call)(requests, writer, call) }))
    }
}

extension PlatformUnaryRPC: RoutableRPC {
    var isServed: Bool { served != nil }
    static var unserved: Self { .unimplemented }
    static func merging(_ routes: [Self], name: String) -> Self {
        preconditionFailure("\(name) is served by several domains; a platform RPC has one")
    }
}
