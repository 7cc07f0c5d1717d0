import NIOCore
import SoukGRPC
import SoukMessages
import SoukStore
@testable import SoukAccess
import SoukKit

/// Tokens "customer", "admin", "operator", "pending-provider" are valid; "blocked" is refused.
struct FakeAuthenticator: TokenAuthenticator {
    static let marketplace = RecordID("0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")!
    static let otherMarketplace = RecordID("0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0e")!
    static let customerID = RecordID(high: 10, low: 1)
    static let adminID = RecordID(high: 10, low: 2)

    func caller(forAccessToken token: String) throws -> Caller {
        switch token {
        case "customer": return Caller(accountID: Self.customerID, marketplaceID: Self.marketplace, sessionID: RecordID(high: 1, low: 1), activeRoles: [.customer])
        case "pending-provider":
            return Caller(accountID: Self.customerID, marketplaceID: Self.marketplace, sessionID: RecordID(high: 1, low: 2),
                          activeRoles: [.customer], pendingRoles: [.provider])
        case "admin": return Caller(accountID: Self.adminID, marketplaceID: Self.marketplace, sessionID: RecordID(high: 1, low: 3), activeRoles: [.customer, .admin])
        case "operator": return Caller(accountID: RecordID(high: 10, low: 3), marketplaceID: nil, sessionID: RecordID(high: 1, low: 4), activeRoles: [.operator])
        case "store-closed": throw StoreError.closed
        default: throw RPCError.souk(.unauthenticated, .tokenInvalid, "the access token is unknown or was revoked")
        }
    }
}

/// Marketplaces by id, for the builder's scope checks.
struct FakeDirectory: MarketplaceDirectory {
    var marketplaces: [RecordID: SoukV1.Marketplace] = [
        FakeAuthenticator.marketplace: SoukV1.Marketplace(id: FakeAuthenticator.marketplace.description, slug: "aqua-hub", vertical: .waterServices),
        FakeAuthenticator.otherMarketplace: SoukV1.Marketplace(id: FakeAuthenticator.otherMarketplace.description, slug: "mara", vertical: .rentals),
    ]

    func marketplace(_ id: RecordID) throws -> SoukV1.Marketplace? { marketplaces[id] }
}

/// Runs a contract method as the router would: authentication, authorization, then the handler.
struct AccessHarness {
    let rules: AccessRules
    let authenticator = FakeAuthenticator()

    init() throws {
        rules = try AccessRules.contract()
    }

    func context(_ service: String, _ method: String, token: String?) -> ServerContext {
        var metadata = Metadata()
        if let token { metadata.add("authorization", "Bearer \(token)") }
        return ServerContext(method: MethodDescriptor(service: service, method: method), requestMetadata: metadata, peer: "test", deadline: nil)
    }

    /// Runs `method` with `request`; returns the response bytes.
    func call(_ service: String, _ method: RPCMethod, _ request: some ProtoMessage, token: String?) async throws -> [UInt8] {
        try await call(service, method, bytes: request.encoded(), token: token)
    }

    /// Runs `method` with packed request bytes; returns the response bytes.
    func call(_ service: String, _ method: RPCMethod, bytes: [UInt8], token: String?) async throws -> [UInt8] {
        guard case .unary(let handler) = method.handler else { throw RPCError(.internalError, "not unary") }
        let context = context(service, method.name, token: token)
        try AuthenticationInterceptor(authenticator: authenticator, rules: rules).callStarted(context)
        try AuthorizationInterceptor(rules: rules).callStarted(context)
        let reply = try await handler(ByteBuffer(bytes: bytes), context)
        return Array(reply.readableBytesView)
    }

    /// The status a call ends with (OK when it returns).
    func status(_ service: String, _ method: RPCMethod, _ request: some ProtoMessage, token: String?) async -> RPCError? {
        do {
            _ = try await call(service, method, request, token: token)
            return nil
        } catch let error as RPCError {
            return error
        } catch {
            return RPCError(.unknown, "\(error)")
        }
    }
}
