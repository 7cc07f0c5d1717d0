import Foundation
import Logging
import NIOCore
import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore
import Synchronization
@testable import SoukIdentity

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let now = Mutex(StoreTime(microsecondsSinceEpoch: 1_800_000_000_000_000))
    func read() -> StoreTime { now.withLock { $0 } }
    func advance(_ duration: Duration) { now.withLock { $0 = $0.adding(duration) } }
}

/// A store in a temporary directory, the identity services over it, and calls that go through
/// the authentication and authorization interceptors as on the server.
final class IdentityFixture: Sendable {
    let directory: String
    let store: Store
    let identity: Identity
    let rules: AccessRules
    let clock = TestClock()
    let services: [String: [any RPCService]]

    static let operatorEmail = "ops@souk.example"

    /// Logs only failures, so test output stays readable.
    static var quietLogger: Logger {
        var logger = Logger(label: "test.identity")
        logger.logLevel = .error
        return logger
    }
    static let operatorPassword = "Operator-Pass-1"

    init(accessTokenTTL: Duration = .seconds(3600)) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("souk-identity-\(UUID().uuidString)").path
        var configuration = StoreConfiguration(path: directory)
        configuration.syncPolicy = .none
        configuration.writerThreads = 4
        configuration.blockCacheBytes = 8 << 20
        configuration.writeBufferBytes = 4 << 20
        let clock = self.clock
        configuration.clock = { clock.read() }
        configuration.logger = Self.quietLogger
        // Profiles refer to uploaded pictures: the kit's media table is written with them.
        store = try Store(configuration, schema: Schema(Identity.tables + [MediaTable.table.erased]))
        var identityConfiguration = IdentityConfiguration()
        identityConfiguration.passwordHashMemoryKiB = 64
        identityConfiguration.accessTokenTTL = accessTokenTTL
        identityConfiguration.logger = Self.quietLogger
        identity = try Identity(store: store, configuration: identityConfiguration)
        rules = try AccessRules.contract()
        var services: [String: [any RPCService]] = [:]
        let all = identity.services(rules: rules)
        for service in all + UnimplementedMethods.services(rules: rules, implemented: all) {
            services[service.serviceName, default: []].append(service)
        }
        self.services = services
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Calls `service/method` with `request` as the holder of `token`.
    func call<Response: ProtoMessage>(
        _ service: String, _ method: String, _ request: some ProtoMessage, token: String? = nil, as: Response.Type = Response.self
    ) async throws -> Response {
        let found = services[service]?.lazy.flatMap(\.methods).first { $0.name == method }
        guard let found, case .unary(let handler) = found.handler else { throw RPCError(.unimplemented, "no unary \(service)/\(method)") }
        var metadata = Metadata()
        if let token { metadata.add("authorization", "Bearer \(token)") }
        let context = ServerContext(
            method: MethodDescriptor(service: service, method: method), requestMetadata: metadata, peer: "test", deadline: nil)
        try AuthenticationInterceptor(authenticator: identity.sessions, rules: rules).callStarted(context)
        try AuthorizationInterceptor(rules: rules).callStarted(context)
        let reply = try await handler(ByteBuffer(bytes: request.encoded()), context)
        return try Response(decoding: Array(reply.readableBytesView))
    }

    /// The error a call ends with; nil when it succeeds.
    func error<Response: ProtoMessage>(
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

    // MARK: Shortcuts

    func accounts<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, token: String? = nil) async throws -> Response {
        try await call("souk.v1.Accounts", method, request, token: token)
    }

    func operatorToken() async throws -> String {
        _ = try await identity.bootstrapOperator(email: Self.operatorEmail, password: Self.operatorPassword)
        let session: SoukV1.Session = try await accounts(
            "Login", SoukV1.LoginRequest(email: Self.operatorEmail, password: Self.operatorPassword))
        return session.accessToken
    }

    /// A marketplace created by the operator through the contract.
    func marketplace(
        slug: String = "drip-n-dash", vertical: SoukV1.Vertical = .laundry, currency: String = "USD",
        settings: SoukV1.MarketplaceSettings? = nil
    ) async throws -> SoukV1.Marketplace {
        try await call("souk.v1.Marketplaces", "CreateMarketplace", SoukV1.CreateMarketplaceRequest(
            requestID: "create-\(slug)",
            marketplace: .init(slug: slug, displayName: "Test \(slug)", vertical: vertical, currencyCode: currency, settings: settings)),
            token: try await operatorToken())
    }

    /// Signs up a customer (laundry profile included for laundry marketplaces).
    func signUp(
        _ marketplace: SoukV1.Marketplace, email: String, password: String = "Abcdef1!", roles: [SoukV1.Role] = [],
        requestID: String? = nil
    ) async throws -> SoukV1.SignUpResponse {
        try await accounts("SignUp", SoukV1.SignUpRequest(
            marketplaceID: marketplace.id, requestID: requestID ?? "signup-\(email)", email: email, password: password,
            givenName: "Test", requestedRoles: roles,
            laundryProfile: marketplace.vertical == .laundry ? .init(campus: "Busch", room: "101") : nil))
    }

    /// An admin of the marketplace, created by the operator; returns a token.
    func adminToken(_ marketplace: SoukV1.Marketplace, email: String = "admin@rutgers.edu") async throws -> String {
        let _: SoukV1.Account = try await accounts("CreateAccount", SoukV1.CreateAccountRequest(
            marketplaceID: marketplace.id, requestID: "admin-\(email)", email: email, initialPassword: "Admin-pass-1",
            givenName: "Admin", roles: [.admin]), token: try await operatorToken())
        let session: SoukV1.Session = try await accounts(
            "Login", SoukV1.LoginRequest(marketplaceID: marketplace.id, email: email, password: "Admin-pass-1"))
        return session.accessToken
    }
}
