import Logging
import NIOCore
import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore
import Synchronization

/// Finds marketplaces for the scope check every contract call goes through.
public protocol MarketplaceDirectory: Sendable {
    /// The marketplace with this id, or nil. Runs on every marketplace-scoped call: keep it a
    /// cache or point read.
    func marketplace(_ id: RecordID) throws -> SoukV1.Marketplace?
}

/// Whether a request's `marketplace_id` may be empty.
public enum MarketplaceScope: Sendable {
    /// Required (the contract's rule).
    case marketplace
    /// May be empty for guests and platform accounts (operators, the push adapter), who then act
    /// on the platform (operator Login, an operator creating the push adapter,
    /// and the calls about one's own session an operator makes).
    case marketplaceOrPlatform
    /// The request names no marketplace (CreateMarketplace, ListMarketplaces): anyone the
    /// Access line admits acts on the platform.
    case platform
}

/// What a contract handler knows about its call once the builder's checks passed.
public struct SoukCall: Sendable {
    public let context: ServerContext
    /// The signed-in caller; nil for guests.
    public let caller: Caller?
    /// The marketplace the request names (it exists, matches the token, and is not archived
    /// unless the caller is an operator); nil for platform calls.
    public let marketplace: SoukV1.Marketplace?
    public let marketplaceID: RecordID?
    /// How the caller passed the Access line.
    public let decision: AccessDecision
    /// The method's Access line.
    public let rule: AccessRule

    public init(
        context: ServerContext, caller: Caller?, marketplace: SoukV1.Marketplace?, marketplaceID: RecordID?,
        decision: AccessDecision, rule: AccessRule
    ) {
        self.context = context
        self.caller = caller
        self.marketplace = marketplace
        self.marketplaceID = marketplaceID
        self.decision = decision
        self.rule = rule
    }

    /// The role the caller acts in, for the audit log: operator; else the owner role they
    /// passed with; else the most privileged allowed role they hold; unspecified for guests.
    public var actorRole: SoukV1.Role {
        guard let caller else { return .unspecified }
        if caller.isOperator { return .operator }
        let candidates: Set<SoukV1.Role>
        switch decision {
        case .allowedAsOwner(let roles): candidates = roles
        default: candidates = caller.activeRoles.intersection(rule.roles.union(rule.ownerRoles))
        }
        for role in [SoukV1.Role.admin, .provider, .courier, .customer, .pushAdapter] where candidates.contains(role) { return role }
        return caller.activeRoles.contains(.customer) ? .customer : .unspecified
    }

    /// The signed-in caller, or UNAUTHENTICATED for guests.
    public func requireCaller() throws -> Caller {
        guard let caller else { throw context[AuthenticationFailureKey.self] ?? signInRequired(context) }
        return caller
    }

    /// The checked marketplace; INVALID_ARGUMENT when the request named none.
    public func requireMarketplace() throws -> (id: RecordID, marketplace: SoukV1.Marketplace) {
        guard let marketplace, let marketplaceID else { throw RPCError.invalidField("marketplace_id", "is required") }
        return (marketplaceID, marketplace)
    }
}

/// Who owns what a request names, declared once per RPC whose Access line has `(owner)`.
/// Consulted only when the caller passed through an owner-qualified role.
public struct Ownership<Request>: Sendable {
    /// Whether `caller`, acting in one of `roles`, owns the resource `request` names. May read
    /// the store; throws NOT_FOUND when the resource does not exist.
    public let isOwner: @Sendable (_ request: Request, _ call: SoukCall, _ caller: Caller, _ roles: Set<SoukV1.Role>) throws -> Bool

    public init(_ isOwner: @escaping @Sendable (Request, SoukCall, Caller, Set<SoukV1.Role>) throws -> Bool) {
        self.isOwner = isOwner
    }

    /// The request acts on the caller's own account (it names no other): always the owner.
    public static var caller: Ownership { Ownership { _, _, _, _ in true } }

    /// The request names an account by id; empty means the caller's own.
    public static func account(_ accountID: @escaping @Sendable (Request) -> String) -> Ownership {
        Ownership { request, _, caller, _ in
            let text = accountID(request)
            return text.isEmpty || RecordID(text) == caller.accountID
        }
    }
}

