import Logging
import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore

/// Sessions and their tokens: opaque 256-bit access tokens (short-lived) and refresh tokens
/// (rotated on every use), stored only as BLAKE2b hashes; the pair of the latest rotation is
/// also kept sealed under the refresh token it retired, to answer a retry. Resolves access
/// tokens for the authentication interceptor.
public final class SessionManager: TokenAuthenticator {
    let store: Store
    let logger: Logger
    /// The streams to end when a session ends.
    let openStreams: OpenStreams
    /// The account view a session carries.
    let views: AccountViews
    /// The callers of tokens authenticated lately: most calls read nothing.
    let cache: AuthenticationCache

    init(store: Store, logger: Logger, openStreams: OpenStreams, views: AccountViews, cacheCapacity: Int = 100_000) {
        self.views = views
        self.store = store
        self.logger = logger
        self.openStreams = openStreams
        cache = AuthenticationCache(capacity: cacheCapacity)
        cache.invalidate(on: store)
        openStreams.readSessions(clock: store.configuration.clock) { [store] sessionID in
            guard let session = try store.get(SessionTable.table, sessionID), !session.value.revoked else { return nil }
            return session.value.accessExpiry
        }
    }

    var now: StoreTime { store.configuration.clock() }

    // MARK: Authentication (every call)

    /// From the cache when the token was authenticated lately and neither its session nor its
    /// account changed since (the cache is cleared as they change, so a block or a role decision
    /// applies to the very next call); otherwise three point reads: the session by token hash,
    /// then its account. Each refusal names its cause, as the client handles them differently:
    /// ACCOUNT_BLOCKED (nothing to do but ask support), TOKEN_EXPIRED (refresh), SESSION_REVOKED
    /// (sign in again), TOKEN_INVALID (a token this server never issued, or of an account that
    /// no longer exists).
    public func caller(forAccessToken token: String) throws -> Caller {
        let hash = TokenHash(of: token)
        if let entry = cache.entry(hash, now: now) { return entry.caller }
        let generation = cache.generation
        let caller = try readCaller(hash)
        if let expiry = caller.accessExpiry {
            cache.add(hash, AuthenticationCache.Entry(caller: caller, accessExpiry: expiry), readAt: generation)
        }
        return caller
    }

    /// The caller of the access token hashed to `hash`, read from the store.
    private func readCaller(_ hash: TokenHash) throws -> Caller {
        let session: StoredRecord<SessionRecord>
        let expiry: StoreTime
        if let current = try store.get(SessionTable.table, unique: SessionTable.byAccessToken, [.bytes(hash.bytes)]) {
            (session, expiry) = (current, current.value.accessExpiry)
        } else if let replaced = try replacedTokenSession(hash), let previous = replaced.value.previousAccess {
            // A token the latest refresh replaced: good until its own expiry.
            (session, expiry) = (replaced, previous.expiry)
        } else {
            throw try endedSessionRefusal(hash) ?? Self.unauthenticated("the access token is unknown")
        }
        let account = try store.get(AccountTable.table, session.value.accountID)
        if let refusal = Self.accountRefusal(account) { throw refusal }
        guard expiry > now, let account else {
            throw RPCError.souk(.unauthenticated, .tokenExpired, "the access token has expired; refresh it with Accounts.Refresh")
        }
        var caller = Self.caller(account, sessionID: session.id)
        caller.accessExpiry = expiry
        return caller
    }

    /// The session whose latest refresh replaced the access token hashed to `hash`.
    private func replacedTokenSession(_ hash: TokenHash) throws -> StoredRecord<SessionRecord>? {
        do {
            return try store.get(SessionTable.table, unique: SessionTable.byPreviousAccessToken, [.bytes(hash.bytes)])
        } catch StoreError.indexNotReady {
            // Built after an upgrade: until then a replaced token is unknown, as before.
            return nil
        }
    }

    /// Why the token of an ended session is refused; nil when no ended session had it.
    private func endedSessionRefusal(_ hash: TokenHash) throws -> RPCError? {
        let ended: StoredRecord<SessionRecord>?
        do {
            ended = try store.get(SessionTable.table, unique: SessionTable.byEndedAccessToken, [.bytes(hash.bytes)])
        } catch StoreError.indexNotReady {
            // Sessions ended before the index existed and it is still being built: unknown.
            return nil
        }
        guard let ended else { return nil }
        let account = try store.get(AccountTable.table, ended.value.accountID)
        return Self.accountRefusal(account)
            ?? RPCError.souk(.unauthenticated, .sessionRevoked, "the session has ended (signed out, or the password changed): sign in again")
    }

    /// The refusal of a token whose account is gone or blocked; nil for an active account.
    private static func accountRefusal(_ account: StoredRecord<AccountRecord>?) -> RPCError? {
        guard let account else { return unauthenticated("the access token's account no longer exists") }
        switch account.value.account.state {
        case .active: return nil
        case .blocked: return RPCError.souk(.unauthenticated, .accountBlocked, "the account is blocked")
        default: return unauthenticated("the account was deleted")
        }
    }

