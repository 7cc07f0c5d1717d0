import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore

/// What creating an account takes (sign-up, an admin's CreateAccount, the demo loader, the
/// operator bootstrap). `fields` names the request fields, for error messages.
public struct NewAccount: Sendable {
    public var email: String
    public var password: String
    public var givenName: String
    public var familyName: String
    public var phone: String
    public var locale: String
    /// Roles granted active besides customer.
    public var activeRoles: [SoukV1.Role]
    /// Roles requested, pending an admin's decision.
    public var pendingRoles: [SoukV1.Role]
    /// The laundry vertical's part of the request (`AccountPart`): identity passes it on.
    public var laundryProfile: SoukV1.LaundryProfile?
    /// Laundry couriers (Dashers): age in years; 0 when not given. Passed on like the profile.
    public var dasherAge: Int32

    public init(
        email: String, password: String, givenName: String, familyName: String = "", phone: String = "", locale: String = "",
        activeRoles: [SoukV1.Role] = [], pendingRoles: [SoukV1.Role] = [], laundryProfile: SoukV1.LaundryProfile? = nil,
        dasherAge: Int32 = 0
    ) {
        self.email = email
        self.password = password
        self.givenName = givenName
        self.familyName = familyName
        self.phone = phone
        self.locale = locale
        self.activeRoles = activeRoles
        self.pendingRoles = pendingRoles
        self.laundryProfile = laundryProfile
        self.dasherAge = dasherAge
    }

    /// Request field names, so errors point at what the client sent.
    public struct FieldNames: Sendable {
        public internal(set) var password = "password"
        public internal(set) var roles = "requested_roles"
        public internal(set) var dasherAge = "dasher_age"
        /// Sign-up keeps to the marketplace's allowed e-mail domains and may need the vertical's
        /// part (a laundry profile); accounts an admin creates (staff) need neither.
        public internal(set) var isSignUp = true
        /// Whether the vertical checks its part against its records (a laundry profile's dorm
        /// exists); only the demo, whose vertical records are loaded after its accounts, skips it.
        public internal(set) var checksRecords = true
        public static let signUp = FieldNames()
        public static let createAccount = FieldNames(password: "initial_password", roles: "roles", isSignUp: false)
        public static let demo = FieldNames(password: "initial_password", roles: "roles", isSignUp: false, checksRecords: false)
    }

    /// Checks identity's fields against the platform's rules and the marketplace's (allowed
    /// e-mail domains), recorded into `checks` with the other fields of a request; the vertical's
    /// part is its own (`AccountPart.checkNew`). Operators (no marketplace) hold only the
    /// operator role.
    func validate(in marketplace: SoukV1.Marketplace?, rules: AccountRules, fields: FieldNames, into checks: inout FieldChecks) throws {
        if let problem = EmailAddress.problem(with: email) {
            checks.add("email", problem)
        } else if fields.isSignUp, !EmailAddress.isAllowed(email, domains: rules.allowedEmailDomains) {
            checks.add(
                "email", "must be an address at \(rules.allowedEmailDomains.map { "@" + $0 }.joined(separator: " or "))",
                reason: .emailDomainNotAllowed)
        }
        if let problem = PasswordPolicy.problem(with: password) { checks.add(fields.password, problem, reason: .weakPassword) }
        if let problem = PersonName.problem(with: givenName) { checks.add("given_name", problem) }
        if !familyName.isEmpty, let problem = PersonName.problem(with: familyName) { checks.add("family_name", problem) }
        if !phone.isEmpty, let problem = PhoneNumber.problem(with: phone) { checks.add("phone", problem) }
        if !locale.isEmpty { try checks.check { try MarketplaceValidation.locale(locale, field: "locale") } }
        for (index, role) in (activeRoles + pendingRoles).enumerated() {
            switch role {
            case .provider, .courier, .admin, .customer: continue
            case .operator where marketplace == nil: continue
            case .pushAdapter where marketplace == nil: continue
            default: checks.add("\(fields.roles)[\(index)]", "must be provider, courier or admin")
            }
        }
    }

    /// The stored account: customer active, the other roles active or pending as asked. An
    /// address typed at sign-up is unproven until `Accounts.VerifyEmail`; one an admin (or the
    /// demo) enters is taken as given.
    func record(in marketplace: SoukV1.Marketplace?, now: StoreTime, decidedBy: String, emailVerified: Bool) -> AccountRecord {
        let time = Timestamp(now)
        var grants: [SoukV1.RoleGrant] = []
        if marketplace != nil {
            grants.append(SoukV1.RoleGrant(role: .customer, status: .active, requestTime: time, decideTime: time))
        }
        for role in activeRoles where role != .customer && !grants.contains(where: { $0.role == role }) {
            grants.append(SoukV1.RoleGrant(role: role, status: .active, decidedByAccountID: decidedBy, requestTime: time, decideTime: time))
        }
        for role in pendingRoles where role != .customer && !grants.contains(where: { $0.role == role }) {
            grants.append(SoukV1.RoleGrant(role: role, status: .pending, requestTime: time))
        }
        var account = SoukStoreV1.Account(
            marketplaceID: marketplace?.id ?? "", email: email, givenName: givenName, familyName: familyName, phone: phone,
            locale: locale.isEmpty ? (marketplace?.defaultLocale ?? "") : locale, roles: grants, state: .active)
        account.emailVerified = emailVerified
        return AccountRecord(account: account)
    }
}