/// Builds the methods of a contract service so that every call passes the same checks before
/// its body runs: the Access line (again, for callers that skipped the interceptors), the
/// marketplace scope (a token of one marketplace never acts in another: PERMISSION_DENIED;
/// unknown marketplace NOT_FOUND; archived FAILED_PRECONDITION; wrong vertical
/// FAILED_PRECONDITION), and the ownership rule declared with the method. Errors the body throws
/// are mapped to statuses by `rpcError(from:)`.
///
///     let build = SoukMethodBuilder(service: "souk.v1.Orders", rules: rules, marketplaces: identity.marketplaces, logger: logger)
///     var methods: [RPCMethod] {
///         [
///             // Access: customer (owner), provider (owner), admin, operator.
///             build.unary("CancelOrder", verticals: [.retail, .foodDelivery], owner: Ownership { request, call, caller, roles in
///                 let order = try orders.get(request.orderID, in: call)   // NOT_FOUND when missing
///                 return roles.contains(.customer) && order.customerID == caller.accountID
///                     || roles.contains(.provider) && order.providerID == caller.accountID
///             }) { request, call in try await cancel(request, call) },
///         ]
///     }
///
/// Registering a method whose Access line has `(owner)` without an ownership rule (or one with a
/// rule it does not need) stops the server at startup.
public struct SoukMethodBuilder: Sendable {
    /// For example `souk.v1.Accounts`.
    public let service: String
    let rules: AccessRules
    let marketplaces: any MarketplaceDirectory
    let logger: Logger
    /// Where streaming calls are counted and ended when their session ends; nil: neither.
    let streams: OpenStreams?
    /// When set, `method(_:_:)` records or assembles the RPCs of several declarations of the
    /// service (`ServiceAssembly`) instead of building the one it is given.
    var routes: ServiceRoutes?

    public init(service: String, rules: AccessRules, marketplaces: any MarketplaceDirectory, logger: Logger, streams: OpenStreams? = nil) {
        self.service = service
        self.rules = rules
        self.marketplaces = marketplaces
        self.logger = logger
        self.streams = streams
    }

    /// Runs the body of streaming call `call` under `streams`.
    private static func stream(_ call: SoukCall, _ streams: OpenStreams?, _ body: @escaping @Sendable () async throws -> Void) async throws {
        guard let streams else { return try await body() }
        try await streams.run(call, body)
    }

    /// A unary RPC whose request names its marketplace.
    public func unary<Request: MarketplaceScopedRequest, Response: ProtoMessage>(
        _ name: String, scope: MarketplaceScope = .marketplace, verticals: Set<SoukV1.Vertical>? = nil,
        owner: Ownership<Request>? = nil,
        _ body: nonisolated(nonsending) @escaping @Sendable (Request, SoukCall) async throws -> Response
    ) -> RPCMethod {
        let check = checks(name, scope: scope, verticals: verticals, owner: owner)
        let logger = logger
        return refusingNUL(Request.self, .unary(name) { (request: Request, context) in
            do {
                let call = try check.prepare(request, marketplaceID: request.marketplaceID, context)
                return try await body(request, call)
            } catch {
                throw rpcError(from: error, logger: logger)
            }
        })
    }

    /// A server-streaming RPC whose request names its marketplace.
    public func serverStreaming<Request: MarketplaceScopedRequest, Response: ProtoMessage>(
        _ name: String, scope: MarketplaceScope = .marketplace, verticals: Set<SoukV1.Vertical>? = nil,
        owner: Ownership<Request>? = nil,
        _ body: nonisolated(nonsending) @escaping @Sendable (Request, RPCWriter<Response>, SoukCall) async throws -> Void
    ) -> RPCMethod {
        let check = checks(name, scope: scope, verticals: verticals, owner: owner)
        let logger = logger
        let streams = streams
        // Watch RPCs queue their events with a bound (see `WatchDelivery`); other streams
        // (DownloadMedia) wait for the client at each message.
        let watch = Response.self is any SequencedEvent.Type
        let queueLimit = streams?.limits.queueBytes ?? StreamLimits.default.queueBytes
        return refusingNUL(Request.self, .serverStreaming(name) { (request: Request, writer: RPCWriter<Response>, context) in
            do {
                let call = try check.prepare(request, marketplaceID: request.marketplaceID, context)
                let writer = watch ? WatchDelivery.writer(writer, limit: queueLimit) : writer
                try await Self.stream(call, streams) { try await body(request, writer, call) }
            } catch {
                throw rpcError(from: error, logger: logger)
            }
        })
    }