    static func caller(_ account: StoredRecord<AccountRecord>, sessionID: RecordID) -> Caller {
        var active = Set<SoukV1.Role>()
        var pending = Set<SoukV1.Role>()
        for grant in account.value.account.roles {
            if grant.status == .active { active.insert(grant.role) }
            if grant.status == .pending { pending.insert(grant.role) }
        }
        return Caller(
            accountID: account.id, marketplaceID: RecordID(account.value.account.marketplaceID), sessionID: sessionID,
            activeRoles: active, pendingRoles: pending, locale: account.value.account.locale)
    }

    static func unauthenticated(_ message: String) -> RPCError {
        RPCError.souk(.unauthenticated, .tokenInvalid, message)
    }

    // MARK: Sessions

    /// Opens a session for the account in `transaction` and returns it with its new tokens
    /// (the only time the tokens exist outside the client).
    func open(
        in transaction: Transaction, account: SoukV1.Account, rules: AccountRules, deviceName: String
    ) throws -> SoukV1.Session {
        guard let accountID = RecordID(account.id) else { throw RPCError(.internalError, "session for an account without an id") }
        let access = SecretToken.generate()
        let refresh = SecretToken.generate()
        let record = SessionRecord(
            accountID: accountID, marketplaceID: account.marketplaceID,
            accessTokenHash: access.hash.bytes, accessExpiry: transaction.now.adding(rules.accessTokenTTL),
            refreshTokenHash: refresh.hash.bytes, refreshExpiry: transaction.now.adding(rules.refreshTokenTTL),
            retiredRefreshHashes: [], revoked: false, deviceName: String(deviceName.prefix(120)))
        let session = try transaction.insert(SessionTable.table, record)
        try IdentityReports.signedIn(accountID, marketplaceID: account.marketplaceID, transaction: transaction)
        return Self.apiSession(session, access: access, refresh: refresh, account: account)
    }

    static func apiSession(
        _ session: StoredRecord<SessionRecord>, access: SecretToken, refresh: SecretToken, account: SoukV1.Account
    ) -> SoukV1.Session {
        SoukV1.Session(
            accessToken: access.text, accessTokenExpireTime: Timestamp(session.value.accessExpiry),
            refreshToken: refresh.text, refreshTokenExpireTime: Timestamp(session.value.refreshExpiry),
            sessionID: session.id.description, account: account)
    }

    /// What a refresh attempt found.
    enum RefreshOutcome: Sendable {
        /// A new pair, or the same pair again for a retry within the reuse interval.
        case issued(SoukV1.Session)
        /// A retired refresh token came back too late: the session was revoked.
        case reused(sessionID: RecordID, accountID: RecordID)
        case invalid(String)
        case blocked
    }

