import SoukGRPC
import SoukMessages
import SoukStore

/// Who is calling: the signed-in account behind a valid access token.
public struct Caller: Sendable, Equatable {
    public var accountID: RecordID
    /// The account's marketplace; nil for platform operators.
    public var marketplaceID: RecordID?
    /// The session the access token belongs to.
    public var sessionID: RecordID
    /// Roles the account holds as active (operators hold `.operator`).
    public var activeRoles: Set<SoukV1.Role>
    /// Roles requested and waiting for an admin.
    public var pendingRoles: Set<SoukV1.Role>
    /// The account's preferred language (BCP 47, may be empty): error messages use it.
    public var locale: String
    /// When the access token the call carried expires (open streams end then); nil when unknown.
    public var accessExpiry: StoreTime?

    public init(
        accountID: RecordID, marketplaceID: RecordID?, sessionID: RecordID,
        activeRoles: Set<SoukV1.Role>, pendingRoles: Set<SoukV1.Role> = [], locale: String = "", accessExpiry: StoreTime? = nil
    ) {
        self.accountID = accountID
        self.marketplaceID = marketplaceID
        self.sessionID = sessionID
        self.activeRoles = activeRoles
        self.pendingRoles = pendingRoles
        self.locale = locale
        self.accessExpiry = accessExpiry
    }

    /// A platform operator: valid in every marketplace.
    public var isOperator: Bool { activeRoles.contains(.operator) }
}

/// The authenticated caller of a call, set by `AuthenticationInterceptor`.
public enum CallerKey: ServerContextKey {
    public typealias Value = Caller
}

/// Why the bearer token a call carried was refused (kept for the authorization decision:
/// guest RPCs ignore a bad token, the others answer with this error).
public enum AuthenticationFailureKey: ServerContextKey {
    public typealias Value = RPCError
}

/// Resolves access tokens to callers; implemented over the session store.
public protocol TokenAuthenticator: Sendable {
    /// The caller an access token belongs to. Throws an UNAUTHENTICATED `RPCError` when the
    /// token is unknown, expired or revoked, or its account is blocked or deleted.
    /// Runs on the call's thread (the event loop): keep it to short reads, no hashing of passwords.
    func caller(forAccessToken token: String) throws -> Caller
}
