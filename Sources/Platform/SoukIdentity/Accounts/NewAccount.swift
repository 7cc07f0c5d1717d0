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
    public var laundryProfile: SoukV1.LaundryProfile?
    /// Laundry couriers (Dashers): age in years; 0 when not given.
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
        var password = "password"
        var roles = "requested_roles"
        var dasherAge = "dasher_age"
        /// Sign-up keeps to the marketplace's allowed e-mail domains and needs the laundry
        /// profile in laundry marketplaces; accounts an admin creates (staff) need neither.
        var isSignUp = true
        /// A laundry profile must name a live dorm of the marketplace on its campus (`DormCheck`),
        /// whoever creates the account; only the demo, whose dorms are loaded after its
        /// accounts, skips it.
        var checksDorm = true
        public static let signUp = FieldNames()
        public static let createAccount = FieldNames(password: "initial_password", roles: "roles", isSignUp: false)
        public static let demo = FieldNames(password: "initial_password", roles: "roles", isSignUp: false, checksDorm: false)
    }

    /// Checks every field against the platform's rules and the marketplace's (allowed e-mail
    /// domains, laundry profile), naming every wrong field at once. Operators (no marketplace)
    /// hold only the operator role.
    func validate(in marketplace: SoukV1.Marketplace?, rules: AccountRules, fields: FieldNames) throws {
        var checks = FieldChecks()
        try validate(in: marketplace, rules: rules, fields: fields, into: &checks)
        try checks.finish()
    }

    /// The same checks, recorded into `checks` (with the other fields of a request). With
    /// `dormRequired` (a dorm check is registered, see `DormCheck`) an empty dorm is named here
    /// with the other fields rather than by the check in the transaction.
    func validate(
        in marketplace: SoukV1.Marketplace?, rules: AccountRules, fields: FieldNames, dormRequired: Bool = false,
        into checks: inout FieldChecks
    ) throws {
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
            default: checks.add("\(fields.roles)[\(index)]", "must be provider, courier or admin")
            }
        }
        if marketplace?.vertical == .laundry {
            if let profile = laundryProfile {
                try Self.validate(profile, field: "laundry_profile", into: &checks)
                // Named here with the other fields (DormCheck would find it only after them).
                if dormRequired, fields.checksDorm, profile.dormID.isEmpty {
                    checks.add("laundry_profile.dorm_id", "is required: a dorm of this marketplace (Laundry.ListDorms)")
                }
            } else if fields.isSignUp {
                checks.add("laundry_profile", "is required in a laundry marketplace (campus, dorm and room)")
            }
            if dasherAge != 0, !(16...120).contains(dasherAge) {
                checks.add(fields.dasherAge, "must be between 16 and 120")
            }
        }
    }

    static func validate(_ profile: SoukV1.LaundryProfile, field: String) throws {
        var checks = FieldChecks()
        try validate(profile, field: field, into: &checks)
        try checks.finish()
    }

    static func validate(_ profile: SoukV1.LaundryProfile, field: String, into checks: inout FieldChecks) throws {
        if let problem = PersonName.problem(with: profile.campus) { checks.add("\(field).campus", problem) }
        // Dorms are checked against the laundry catalog in the transaction (DormCheck); here only the form.
        try checks.check { _ = try RequestFields.optionalID(profile.dormID, field: "\(field).dorm_id") }
        if let problem = PersonName.problem(with: profile.room) { checks.add("\(field).room", problem) }
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
        var account = SoukV1.Account(
            marketplaceID: marketplace?.id ?? "", email: email, givenName: givenName, familyName: familyName, phone: phone,
            locale: locale.isEmpty ? (marketplace?.defaultLocale ?? "") : locale, roles: grants, state: .active,
            rating: SoukV1.RatingSummary(), customerRating: SoukV1.RatingSummary())
        account.emailVerified = emailVerified
        if marketplace?.vertical == .laundry {
            account.laundryProfile = laundryProfile
            if grants.contains(where: { $0.role == .courier }) { Self.makeDasher(&account, age: dasherAge, now: now) }
        }
        return AccountRecord(account: account)
    }

    /// Gives a laundry courier the Dasher profile; a Dasher's rating starts at 5 stars. Once the
    /// courier role is active the profile keeps the first time it was (`dasher_since`).
    public static func makeDasher(_ account: inout SoukV1.Account, age: Int32, now: StoreTime) {
        if account.dasherProfile == nil { account.dasherProfile = SoukV1.DasherProfile(age: age) }
        if age > 0 { account.dasherProfile?.age = age }
        if (account.rating?.count ?? 0) == 0 { account.rating = SoukV1.RatingSummary(count: 0, averageHundredths: 500) }
        if account.roles.contains(where: { $0.role == .courier && $0.status == .active }), account.dasherProfile?.dasherSince == nil {
            account.dasherProfile?.dasherSince = Timestamp(now)
        }
    }
}
