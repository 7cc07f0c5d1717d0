import Foundation
import Logging
import NIOCore
import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore
import Synchronization

/// A store in a temporary directory with identity and the given domains mounted over it, and
/// calls that go through the authentication and authorization interceptors as on the server.
/// Every domain's Swift tests build on it; `LiveServer` serves the same services on a port.
public final class DomainHarness: Sendable {
    public let directory: TemporaryDirectory
    public let store: Store
    public let identity: Identity
    public let rules: AccessRules
    public let clock = ManualClock()
    /// The operator's access token and when it expires, once signed in.
    private let operatorSession = Mutex<(token: String, expiry: StoreTime)?>(nil)
    /// Every contract service (the domains' and the UNIMPLEMENTED fallbacks) by name.
    public let services: [String: [any RPCService]]

    public static let operatorEmail = "ops@souk.example"
    public static let operatorPassword = "Operator-Pass-1"

    /// Logs only failures, so test output stays readable.
    public static var quietLogger: Logger {
        var logger = Logger(label: "test.souk")
        logger.logLevel = .error
        return logger
    }

    /// Mounts identity and the domains `makeDomains` builds (their types in `domainTypes`) over a store
    /// in `directory/db` (`configureStore` may change its settings, e.g. durable writes for a
    /// benchmark); the directory is removed with the harness.
    public init(
        directory: TemporaryDirectory = TemporaryDirectory(), domainTypes: [any SoukDomain.Type] = [],
        accessTokenTTL: Duration = .seconds(3600),
        configureStore: (inout StoreConfiguration) -> Void = { _ in },
        configureIdentity: (inout IdentityConfiguration) -> Void = { _ in },
        makeDomains: (Identity) throws -> [any SoukDomain] = { _ in [] }
    ) throws {
        self.directory = directory
        var configuration = StoreConfiguration.forTests(directory.sub("db"), clock: clock)
        configuration.writerThreads = 4
        configuration.writeBufferBytes = 4 << 20
        configuration.logger = Self.quietLogger
        configureStore(&configuration)
        store = try Store(configuration, schema: Schema.mounting([Identity.self] + domainTypes))
        var identityConfiguration = IdentityConfiguration()
        identityConfiguration.passwordHashMemoryKiB = 64
        identityConfiguration.accessTokenTTL = accessTokenTTL
        identityConfiguration.logger = Self.quietLogger
        configureIdentity(&identityConfiguration)
        identity = try Identity(store: store, configuration: identityConfiguration)
        rules = try AccessRules.contract()
        let kit = ServiceKit(rules: rules, marketplaces: identity.marketplaces, logger: Self.quietLogger)
        let domains: [any SoukDomain] = [identity] + (try makeDomains(identity))
        let all = ServiceAssembly.assemble(domains.flatMap { $0.services(kit) })
        var services: [String: [any RPCService]] = [:]
        for service in all + UnimplementedMethods.services(rules: rules, implemented: all) {
            services[service.serviceName, default: []].append(service)
        }
        self.services = services
    }

    deinit {
        directory.remove()
    }

    /// The services as a flat list, for a router.
    public var allServices: [any RPCService] { services.values.flatMap { $0 } }

    /// The method `service/method` as the router would find it.
    public func method(_ service: String, _ method: String) -> RPCMethod? {
        services[service]?.lazy.flatMap(\.methods).first { $0.name == method }
    }

    /// The context of a call to `service/method` by the holder of `token` (nil: a guest), after
    /// the authentication and authorization interceptors let it through.
    public func context(_ service: String, _ method: String, token: String?) throws -> ServerContext {
        var metadata = Metadata()
        if let token { metadata.add("authorization", "Bearer \(token)") }
        let context = ServerContext(
            method: MethodDescriptor(service: service, method: method), requestMetadata: metadata, peer: "test", deadline: nil)
        try AuthenticationInterceptor(authenticator: identity.sessions, rules: rules).callStarted(context)
        try AuthorizationInterceptor(rules: rules).callStarted(context)
        return context
    }

    /// Calls the unary `service/method` with `request` as the holder of `token`.
    public func call<Response: ProtoMessage>(
        _ service: String, _ method: String, _ request: some ProtoMessage, token: String? = nil, as: Response.Type = Response.self
    ) async throws -> Response {
        guard case .unary(let handler)? = self.method(service, method)?.handler else {
            throw RPCError(.unimplemented, "no unary \(service)/\(method)")
        }
        let reply = try await handler(ByteBuffer(bytes: request.encoded()), try context(service, method, token: token))
        return try Response(decoding: Array(reply.readableBytesView))
    }

