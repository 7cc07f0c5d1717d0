import Logging
import SoukAccess
import SoukKit
import SoukIdentity
import SoukMessages
import SoukStore

/// One demo account a person can sign in with.
public struct DemoLogin: Sendable, Equatable {
    public var marketplaceName: String
    public var role: SoukV1.Role
    public var email: String
    public var password: String
    public var marketplaceID: String

    /// `demo login: <marketplace name> | <role> | <email> | <password> | marketplace_id=<uuid>`,
    /// the line `souk-server --demo` prints for each demo account.
    public var line: String {
        "demo login: \(marketplaceName) | \(Self.roleWord(role)) | \(email) | \(password) | marketplace_id=\(marketplaceID)"
    }

    static func roleWord(_ role: SoukV1.Role) -> String {
        switch role {
        case .customer: "customer"
        case .provider: "provider"
        case .courier: "courier"
        case .admin: "admin"
        default: role.protoName
        }
    }
}

/// Loads the five seed marketplaces with their settings and a demo account for every role in
/// each, for `souk-server --demo`. Idempotent: each marketplace is found by its slug and each
/// account by its e-mail before anything is created, so loading twice changes nothing.
///
/// One function per marketplace (`AquaHub.swift`, `ChateauDuNox.swift`, ...): domain work adds
/// its demo data (services, wines, dorms, listings, menus) to the function of its marketplace.
/// Demo passwords are fixed demo data, printed on purpose; the operator's never is.
public struct DemoLoader: Sendable {
    public let identity: Identity
    let logger: Logger

    public init(identity: Identity, logger: Logger = Logger(label: "souk.demo")) {
        self.identity = identity
        self.logger = logger
    }

    /// Loads every demo marketplace and returns the demo logins, marketplace by marketplace.
    public func load() async throws -> [DemoLogin] {
        var logins: [DemoLogin] = []
        logins += try await loadAquaHub()
        logins += try await loadChateauDuNox()
        logins += try await loadDripNDash()
        logins += try await loadMARA()
        logins += try await loadDineSwift()
        logger.info("demo data loaded", metadata: ["logins": "\(logins.count)"])
        return logins
    }

    /// The demo marketplaces and accounts that `logins` name, for the domains' demo data.
    public func context(_ logins: [DemoLogin]) throws -> DemoContext {
        var marketplaces: [String: SoukV1.Marketplace] = [:]
        var accounts: [String: [SoukV1.Role: RecordID]] = [:]
        var byEmail: [String: [String: RecordID]] = [:]
        for login in logins {
            guard let id = RecordID(login.marketplaceID), let marketplace = try identity.marketplaces.marketplace(id),
                  let account = try identity.account(email: login.email, marketplaceID: id), let accountID = RecordID(account.id)
            else { throw DemoError("demo login \(login.email) has no account") }
            marketplaces[marketplace.slug] = marketplace
            accounts[marketplace.slug, default: [:]][login.role] = accountID
            byEmail[marketplace.slug, default: [:]][login.email.lowercased()] = accountID
        }
        return DemoContext(marketplaces: marketplaces, accounts: accounts, accountsByEmail: byEmail)
    }

    /// The marketplace with `template.slug`, created from `template` when missing.
    func marketplace(_ template: SoukV1.Marketplace) async throws -> SoukV1.Marketplace {
        if let existing = try identity.marketplaces.marketplace(slug: template.slug) { return existing }
        return try await identity.marketplaces.create(
            template, idempotencyKey: nil, fingerprint: RequestFingerprint([]), actor: .system("LoadDemo"))
    }

    /// A demo person: names and, in laundry marketplaces, where they live.
    struct Person {
        var role: SoukV1.Role
        var email: String
        var password: String
        var givenName: String
        var familyName: String
        var phone: String = ""
        var laundryProfile: SoukV1.LaundryProfile? = nil
        var dasherAge: Int32 = 0
    }

    /// The account with `person.email` in the marketplace, created with the person's role
    /// active when missing.
    func account(_ person: Person, in marketplace: SoukV1.Marketplace) async throws -> DemoLogin {
        let login = DemoLogin(
            marketplaceName: marketplace.displayName, role: person.role, email: person.email, password: person.password,
            marketplaceID: marketplace.id)
        if try identity.account(email: person.email, marketplaceID: RecordID(marketplace.id)) != nil { return login }
        let new = NewAccount(
            email: person.email, password: person.password, givenName: person.givenName, familyName: person.familyName,
            phone: person.phone, activeRoles: person.role == .customer ? [] : [person.role],
            laundryProfile: person.laundryProfile, dasherAge: person.dasherAge)
        _ = try await identity.createAccount(new, in: marketplace, fields: .demo, actor: .system("LoadDemo"))
        return login
    }

    static func money(_ amountMinor: Int64, _ currency: String) -> SoukV1.Money {
        SoukV1.Money(amountMinor: amountMinor, currencyCode: currency)
    }
}

/// Demo data could not be loaded.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
