import Foundation
import SoukGRPC
import SoukGRPCClient
import SoukMessages

/// A signed-in account: `client` sends its bearer token (and marketplace) with every call and
/// keeps it fresh (Accounts.Refresh). A task of the session sleeps until the access token enters
/// the second half of its life (at most its last minute) and refreshes it then, so calls never
/// wait for a refresh and an open Watch stream never ends with TOKEN_EXPIRED: the server keeps a
/// stream whose session was refreshed before its token's expiry. The task ends with `close()`,
/// `signOut()` or the session's release. Without it (`refreshInBackground: false`), or when it
/// fell behind, a call about to send a token in its second half refreshes it first. Refreshes
/// never overlap (concurrent callers share the one in flight), and a call or Watch stream the
/// server still refuses as TOKEN_EXPIRED refreshes and is repeated (a Watch resumes after its
/// last event). A refresh whose answer is lost (the connection dropped) is repeated with the same
/// refresh token: within the marketplace's `refresh_reuse_interval` (30 s by default) the server
/// answers it with the same pair, so the session survives. The platform operator signs in with an
/// empty `marketplaceID`; guests use `SoukClient(channel:marketplaceID:)` without a session.
public final class SoukSession: Sendable {
    /// The client whose calls carry this session's token.
    public let client: SoukClient
    let tokens: SessionTokens

    /// Signs in with e-mail and password (Accounts.Login).
    public static func signIn(
        channel: GRPCChannel, marketplaceID: String, email: String, password: String, deviceName: String = "souk-swift",
        acceptLanguage: String? = nil, retry: SoukRetryPolicy = SoukRetryPolicy(), refreshInBackground: Bool = true
    ) async throws -> SoukSession {
        let guest = SoukClient(channel: channel, marketplaceID: marketplaceID, acceptLanguage: acceptLanguage, retry: retry)
        let session = try await guest.accounts.login(
            SoukV1.LoginRequest(marketplaceID: marketplaceID, email: email, password: password, deviceName: deviceName))
        let signedIn = SoukSession(guest: guest, session: session, acceptLanguage: acceptLanguage, retry: retry)
        if refreshInBackground { await signedIn.tokens.startRenewing() }
        return signedIn
    }

    init(guest: SoukClient, session: SoukV1.Session, acceptLanguage: String?, retry: SoukRetryPolicy) {
        tokens = SessionTokens(accounts: guest.accounts, marketplaceID: guest.transport.marketplaceID, session: session)
        client = SoukClient(
            channel: guest.transport.channel, marketplaceID: guest.transport.marketplaceID, acceptLanguage: acceptLanguage,
            credentials: tokens, retry: retry)
    }

    deinit {
        // The renewing task holds the tokens weakly, but may be asleep for minutes: end it now.
        let tokens = self.tokens
        Task { await tokens.stopRenewing() }
    }

    /// Stops refreshing in the background (calls still refresh a token about to expire); a
    /// background refresh in flight ends first.
    public func close() async {
        await tokens.stopRenewing()
    }

    /// The session as last issued (tokens, expiry times, the account).
    public var current: SoukV1.Session {
        get async { await tokens.session }
    }

    /// The signed-in account.
    public var account: SoukV1.Account? {
        get async { await tokens.session.account }
    }

    /// Refreshes the token pair now.
    public func refresh() async throws {
        try await tokens.refresh()
    }

    /// Ends the session (or every session of the account) on the server.
    public func signOut(allSessions: Bool = false) async throws {
        await tokens.stopRenewing()
        _ = try await client.accounts.logout(SoukV1.LogoutRequest(allSessions: allSessions))
    }
}