    /// A unary RPC that acts on the platform, not in a marketplace (CreateMarketplace,
    /// ListMarketplaces: the only requests without `marketplace_id`).
    public func platformUnary<Request: ProtoMessage, Response: ProtoMessage>(
        _ name: String, _ body: nonisolated(nonsending) @escaping @Sendable (Request, SoukCall) async throws -> Response
    ) -> RPCMethod {
        let check = checks(name, scope: .platform, verticals: nil, owner: Ownership<Request>?.none)
        let logger = logger
        return refusingNUL(Request.self, .unary(name) { (request: Request, context) in
            do {
                let call = try check.prepare(request, marketplaceID: "", context)
                return try await body(request, call)
            } catch {
                throw rpcError(from: error, logger: logger)
            }
        })
    }

    /// Refuses, before decoding, a request whose string field holds a NUL character: protobuf-c
    /// would cut the string there, and the body would act on a value the client never sent.
    private func refusingNUL<Request: ProtoMessage>(_ type: Request.Type, _ method: RPCMethod) -> RPCMethod {
        @Sendable func check(_ bytes: ByteBuffer) throws {
            if let field = bytes.withUnsafeReadableBytes({ Request.stringFieldContainingNUL(in: $0) }) {
                throw RPCError.invalidField(field, "must not contain NUL characters")
            }
        }
        switch method.handler {
        case .unary(let handler):
            return RPCMethod(name: method.name, handler: .unary { bytes, context in
                try check(bytes)
                return try await handler(bytes, context)
            })
        case .serverStreaming(let handler):
            return RPCMethod(name: method.name, handler: .serverStreaming { bytes, writer, context in
                try check(bytes)
                try await handler(bytes, writer, context)
            })
        default:
            return method
        }
    }

    private func checks<Request>(
        _ name: String, scope: MarketplaceScope, verticals: Set<SoukV1.Vertical>?, owner: Ownership<Request>?
    ) -> CallChecks<Request> {
        guard let rule = rules.rule(service: service, method: name) else {
            preconditionFailure("\(service)/\(name) is not in the contract")
        }
        precondition(
            rule.hasOwnerQualifiedRoles == (owner != nil),
            rule.hasOwnerQualifiedRoles
                ? "\(service)/\(name) (\(rule)) needs an ownership rule" : "\(service)/\(name) (\(rule)) has no (owner) role: drop its ownership rule")
        return CallChecks(rule: rule, scope: scope, verticals: verticals, owner: owner, marketplaces: marketplaces)
    }
}

/// The checks of one registered method, run on each call before its body.
struct CallChecks<Request>: Sendable {
    let rule: AccessRule
    let scope: MarketplaceScope
    let verticals: Set<SoukV1.Vertical>?
    let owner: Ownership<Request>?
    let marketplaces: any MarketplaceDirectory

