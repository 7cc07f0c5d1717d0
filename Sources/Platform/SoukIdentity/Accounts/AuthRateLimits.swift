#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import SoukGRPC
import SoukKit
import SoukMessages

/// The limits on the calls that check a password, create an account or mail a secret
/// (platform decision 22): a marketplace's `AccountSettings.rate_limits`, each unset field
/// taking its default.
struct AuthRateLimits: Sendable {
    /// One limit, named as its settings field (the name goes into the refusal's metadata).
    enum Kind: String, Sendable, CaseIterable {
        case signInPerAddress = "sign_in_per_address"
        case signInPerAccount = "sign_in_per_account"
        case signUpPerAddress = "sign_up_per_address"
        case passwordResetPerAddress = "password_reset_per_address"
        case passwordResetPerAccount = "password_reset_per_account"
        case verificationPerAddress = "verification_per_address"
        case verificationPerAccount = "verification_per_account"

        /// Per address: generous (a campus or a carrier puts many users behind one address; the
        /// e2e suite signs up hundreds of accounts from one). Per account: tight.
        var defaultLimit: RateLimit {
            switch self {
            case .signInPerAddress: RateLimit(count: 1000, window: .seconds(600))
            case .signInPerAccount: RateLimit(count: 30, window: .seconds(900))
            case .signUpPerAddress: RateLimit(count: 500, window: .seconds(600))
            case .passwordResetPerAddress: RateLimit(count: 100, window: .seconds(600))
            case .passwordResetPerAccount: RateLimit(count: 5, window: .seconds(3600))
            case .verificationPerAddress: RateLimit(count: 1000, window: .seconds(600))
            case .verificationPerAccount: RateLimit(count: 30, window: .seconds(3600))
            }
        }

        /// The field of the settings message.
        func setting(_ settings: SoukV1.AuthRateLimits?) -> SoukV1.RateLimit? {
            switch self {
            case .signInPerAddress: settings?.signInPerAddress
            case .signInPerAccount: settings?.signInPerAccount
            case .signUpPerAddress: settings?.signUpPerAddress
            case .passwordResetPerAddress: settings?.passwordResetPerAddress
            case .passwordResetPerAccount: settings?.passwordResetPerAccount
            case .verificationPerAddress: settings?.verificationPerAddress
            case .verificationPerAccount: settings?.verificationPerAccount
            }
        }
    }

    static let maxCount: Int32 = 100_000
    static let windowRange: ClosedRange<Duration> = .seconds(1) ... .seconds(86_400)

    private let settings: SoukV1.AuthRateLimits?

    init(_ settings: SoukV1.AuthRateLimits?) {
        self.settings = settings
    }

    /// The limit in force: the setting's fields, the default's where unset.
    subscript(kind: Kind) -> RateLimit {
        let configured = kind.setting(settings)
        let fallback = kind.defaultLimit
        return RateLimit(
            count: configured.map { $0.count > 0 ? Int($0.count) : fallback.count } ?? fallback.count,
            window: configured?.window ?? fallback.window)
    }

    /// Records every violation of the settings under `path` (`settings.accounts.rate_limits`).
    static func validate(_ settings: SoukV1.AuthRateLimits, path: String, into checks: inout FieldChecks) {
        for kind in Kind.allCases {
            guard let limit = kind.setting(settings) else { continue }
            checks.require(
                (0...maxCount).contains(limit.count), "\(path).\(kind.rawValue).count", "must be between 0 (the default) and \(maxCount)")
            if let window = limit.window {
                checks.require(
                    windowRange.contains(window), "\(path).\(kind.rawValue).window",
                    "must be between \(windowRange.lowerBound.components.seconds) and \(windowRange.upperBound.components.seconds) seconds")
            }
        }
    }
}

extension AccountsService {
    /// Spends one call from each of `subjects`' buckets in the call's marketplace, or refuses
    /// the call with RESOURCE_EXHAUSTED (RATE_LIMITED) and the wait in RetryInfo when any is
    /// empty (spending nothing then). Runs before any other work of the call.
    func checkRateLimits(_ subjects: [(kind: AuthRateLimits.Kind, subject: String)], _ call: SoukCall) throws {
        let scope = Self.scopeKey(call)
        let limits = AuthRateLimits(call.marketplace?.settings?.accounts?.rateLimits)
        let keys = subjects.map { (key: "\(scope)|\($0.kind.rawValue)|\($0.subject)", limit: limits[$0.kind]) }
        guard let refusal = identity.rateLimiter.takeAll(keys) else { return }
        let met = subjects[refusal.index].kind
        let wait = refusal.wait
        let seconds = (wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0)
        logger.notice("rate limited", metadata: ["limit": "\(met.rawValue)", "marketplace_id": "\(scope)"])
        throw RPCError.souk(
            .resourceExhausted, .rateLimited,
            "too many calls (\(met.rawValue): \(limits[met])): try again in \(seconds) seconds",
            metadata: ["limit": met.rawValue], retryDelay: wait)
    }

    /// The subject of the per-address limits: the caller's IPv4 address without its port
    /// ("ipv4:127.0.0.1"), or the /64 network of an IPv6 address ("ipv6:2001:db8:0:1::/64"), since
    /// one IPv6 client commonly holds a whole /64 and could otherwise change address per call.
    static func clientAddress(_ call: SoukCall) -> String {
        clientAddress(peer: call.context.peer)
    }

    static func clientAddress(peer: String) -> String {
        if peer.hasPrefix("ipv6:["), let end = peer.firstIndex(of: "]") {
            let text = String(peer[peer.index(peer.startIndex, offsetBy: 6)..<end])
            var bytes = [UInt8](repeating: 0, count: 16)
            guard inet_pton(AF_INET6, text, &bytes) == 1 else { return String(peer[...end]) }
            let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            return "ipv6:" + groups.joined(separator: ":") + "::/64"
        }
        if peer.hasPrefix("ipv4:"), let colon = peer.lastIndex(of: ":"), colon > peer.index(peer.startIndex, offsetBy: 4) {
            return String(peer[..<colon])
        }
        return peer
    }
}