    /// The error a call ends with; nil when it succeeds.
    public func error<Response: ProtoMessage>(
        _ service: String, _ method: String, _ request: some ProtoMessage, token: String? = nil, as: Response.Type = Response.self
    ) async -> RPCError? {
        do {
            _ = try await call(service, method, request, token: token, as: Response.self)
            return nil
        } catch let error as RPCError {
            return error
        } catch {
            return RPCError(.unknown, "\(error)")
        }
    }

    // MARK: Callers of every role

    /// Calls `souk.v1.Accounts/method`.
    public func accounts<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, token: String? = nil) async throws -> Response {
        try await call("souk.v1.Accounts", method, request, token: token)
    }

    /// The platform operator's token (the operator is created on first use).
    public func operatorToken() async throws -> String {
        // Signed in once and reused until it expires, as a client keeps its session: signing in
        // for every call would meet the per-account sign-in limit.
        if let cached = operatorSession.withLock({ $0 }), clock.now < cached.expiry { return cached.token }
        _ = try await identity.bootstrapOperator(email: Self.operatorEmail, password: Self.operatorPassword)
        let session: SoukV1.Session = try await accounts(
            "Login", SoukV1.LoginRequest(email: Self.operatorEmail, password: Self.operatorPassword))
        let expiry = session.accessTokenExpireTime.map { StoreTime($0) } ?? clock.now
        operatorSession.withLock { $0 = (session.accessToken, expiry) }
        return session.accessToken
    }

    /// A marketplace created by the operator through the contract.
    public func marketplace(
        slug: String = "drip-n-dash", vertical: SoukV1.Vertical = .laundry, currency: String = "USD",
        settings: SoukV1.MarketplaceSettings? = nil
    ) async throws -> SoukV1.Marketplace {
        try await call("souk.v1.Marketplaces", "CreateMarketplace", SoukV1.CreateMarketplaceRequest(
            requestID: "create-\(slug)",
            marketplace: .init(slug: slug, displayName: "Test \(slug)", vertical: vertical, currencyCode: currency, settings: settings)),
            token: try await operatorToken())
    }

    /// Signs up a customer (laundry profile included for laundry marketplaces).
    public func signUp(
        _ marketplace: SoukV1.Marketplace, email: String, password: String = "Abcdef1!", roles: [SoukV1.Role] = [],
        requestID: String? = nil
    ) async throws -> SoukV1.SignUpResponse {
        try await accounts("SignUp", SoukV1.SignUpRequest(
            marketplaceID: marketplace.id, requestID: requestID ?? "signup-\(email)", email: email, password: password,
            givenName: "Test", requestedRoles: roles,
            laundryProfile: marketplace.vertical == .laundry ? .init(campus: "Busch", room: "101") : nil))
    }

    /// A signed-in account of the marketplace holding `role` (active), created by the operator.
    public func token(_ role: SoukV1.Role, in marketplace: SoukV1.Marketplace, email: String? = nil) async throws -> String {
        let email = email ?? "\(role.protoName.dropFirst("ROLE_".count).lowercased())@\(marketplace.slug).example"
        let _: SoukV1.Account = try await accounts("CreateAccount", SoukV1.CreateAccountRequest(
            marketplaceID: marketplace.id, requestID: "account-\(email)", email: email, initialPassword: "Role-pass-1",
            givenName: "Test", roles: role == .customer ? [] : [role],
            laundryProfile: marketplace.vertical == .laundry && [.customer, .courier].contains(role)
                ? .init(campus: "Busch", room: "101") : nil),
            token: try await operatorToken())
        let session: SoukV1.Session = try await accounts(
            "Login", SoukV1.LoginRequest(marketplaceID: marketplace.id, email: email, password: "Role-pass-1"))
        return session.accessToken
    }

    /// An admin of the marketplace, created by the operator; returns a token.
    public func adminToken(_ marketplace: SoukV1.Marketplace, email: String = "admin@rutgers.edu") async throws -> String {
        try await token(.admin, in: marketplace, email: email)
    }
}