    /// Exchanges a refresh token for a new pair, retiring it. The retired token of the latest
    /// rotation, presented again before the marketplace's reuse interval ends, gets that same
    /// pair again (the client lost the answer, or refreshed twice at once); any retired token
    /// presented otherwise ends the whole session (it may have been stolen).
    func refresh(
        _ token: String, marketplaceID: RecordID?, rules: @escaping @Sendable (String) throws -> AccountRules
    ) async throws -> SoukV1.Session {
        let presented = SecretToken(text: token)
        let hash = presented.hash.bytes
        let views = self.views
        let outcome: RefreshOutcome = try await store.write { transaction in
            let session: StoredRecord<SessionRecord>
            // The same pair again when this is a retry of the latest rotation.
            var retried: (access: SecretToken, refresh: SecretToken)?
            if let current = try transaction.get(SessionTable.table, unique: SessionTable.byRefreshToken, [.bytes(hash)]) {
                session = current
            } else if let retired = try transaction.first(
                SessionTable.table, SessionTable.byRetiredRefreshToken, IndexRange.starting(with: [.bytes(hash)]))
            {
                let interval = try rules(retired.value.marketplaceID).refreshReuseInterval
                guard let rotation = retired.value.latestRotation, rotation.retiredRefreshHash == hash,
                      transaction.now < rotation.rotatedAt.adding(interval),
                      let pair = rotation.pair.open(key: presented, sessionID: retired.id)
                else {
                    try transaction.update(SessionTable.table, retired.id) { $0.revoke() }
                    self.endStreams(of: retired.id, in: transaction)
                    return .reused(sessionID: retired.id, accountID: retired.value.accountID)
                }
                session = retired
                retried = pair
            } else if try Self.endedSessionOfBlockedAccount(hash, transaction: transaction) {
                return .blocked
            } else {
                return .invalid("the refresh token is unknown, used or expired")
            }
            guard session.value.refreshExpiry > transaction.now else { return .invalid("the refresh token has expired; sign in again") }
            // An operator's session is valid in every marketplace; others only in their own.
            if !session.value.marketplaceID.isEmpty, RecordID(session.value.marketplaceID) != marketplaceID {
                return .invalid("the refresh token is unknown, used or expired")
            }
            guard let account = try transaction.get(AccountTable.table, session.value.accountID),
                  account.value.account.state != .deleted
            else { return .invalid("the refresh token's account no longer exists") }
            guard account.value.account.state == .active else { return .blocked }
            let presentedAccount = try views.view(account, try transaction.get(CredentialTable.table, account.id)?.value, transaction)
            if let retried {
                return .issued(Self.apiSession(session, access: retried.access, refresh: retried.refresh, account: presentedAccount))
            }
            let rules = try rules(session.value.marketplaceID)
            let access = SecretToken.generate()
            let refresh = SecretToken.generate()
            let updated = try transaction.update(SessionTable.table, session.id) { record in
                record.retiredRefreshHashes.append(record.refreshTokenHash)
                if record.retiredRefreshHashes.count > SessionTable.retiredRefreshLimit { record.retiredRefreshHashes.removeFirst() }
                record.latestRotation = RefreshRotation(
                    retiredRefreshHash: record.refreshTokenHash, rotatedAt: transaction.now,
                    pair: SealedTokenPair(access: access, refresh: refresh, key: presented, sessionID: session.id))
                record.previousAccess = PreviousAccessToken(hash: record.accessTokenHash, expiry: record.accessExpiry)
                record.accessTokenHash = access.hash.bytes
                record.accessExpiry = transaction.now.adding(rules.accessTokenTTL)
                record.refreshTokenHash = refresh.hash.bytes
                record.refreshExpiry = transaction.now.adding(rules.refreshTokenTTL)
            }
            return .issued(Self.apiSession(updated, access: access, refresh: refresh, account: presentedAccount))
        }
        switch outcome {
        case .issued(let session):
            return session
        case .reused(let sessionID, let accountID):
            logger.warning("refresh token reused: session revoked", metadata: [
                "session_id": "\(sessionID)", "account_id": "\(accountID)",
            ])
            throw Self.unauthenticated("the refresh token was already used; the session has ended, sign in again")
        case .invalid(let message):
            throw Self.unauthenticated(message)
        case .blocked:
            throw RPCError.souk(.permissionDenied, .accountBlocked, "the account is blocked")
        }
    }

    /// Whether `hash` is the refresh token of an ended session whose account is blocked (blocking
    /// ends the account's sessions; its refresh is then told why).
    private static func endedSessionOfBlockedAccount(_ hash: [UInt8], transaction: Transaction) throws -> Bool {
        let ended: StoredRecord<SessionRecord>?
        do {
            ended = try transaction.get(SessionTable.table, unique: SessionTable.byEndedRefreshToken, [.bytes(hash)])
        } catch StoreError.indexNotReady {
            // Sessions ended before the index existed and it is still being built: unknown.
            return false
        }
        guard let ended else { return false }
        return try transaction.get(AccountTable.table, ended.value.accountID)?.value.account.state == .blocked
    }

    /// Revokes one session; false when it was already revoked.
    @discardableResult
    func revoke(in transaction: Transaction, sessionID: RecordID) throws -> Bool {
        guard let session = try transaction.get(SessionTable.table, sessionID), !session.value.revoked else { return false }
        try transaction.update(SessionTable.table, sessionID) { $0.revoke() }
        endStreams(of: sessionID, in: transaction)
        return true
    }

    /// Once `transaction` commits, ends the open streams of session `sessionID`.
    private func endStreams(of sessionID: RecordID, in transaction: Transaction) {
        let openStreams = openStreams
        transaction.afterCommit {
            openStreams.end(session: sessionID, RPCError.souk(.unauthenticated, .sessionRevoked, "the session was signed out or revoked: sign in again"))
        }
    }

    /// Revokes every live session of an account (but `except`); returns how many.
    /// Once it commits, the account's open streams (but those of `except`) end: ACCOUNT_BLOCKED
    /// when the account is blocked by then, SESSION_REVOKED otherwise.
    func revokeAll(in transaction: Transaction, accountID: RecordID, except: RecordID? = nil) throws -> Int {
        let blocked = try transaction.get(AccountTable.table, accountID)?.value.account.state == .blocked
        let openStreams = openStreams
        transaction.afterCommit {
            openStreams.end(
                account: accountID, except: except,
                blocked
                    ? RPCError.souk(.unauthenticated, .accountBlocked, "the account is blocked")
                    : RPCError.souk(.unauthenticated, .sessionRevoked, "the account's sessions were ended: sign in again"))
        }
        var ended = 0
        while true {
            // Revoked sessions leave the index, so each round reads the next ones.
            let batch = try transaction.list(
                SessionTable.table, SessionTable.byAccount, IndexRange.starting(with: [.id(accountID)]),
                limit: PageRequest.maximumSize
            ).filter { $0.id != except }
            if batch.isEmpty { return ended }
            for session in batch {
                try transaction.update(SessionTable.table, session.id) { $0.revoke() }
                ended += 1
            }
        }
    }
}
