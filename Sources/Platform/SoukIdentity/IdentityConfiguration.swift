import SoukMessages
import Logging

/// Server-wide identity settings, from the command line.
public struct IdentityConfiguration: Sendable {
    /// Longest access-token lifetime; a marketplace's `accounts.access_token_ttl` may only shorten it.
    public var accessTokenTTL: Duration = .seconds(3600)
    /// Longest refresh-token lifetime; a marketplace's `accounts.refresh_token_ttl` may only shorten it.
    public var refreshTokenTTL: Duration = .seconds(30 * 24 * 3600)
    /// Argon2id memory per password hash (libsodium INTERACTIVE by default).
    public var passwordHashMemoryKiB: Int = PasswordHasher.defaultMemoryKiB
    /// Threads hashing passwords (bounds the CPU and memory hashing takes).
    public var passwordHashThreads = 2
    public var logger = Logger(label: "souk.identity")

    public init() {}
}

/// The account rules of one marketplace (or of the platform), with the contract's defaults
/// where a setting is unset: 5 failed logins lock for 15 minutes, reset tokens last 1 hour, a
/// rotated refresh token may come back for 30 seconds.
struct AccountRules: Sendable {
    var maxFailedLogins: Int32
    var lockoutDuration: Duration
    var passwordResetTTL: Duration
    var accessTokenTTL: Duration
    var refreshTokenTTL: Duration
    var refreshReuseInterval: Duration
    var allowedEmailDomains: [String]

    static let defaultMaxFailedLogins: Int32 = 5
    static let defaultLockout: Duration = .seconds(15 * 60)
    static let defaultPasswordResetTTL: Duration = .seconds(3600)
    static let defaultRefreshReuseInterval: Duration = .seconds(30)
    /// Long enough for a retry over a slow network, short enough to leave a stolen token little use.
    static let refreshReuseIntervalRange: ClosedRange<Duration> = .seconds(1) ... .seconds(300)

    init(_ settings: SoukV1.AccountSettings?, server: IdentityConfiguration) {
        maxFailedLogins = settings.map { $0.maxFailedLogins > 0 ? $0.maxFailedLogins : Self.defaultMaxFailedLogins } ?? Self.defaultMaxFailedLogins
        lockoutDuration = settings?.lockoutDuration.flatMap { $0 > .zero ? $0 : nil } ?? Self.defaultLockout
        passwordResetTTL = settings?.passwordResetTTL.flatMap { $0 > .zero ? $0 : nil } ?? Self.defaultPasswordResetTTL
        accessTokenTTL = min(server.accessTokenTTL, settings?.accessTokenTTL.flatMap { $0 > .zero ? $0 : nil } ?? server.accessTokenTTL)
        refreshTokenTTL = min(server.refreshTokenTTL, settings?.refreshTokenTTL.flatMap { $0 > .zero ? $0 : nil } ?? server.refreshTokenTTL)
        refreshReuseInterval = settings?.refreshReuseInterval ?? Self.defaultRefreshReuseInterval
        allowedEmailDomains = settings?.allowedEmailDomains ?? []
    }
}