    func prepare(_ request: Request, marketplaceID text: String, _ context: ServerContext) throws -> SoukCall {
        let caller = context[CallerKey.self]
        let decision = try authorize(rule, context)
        var marketplaceID: RecordID?
        var marketplace: SoukV1.Marketplace?
        if scope == .platform {
            // No marketplace to check.
        } else if text.isEmpty {
            guard scope == .marketplaceOrPlatform else { throw RPCError.invalidField("marketplace_id", "is required") }
            // Platform accounts (operators, the push adapter) belong to no marketplace.
            if let caller, !caller.isOperator, caller.marketplaceID != nil {
                throw RPCError.souk(.permissionDenied, .marketplaceMismatch, "the token belongs to a marketplace account: send its marketplace_id")
            }
        } else {
            let id = try RequestFields.id(text, field: "marketplace_id")
            // A marketplace account acts only in its own; platform accounts (operators, the push
            // adapter) hold no role in any, so their Access words alone decide.
            if let caller, let own = caller.marketplaceID, own != id {
                throw RPCError.souk(
                    .permissionDenied, .marketplaceMismatch, "the token belongs to another marketplace than \(text)",
                    metadata: ["marketplace_id": text])
            }
            guard let found = try marketplaces.marketplace(id) else { throw RPCError.notFound("marketplace", text) }
            if found.archived, caller?.isOperator != true {
                throw RPCError.souk(
                    .failedPrecondition, .marketplaceArchived, "marketplace \(text) is archived", metadata: ["marketplace_id": text])
            }
            if let verticals, !verticals.contains(found.vertical) {
                throw RPCError.souk(
                    .failedPrecondition, .wrongVertical,
                    "\(context.method) is not available in a \(found.vertical.protoName) marketplace",
                    metadata: ["marketplace_id": text, "vertical": found.vertical.protoName])
            }
            marketplaceID = id
            marketplace = found
        }
        let call = SoukCall(
            context: context, caller: caller, marketplace: marketplace, marketplaceID: marketplaceID, decision: decision, rule: rule)
        if case .allowedAsOwner(let roles) = decision, let caller {
            guard let owner, try owner.isOwner(request, call, caller, roles) else {
                throw RPCError.souk(.permissionDenied, .notAllowed, "\(context.method): the caller may act only on their own resources here")
            }
        }
        return call
    }
}

/// The Access-line decision for a call, or the error that refuses it. The one function both
/// `AuthorizationInterceptor` and the method builder apply.
func authorize(_ rule: AccessRule, _ context: ServerContext) throws(RPCError) -> AccessDecision {
    let decision = rule.decide(for: context[CallerKey.self])
    switch decision {
    case .allowed, .allowedAsOwner:
        return decision
    case .unauthenticated:
        throw context[AuthenticationFailureKey.self] ?? signInRequired(context)
    case .denied(let reason):
        throw RPCError.souk(.permissionDenied, reason, AuthorizationInterceptor.deniedMessage(context.method, rule, reason))
    }
}

/// The refusal of a call without a token where the Access line admits no guest: the caller
/// never signed in, which a client handles apart from a token that stopped working.
func signInRequired(_ context: ServerContext) -> RPCError {
    RPCError.souk(
        .unauthenticated, .signInRequired, "\(context.method) needs a signed-in caller: send \"authorization: Bearer <access token>\"")
}

// MARK: - Streams of requests

extension SoukMethodBuilder {
    /// A client-streaming RPC: the checks run on the first request, and every later request must
    /// name the same marketplace (INVALID_ARGUMENT otherwise).
    public func clientStreaming<Request: MarketplaceScopedRequest, Response: ProtoMessage>(
        _ name: String, scope: MarketplaceScope = .marketplace, verticals: Set<SoukV1.Vertical>? = nil,
        owner: Ownership<Request>? = nil,
        _ body: nonisolated(nonsending) @escaping @Sendable (RPCReader<Request>, SoukCall) async throws -> Response
    ) -> RPCMethod {
        let check = checks(name, scope: scope, verticals: verticals, owner: owner)
        let logger = logger
        let streams = streams
        return .clientStreaming(name) { (requests: RPCReader<Request>, context) in
            do {
                let (requests, call) = try await check.prepare(requests, context)
                let response = Mutex<Response?>(nil)
                try await Self.stream(call, streams) {
                    let answer = try await body(requests, call)
                    response.withLock { $0 = answer }
                }
                guard let answer = response.withLock({ $0 }) else { throw RPCError(.internalError, "the stream ended without an answer") }
                return answer
            } catch {
                throw rpcError(from: error, logger: logger)
            }
        }
    }

