import SoukGRPC
import SoukMessages

/// The typed declarations of the `souk.v1` services, generated from the contract by
/// `scripts/generate` into `Sources/SoukKit/Contract` (one struct per service).
public enum SoukV1Services {}

/// A contract service declared with one value per RPC (`UnaryRPC`, `ServerStreamingRPC`, …).
///
/// The generated declarations conform: their initializer takes every RPC of the service, each
/// typed with its request, response and call shape, so a handler of the wrong type or a
/// forgotten RPC does not compile. An RPC not served yet is given as `.unimplemented`.
public protocol ContractService: Sendable {
    /// The fully-qualified name, for example `souk.v1.Orders`.
    static var serviceName: String { get }

    /// The RPC methods, each passing the builder's checks before its handler runs.
    func methods(_ build: SoukMethodBuilder) -> [RPCMethod]
}

extension ContractService {
    /// The service as the router serves it. Stops the server at startup, naming the RPC, when a
    /// handler's ownership rule does not match its Access line. A contract service that several
    /// domains serve parts of is assembled from their declarations by `ServiceAssembly`.
    public func rpcService(_ kit: ServiceKit) -> any RPCService {
        DeclaredService(declaration: self, kit: kit, methods: methods(kit.builder(Self.serviceName)))
    }
}

/// A domain's declaration of a contract service, built alone, and kept to be assembled with
/// other domains' declarations of the same service (`ServiceAssembly`).
struct DeclaredService: RPCService {
    let declaration: any ContractService
    let kit: ServiceKit
    let methods: [RPCMethod]

    var serviceName: String { type(of: declaration).serviceName }
}

extension ServiceKit {
    /// A method builder for `service`, building what it is given (or, with `routes`, assembling
    /// what several declarations recorded there).
    func builder(_ service: String, routes: ServiceRoutes? = nil) -> SoukMethodBuilder {
        var build = SoukMethodBuilder(service: service, rules: rules, marketplaces: marketplaces, logger: logger, streams: streams)
        build.routes = routes
        return build
    }
}

/// A service assembled from built methods.
struct BuiltService: RPCService {
    let serviceName: String
    let methods: [RPCMethod]
}

/// The checks a handler declares next to its body: the marketplace scope, the verticals it
/// serves, and who owns what the request names (required when the Access line has `(owner)`).
public struct MethodOptions<Request>: Sendable {
    var scope: MarketplaceScope
    var verticals: Set<SoukV1.Vertical>?
    var owner: Ownership<Request>?
}

/// How a unary RPC whose request names its marketplace is served.
public struct UnaryRPC<Request: MarketplaceScopedRequest, Response: ProtoMessage>: Sendable {
    typealias Body = nonisolated(nonsending) @Sendable (Request, SoukCall) async throws -> Response
    let served: (options: MethodOptions<Request>, body: Body)?

    /// Served by `body` after the checks.
    public static func handler(
        scope: MarketplaceScope = .marketplace, verticals: Set<SoukV1.Vertical>? = nil, owner: Ownership<Request>? = nil,
        _ body: nonisolated(nonsending) @escaping @Sendable (Request, SoukCall) async throws -> Response
    ) -> Self {
        Self(served: (MethodOptions(scope: scope, verticals: verticals, owner: owner), body))
    }

    /// Not served yet: answers UNIMPLEMENTED after authentication and authorization.
    public static var unimplemented: Self { Self(served: nil) }
}

/// How a unary RPC that acts on the platform (its request names no marketplace) is served.
public struct PlatformUnaryRPC<Request: ProtoMessage, Response: ProtoMessage>: Sendable {
    typealias Body = nonisolated(nonsending) @Sendable (Request, SoukCall) async throws -> Response
    let served: Body?

    /// Served by `body` after the Access line's check.
    public static func handler(_ body: nonisolated(nonsending) @escaping @Sendable (Request, SoukCall) async throws -> Response) -> Self {
        Self(served: body)
    }

    /// Not served yet: answers UNIMPLEMENTED after authentication and authorization.
    public static var unimplemented: Self { Self(served: nil) }
}

/// How a server-streaming RPC is served.
public struct ServerStreamingRPC<Request: MarketplaceScopedRequest, Response: ProtoMessage>: Sendable {
    typealias Body = nonisolated(nonsending) @Sendable (Request, RPCWriter<Response>, SoukCall) async throws -> Void
    let served: (options: MethodOptions<Request>, body: Body)?

    /// Served by `body`, which writes the responses, after the checks.
    public static func handler(
        scope: MarketplaceScope = .marketplace, verticals: Set<SoukV1.Vertical>? = nil, owner: Ownership<Request>? = nil,
        _ body: nonisolated(nonsending) @escaping @Sendable (Request, RPCWriter<Response>, SoukCall) async throws -> Void
    ) -> Self {
        Self(served: (MethodOptions(scope: scope, verticals: verticals, owner: owner), body))
    }

    /// Not served yet: answers UNIMPLEMENTED after authentication and authorization.
    public static var unimplemented: Self { Self(served: nil) }
}

/// How a client-streaming RPC is served. The checks run on the first request; every later
/// request must name the same marketplace.
public struct ClientStreamingRPC<Request: MarketplaceScopedRequest, Response: ProtoMessage>: Sendable {
    typealias Body = nonisolated(nonsending) @Sendable (RPCReader<Request>, SoukCall) async throws -> Response
    let served: (options: MethodOptions<Request>, body: Body)?

    /// Served by `body`, which reads the requests (the first one included), after the checks.
    public static func handler(
        scope: MarketplaceScope = .marketplace, verticals: Set<SoukV1.Vertical>? = nil, owner: Ownership<Request>? = nil,
        _ body: nonisolated(nonsending) @escaping @Sendable (RPCReader<Request>, SoukCall) async throws -> Response
    ) -> Self {
        Self(served: (MethodOptions(scope: scope, verticals: verticals, owner: owner), body))
    }

    /// Not served yet: answers UNIMPLEMENTED after authentication and authorization.
    public static var unimplemented: Self { Self(served: nil) }
}

/// How a bidirectional-streaming RPC is served. The checks run on the first request; every
/// later request must name the same marketplace.
public struct BidirectionalStreamingRPC<Request: MarketplaceScopedRequest, Response: ProtoMessage>: Sendable {
    typealias Body = nonisolated(nonsending) @Sendable (RPCReader<Request>, RPCWriter<Response>, SoukCall) async throws -> Void
    let served: (options: MethodOptions<Request>, body: Body)?

    /// Served by `body`, which reads the requests and writes the responses, after the checks.
    public static func handler(
        scope: MarketplaceScope = .marketplace, verticals: Set<SoukV1.Vertical>? = nil, owner: Ownership<Request>? = nil,
        _ body: nonisolated(nonsending) @escaping @Sendable (RPCReader<Request>, RPCWriter<Response>, SoukCall) async throws -> Void
    ) -> Self {
        Self(served: (MethodOptions(scope: scope, verticals: verticals, owner: owner), body))
    }

    /// Not served yet: answers UNIMPLEMENTED after authentication and authorization.
    public static var unimplemented: Self { Self(served: nil) }
}