/// The tokens of one session, refreshed one at a time.
actor SessionTokens: SoukCredentials {
    private(set) var session: SoukV1.Session
    let accounts: SoukClient.Accounts
    let marketplaceID: String
    /// The refresh in flight, which concurrent callers wait for instead of starting another.
    private var refreshing: Task<SoukV1.Session, any Error>?
    /// How many times the server refused an access token as expired (a refresh came too late).
    private(set) var rejectedTokens = 0
    /// How many refreshes were made.
    private(set) var refreshes = 0
    /// How many of them the renewing task made.
    private(set) var backgroundRefreshes = 0
    /// The task that refreshes the pair before the access token expires, while the session is open.
    private var renewer: Task<Void, Never>?
    /// Test hook: runs on each Refresh answer before it is taken; throwing acts as if the answer was lost.
    var onRefreshAnswer: (@Sendable (SoukV1.Session) throws -> Void)?

    init(accounts: SoukClient.Accounts, marketplaceID: String, session: SoukV1.Session) {
        self.accounts = accounts
        self.marketplaceID = marketplaceID
        self.session = session
    }

    func setRefreshHook(_ hook: (@Sendable (SoukV1.Session) throws -> Void)?) {
        onRefreshAnswer = hook
    }

    func accessToken() async throws -> String? {
        if refreshDue { try await refresh() }
        return session.accessToken
    }

    func tokenRejected(_ token: String) async {
        rejectedTokens += 1
        // Another call may have refreshed meanwhile; a failed refresh surfaces on the next call.
        if token == session.accessToken { try? await refresh() }
    }

    /// Whether the access token is within the second half of its life (at most a minute before its end).
    private var refreshDue: Bool {
        guard let due = refreshTime else { return false }
        return Date().timeIntervalSince1970 >= due
    }

    /// When the access token enters the second half of its life (at most its last minute), in
    /// seconds since 1970; nil for a token that does not expire. Half, not less: short-lived
    /// tokens leave a busy client's renewing task time to run before the expiry.
    private var refreshTime: Double? {
        guard let expiry = session.accessTokenExpireTime else { return nil }
        let end = Double(expiry.seconds) + Double(expiry.nanos) / 1e9
        return end - min(60, max(0, end - issuedAt) / 2)
    }

    /// Starts the renewing task (once).
    func startRenewing() {
        guard renewer == nil else { return }
        // Held weakly: the task keeps neither the tokens nor the session alive.
        renewer = Task { [weak self] in await Self.renew { [weak self] in self } }
    }

    /// Ends the renewing task, and returns once it has ended: a refresh it had in flight is
    /// taken (or has failed) by then, so none lands after the session was closed.
    func stopRenewing() async {
        guard let renewer else { return }
        self.renewer = nil
        renewer.cancel()
        await renewer.value
    }

    /// The renewing task: sleeps until the refresh is due, refreshes, and again, until cancelled
    /// or the session ends. A refresh that fails for want of the server (its answers lost past the
    /// retries of `exchange`) is tried again after a backoff, still with the same refresh token; one
    /// the server refuses (the session was revoked, the account blocked) ends the task, and the
    /// next call surfaces the refusal.
    private static func renew(_ held: @Sendable () -> SessionTokens?) async {
        guard let policy = held()?.accounts.transport.retry else { return }
        var delays = policy.backoff.delays()
        // At least a second between refreshes, should a clock behind the server's make every new
        // token look due already.
        var spacing = 0.0
        while !Task.isCancelled {
            guard let due = await held()?.refreshTime else { return }
            let wait = max(spacing, due - Date().timeIntervalSince1970)
            if wait > 0 {
                do { try await Task.sleep(for: .milliseconds(Int64((wait * 1000).rounded(.up)))) } catch { return }
            }
            guard let tokens = held(), !Task.isCancelled else { return }
            do {
                try await tokens.refresh(background: true)
                delays = policy.backoff.delays()
                spacing = 1
            } catch let error as SoukError where error.code == .unavailable || error.code == .deadlineExceeded {
                do { try await Task.sleep(for: error.retryDelay ?? delays.next()) } catch { return }
            } catch {
                return
            }
        }
    }

    /// When the current pair was received (the lifetime the margin is half of).
    private var issuedAt = Date().timeIntervalSince1970

    func refresh(background: Bool = false) async throws {
        if let refreshing {
            _ = try await refreshing.value
            return
        }
        let task = Task { [accounts, marketplaceID, refreshToken = session.refreshToken, hook = onRefreshAnswer] in
            try await Self.exchange(refreshToken, accounts: accounts, marketplaceID: marketplaceID, hook: hook)
        }
        refreshing = task
        defer { refreshing = nil }
        let renewed = try await task.value
        session.accessToken = renewed.accessToken
        session.accessTokenExpireTime = renewed.accessTokenExpireTime
        session.refreshToken = renewed.refreshToken
        session.refreshTokenExpireTime = renewed.refreshTokenExpireTime
        if renewed.account != nil { session.account = renewed.account }
        issuedAt = Date().timeIntervalSince1970
        refreshes += 1
        if background { backgroundRefreshes += 1 }
    }

    /// Accounts.Refresh, repeated with the same refresh token while its answer is lost
    /// (UNAVAILABLE): the server answers a repeat within its reuse interval with the same pair.
    private static func exchange(
        _ refreshToken: String, accounts: SoukClient.Accounts, marketplaceID: String, hook: (@Sendable (SoukV1.Session) throws -> Void)?
    ) async throws -> SoukV1.Session {
        let policy = accounts.transport.retry
        var delays = policy.backoff.delays()
        var attempt = 1
        while true {
            do {
                let renewed = try await accounts.refresh(SoukV1.RefreshRequest(marketplaceID: marketplaceID, refreshToken: refreshToken))
                try hook?(renewed)
                return renewed
            } catch let error as SoukError where error.code == .unavailable && attempt < policy.maxAttempts {
                attempt += 1
                try await Task.sleep(for: error.retryDelay ?? delays.next())
            }
        }
    }
}