    /// A bidirectional-streaming RPC, checked as `clientStreaming` is.
    public func bidirectionalStreaming<Request: MarketplaceScopedRequest, Response: ProtoMessage>(
        _ name: String, scope: MarketplaceScope = .marketplace, verticals: Set<SoukV1.Vertical>? = nil,
        owner: Ownership<Request>? = nil,
        _ body: nonisolated(nonsending) @escaping @Sendable (RPCReader<Request>, RPCWriter<Response>, SoukCall) async throws -> Void
    ) -> RPCMethod {
        let check = checks(name, scope: scope, verticals: verticals, owner: owner)
        let logger = logger
        let streams = streams
        return .bidirectionalStreaming(name) { (requests: RPCReader<Request>, writer: RPCWriter<Response>, context) in
            do {
                let (requests, call) = try await check.prepare(requests, context)
                try await Self.stream(call, streams) { try await body(requests, writer, call) }
            } catch {
                throw rpcError(from: error, logger: logger)
            }
        }
    }
}

extension CallChecks where Request: MarketplaceScopedRequest {
    /// Checks the call on its first request and hands on every request, the first included.
    func prepare(_ requests: RPCReader<Request>, _ context: ServerContext) async throws -> (RPCReader<Request>, SoukCall) {
        var iterator = requests.makeAsyncIterator()
        guard let first = try await iterator.next() else {
            throw RPCError.souk(.invalidArgument, .fieldInvalid, "\(context.method) needs at least one request")
        }
        let call = try prepare(first, marketplaceID: first.marketplaceID, context)
        let marketplaceID = first.marketplaceID
        let rest = RPCReader(first: first, then: iterator).map { (request: Request) throws -> Request in
            guard request.marketplaceID == marketplaceID else {
                throw RPCError.invalidField("marketplace_id", "must be the same in every request of the stream")
            }
            return request
        }
        return (rest, call)
    }
}

// MARK: - Typed declarations

extension SoukMethodBuilder {
    /// The method of a unary RPC of a generated service declaration.
    public func method<Request, Response>(_ name: String, _ rpc: UnaryRPC<Request, Response>) -> RPCMethod {
        let rpc = routes?.route(name, rpc) ?? rpc
        guard let (options, body) = rpc.served else { return unimplemented(name) }
        return unary(name, scope: options.scope, verticals: options.verticals, owner: options.owner, body)
    }

    /// The method of a platform unary RPC of a generated service declaration.
    public func method<Request, Response>(_ name: String, _ rpc: PlatformUnaryRPC<Request, Response>) -> RPCMethod {
        let rpc = routes?.route(name, rpc) ?? rpc
        guard let body = rpc.served else { return unimplemented(name) }
        return platformUnary(name, body)
    }

    /// The method of a server-streaming RPC of a generated service declaration.
    public func method<Request, Response>(_ name: String, _ rpc: ServerStreamingRPC<Request, Response>) -> RPCMethod {
        let rpc = routes?.route(name, rpc) ?? rpc
        guard let (options, body) = rpc.served else { return unimplemented(name) }
        return serverStreaming(name, scope: options.scope, verticals: options.verticals, owner: options.owner, body)
    }

    /// The method of a client-streaming RPC of a generated service declaration.
    public func method<Request, Response>(_ name: String, _ rpc: ClientStreamingRPC<Request, Response>) -> RPCMethod {
        let rpc = routes?.route(name, rpc) ?? rpc
        guard let (options, body) = rpc.served else { return unimplemented(name) }
        return clientStreaming(name, scope: options.scope, verticals: options.verticals, owner: options.owner, body)
    }

    /// The method of a bidirectional-streaming RPC of a generated service declaration.
    public func method<Request, Response>(_ name: String, _ rpc: BidirectionalStreamingRPC<Request, Response>) -> RPCMethod {
        let rpc = routes?.route(name, rpc) ?? rpc
        guard let (options, body) = rpc.served else { return unimplemented(name) }
        return bidirectionalStreaming(name, scope: options.scope, verticals: options.verticals, owner: options.owner, body)
    }

    /// A contract RPC left unimplemented on purpose: UNIMPLEMENTED once the interceptors let it through.
    func unimplemented(_ name: String) -> RPCMethod {
        guard let method = rules.methods.first(where: { $0.service == service && $0.name == name }) else {
            preconditionFailure("\(service)/\(name) is not in the contract")
        }
        return UnimplementedMethods.method(method)
    }
}
