import CProtobufC
import SoukProtoC

// souk/v1/accounts.proto: accounts, sessions, roles and saved addresses.
extension SoukV1 {
    /// Where one role of an account stands.
    public enum RoleStatus: ProtoEnum, CaseIterable {
        case unspecified
        /// Requested, waiting for an admin.
        case pending
        /// Usable.
        case active
        /// Refused by an admin (reason kept).
        case rejected
        /// Taken away by an admin.
        case revoked
        case unrecognized(Int32)

        public static let allCases: [RoleStatus] = [.unspecified, .pending, .active, .rejected, .revoked]

        public init(rawValue: Int32) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .pending
            case 2: self = .active
            case 3: self = .rejected
            case 4: self = .revoked
            default: self = .unrecognized(rawValue)
            }
        }

        public var rawValue: Int32 {
            switch self {
            case .unspecified: 0
            case .pending: 1
            case .active: 2
            case .rejected: 3
            case .revoked: 4
            case .unrecognized(let value): value
            }
        }

        /// The value's name in the contract, for example `ROLE_STATUS_PENDING`.
        public var protoName: String {
            switch self {
            case .unspecified: "ROLE_STATUS_UNSPECIFIED"
            case .pending: "ROLE_STATUS_PENDING"
            case .active: "ROLE_STATUS_ACTIVE"
            case .rejected: "ROLE_STATUS_REJECTED"
            case .revoked: "ROLE_STATUS_REVOKED"
            case .unrecognized(let value): "ROLE_STATUS_\(value)"
            }
        }
    }
}

extension SoukV1 {
    /// Whether an account can be used.
    public enum AccountState: ProtoEnum, CaseIterable {
        case unspecified
        case active
        /// Blocked by an admin: no login, tokens rejected.
        case blocked
        /// Deleted by its owner; personal data erased.
        case deleted
        case unrecognized(Int32)

        public static let allCases: [AccountState] = [.unspecified, .active, .blocked, .deleted]

        public init(rawValue: Int32) {
            switch rawValue {
            case 0: self = .unspecified
            case 1: self = .active
            case 2: self = .blocked
            case 3: self = .deleted
            default: self = .unrecognized(rawValue)
            }
        }

        public var rawValue: Int32 {
            switch self {
            case .unspecified: 0
            case .active: 1
            case .blocked: 2
            case .deleted: 3
            case .unrecognized(let value): value
            }
        }

        /// The value's name in the contract, for example `ACCOUNT_STATE_ACTIVE`.
        public var protoName: String {
            switch self {
            case .unspecified: "ACCOUNT_STATE_UNSPECIFIED"
            case .active: "ACCOUNT_STATE_ACTIVE"
            case .blocked: "ACCOUNT_STATE_BLOCKED"
            case .deleted: "ACCOUNT_STATE_DELETED"
            case .unrecognized(let value): "ACCOUNT_STATE_\(value)"
            }
        }
    }
}

extension SoukV1 {
    /// One role of an account and the decision on it.
    public struct RoleGrant: Sendable, Hashable {
        public var role: SoukV1.Role
        public var status: SoukV1.RoleStatus
        /// Rejection or revocation reason.
        public var reason: String
        /// Admin who decided; empty for the customer role and roles given at creation.
        public var decidedByAccountID: String
        public var requestTime: Timestamp?
        public var decideTime: Timestamp?

        public init(
            role: SoukV1.Role = .unspecified,
            status: SoukV1.RoleStatus = .unspecified,
            reason: String = "",
            decidedByAccountID: String = "",
            requestTime: Timestamp? = nil,
            decideTime: Timestamp? = nil
        ) {
            self.role = role
            self.status = status
            self.reason = reason
            self.decidedByAccountID = decidedByAccountID
            self.requestTime = requestTime
            self.decideTime = decideTime
        }
    }
}

extension SoukV1.RoleGrant: CProtoMessage {
    public static var protoName: String { "souk.v1.RoleGrant" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__RoleGrant>) { souk__v1__role_grant__init(c) }

    init(c: Souk__V1__RoleGrant) throws {
        role = .init(cValue: c.role)
        status = .init(cValue: c.status)
        reason = try Unpacked.string(c.reason, "reason")
        decidedByAccountID = try Unpacked.string(c.decided_by_account_id, "decided_by_account_id")
        requestTime = try Unpacked.message(c.request_time, "request_time")
        decideTime = try Unpacked.message(c.decide_time, "decide_time")
    }

    func fill(_ c: inout Souk__V1__RoleGrant, _ arena: inout EncodingArena) {
        c.role = role.cValue()
        c.status = status.cValue()
        c.reason = arena.string(reason)
        c.decided_by_account_id = arena.string(decidedByAccountID)
        c.request_time = arena.message(requestTime)
        c.decide_time = arena.message(decideTime)
    }
}

extension SoukV1 {
    /// Drip 'n Dash: where the user lives.
    public struct LaundryProfile: Sendable, Hashable {
        /// Campus name ("Busch", "College Avenue").
        public var campus: String
        /// The dorm (Laundry.ListDorms).
        public var dormID: String
        /// Room number.
        public var room: String

        public init(campus: String = "", dormID: String = "", room: String = "") {
            self.campus = campus
            self.dormID = dormID
            self.room = room
        }
    }
}

extension SoukV1.LaundryProfile: CProtoMessage {
    public static var protoName: String { "souk.v1.LaundryProfile" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__LaundryProfile>) { souk__v1__laundry_profile__init(c) }

    init(c: Souk__V1__LaundryProfile) throws {
        campus = try Unpacked.string(c.campus, "campus")
        dormID = try Unpacked.string(c.dorm_id, "dorm_id")
        room = try Unpacked.string(c.room, "room")
    }

    func fill(_ c: inout Souk__V1__LaundryProfile, _ arena: inout EncodingArena) {
        c.campus = arena.string(campus)
        c.dorm_id = arena.string(dormID)
        c.room = arena.string(room)
    }
}

extension SoukV1 {
    /// Drip 'n Dash: what a Dasher (courier) carries besides the laundry profile.
    public struct DasherProfile: Sendable, Hashable {
        /// Age in years.
        public var age: Int32
        /// Jobs brought to stage 9.
        public var completedJobs: Int64
        /// Visible to customers choosing a preferred Dasher.
        public var acceptingRequests: Bool

        public init(age: Int32 = 0, completedJobs: Int64 = 0, acceptingRequests: Bool = false) {
            self.age = age
            self.completedJobs = completedJobs
            self.acceptingRequests = acceptingRequests
        }
    }
}

extension SoukV1.DasherProfile: CProtoMessage {
    public static var protoName: String { "souk.v1.DasherProfile" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__DasherProfile>) { souk__v1__dasher_profile__init(c) }

    init(c: Souk__V1__DasherProfile) throws {
        age = c.age
        completedJobs = c.completed_jobs
        acceptingRequests = c.accepting_requests != 0
    }

    func fill(_ c: inout Souk__V1__DasherProfile, _ arena: inout EncodingArena) {
        c.age = age
        c.completed_jobs = completedJobs
        c.accepting_requests = acceptingRequests ? 1 : 0
    }
}

extension SoukV1 {
    /// A person's account in one marketplace (or, for operators, on the platform).
    public struct Account: Sendable, Hashable {
        public var id: String
        /// Empty for platform operators.
        public var marketplaceID: String
        /// Login e-mail as typed (compared case-insensitively).
        public var email: String
        /// First name; shown to other parties.
        public var givenName: String
        /// Last name; never shown to other parties.
        public var familyName: String
        /// E.164; never shown to other parties.
        public var phone: String
        public var avatarURL: String
        /// BCP 47 preferred language.
        public var locale: String
        /// Every role and its status.
        public var roles: [SoukV1.RoleGrant]
        public var state: SoukV1.AccountState
        /// Why an admin blocked the account.
        public var blockReason: String
        /// Ratings received as courier, provider or lessor; for a Dasher this is the Dasher rating, which starts at 5 stars.
        public var rating: SoukV1.RatingSummary?
        /// Ratings received as customer (Dashers rate customers).
        public var customerRating: SoukV1.RatingSummary?
        /// Laundry marketplaces only.
        public var laundryProfile: SoukV1.LaundryProfile?
        /// Laundry marketplaces, courier accounts only.
        public var dasherProfile: SoukV1.DasherProfile?
        /// Failed logins in a row and lockout end.
        public var failedLoginCount: Int32
        public var lockedUntil: Timestamp?
        public var lastLoginTime: Timestamp?
        public var version: Int64
        public var createTime: Timestamp?
        public var updateTime: Timestamp?

        public init(
            id: String = "",
            marketplaceID: String = "",
            email: String = "",
            givenName: String = "",
            familyName: String = "",
            phone: String = "",
            avatarURL: String = "",
            locale: String = "",
            roles: [SoukV1.RoleGrant] = [],
            state: SoukV1.AccountState = .unspecified,
            blockReason: String = "",
            rating: SoukV1.RatingSummary? = nil,
            customerRating: SoukV1.RatingSummary? = nil,
            laundryProfile: SoukV1.LaundryProfile? = nil,
            dasherProfile: SoukV1.DasherProfile? = nil,
            failedLoginCount: Int32 = 0,
            lockedUntil: Timestamp? = nil,
            lastLoginTime: Timestamp? = nil,
            version: Int64 = 0,
            createTime: Timestamp? = nil,
            updateTime: Timestamp? = nil
        ) {
            self.id = id
            self.marketplaceID = marketplaceID
            self.email = email
            self.givenName = givenName
            self.familyName = familyName
            self.phone = phone
            self.avatarURL = avatarURL
            self.locale = locale
            self.roles = roles
            self.state = state
            self.blockReason = blockReason
            self.rating = rating
            self.customerRating = customerRating
            self.laundryProfile = laundryProfile
            self.dasherProfile = dasherProfile
            self.failedLoginCount = failedLoginCount
            self.lockedUntil = lockedUntil
            self.lastLoginTime = lastLoginTime
            self.version = version
            self.createTime = createTime
            self.updateTime = updateTime
        }
    }
}

extension SoukV1.Account: CProtoMessage {
    public static var protoName: String { "souk.v1.Account" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__Account>) { souk__v1__account__init(c) }

    init(c: Souk__V1__Account) throws {
        id = try Unpacked.string(c.id, "id")
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        email = try Unpacked.string(c.email, "email")
        givenName = try Unpacked.string(c.given_name, "given_name")
        familyName = try Unpacked.string(c.family_name, "family_name")
        phone = try Unpacked.string(c.phone, "phone")
        avatarURL = try Unpacked.string(c.avatar_url, "avatar_url")
        locale = try Unpacked.string(c.locale, "locale")
        roles = try Unpacked.messages(c.n_roles, c.roles, "roles")
        state = .init(cValue: c.state)
        blockReason = try Unpacked.string(c.block_reason, "block_reason")
        rating = try Unpacked.message(c.rating, "rating")
        customerRating = try Unpacked.message(c.customer_rating, "customer_rating")
        laundryProfile = try Unpacked.message(c.laundry_profile, "laundry_profile")
        dasherProfile = try Unpacked.message(c.dasher_profile, "dasher_profile")
        failedLoginCount = c.failed_login_count
        lockedUntil = try Unpacked.message(c.locked_until, "locked_until")
        lastLoginTime = try Unpacked.message(c.last_login_time, "last_login_time")
        version = c.version
        createTime = try Unpacked.message(c.create_time, "create_time")
        updateTime = try Unpacked.message(c.update_time, "update_time")
    }

    func fill(_ c: inout Souk__V1__Account, _ arena: inout EncodingArena) {
        c.id = arena.string(id)
        c.marketplace_id = arena.string(marketplaceID)
        c.email = arena.string(email)
        c.given_name = arena.string(givenName)
        c.family_name = arena.string(familyName)
        c.phone = arena.string(phone)
        c.avatar_url = arena.string(avatarURL)
        c.locale = arena.string(locale)
        c.n_roles = roles.count
        c.roles = arena.messages(roles)
        c.state = state.cValue()
        c.block_reason = arena.string(blockReason)
        c.rating = arena.message(rating)
        c.customer_rating = arena.message(customerRating)
        c.laundry_profile = arena.message(laundryProfile)
        c.dasher_profile = arena.message(dasherProfile)
        c.failed_login_count = failedLoginCount
        c.locked_until = arena.message(lockedUntil)
        c.last_login_time = arena.message(lastLoginTime)
        c.version = version
        c.create_time = arena.message(createTime)
        c.update_time = arena.message(updateTime)
    }
}

extension SoukV1 {
    /// A signed-in session: the tokens to call with and when they expire.
    public struct Session: Sendable, Hashable {
        /// Send as "authorization: Bearer <access_token>".
        public var accessToken: String
        public var accessTokenExpireTime: Timestamp?
        /// Send to Refresh to get a new pair; keep it secret.
        public var refreshToken: String
        public var refreshTokenExpireTime: Timestamp?
        /// Identifies the session (for Logout).
        public var sessionID: String
        /// The signed-in account.
        public var account: SoukV1.Account?

        public init(
            accessToken: String = "",
            accessTokenExpireTime: Timestamp? = nil,
            refreshToken: String = "",
            refreshTokenExpireTime: Timestamp? = nil,
            sessionID: String = "",
            account: SoukV1.Account? = nil
        ) {
            self.accessToken = accessToken
            self.accessTokenExpireTime = accessTokenExpireTime
            self.refreshToken = refreshToken
            self.refreshTokenExpireTime = refreshTokenExpireTime
            self.sessionID = sessionID
            self.account = account
        }
    }
}

extension SoukV1.Session: CProtoMessage {
    public static var protoName: String { "souk.v1.Session" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__Session>) { souk__v1__session__init(c) }

    init(c: Souk__V1__Session) throws {
        accessToken = try Unpacked.string(c.access_token, "access_token")
        accessTokenExpireTime = try Unpacked.message(c.access_token_expire_time, "access_token_expire_time")
        refreshToken = try Unpacked.string(c.refresh_token, "refresh_token")
        refreshTokenExpireTime = try Unpacked.message(c.refresh_token_expire_time, "refresh_token_expire_time")
        sessionID = try Unpacked.string(c.session_id, "session_id")
        account = try Unpacked.message(c.account, "account")
    }

    func fill(_ c: inout Souk__V1__Session, _ arena: inout EncodingArena) {
        c.access_token = arena.string(accessToken)
        c.access_token_expire_time = arena.message(accessTokenExpireTime)
        c.refresh_token = arena.string(refreshToken)
        c.refresh_token_expire_time = arena.message(refreshTokenExpireTime)
        c.session_id = arena.string(sessionID)
        c.account = arena.message(account)
    }
}

extension SoukV1 {
    /// An address in an account's address book (soft-deleted by archiving).
    public struct SavedAddress: Sendable, Hashable {
        public var id: String
        public var accountID: String
        public var address: SoukV1.Address?
        /// Preselected at checkout; setting it clears it on the account's other addresses.
        public var isDefault: Bool
        public var archived: Bool
        public var archiveTime: Timestamp?
        public var version: Int64
        public var createTime: Timestamp?
        public var updateTime: Timestamp?

        public init(
            id: String = "",
            accountID: String = "",
            address: SoukV1.Address? = nil,
            isDefault: Bool = false,
            archived: Bool = false,
            archiveTime: Timestamp? = nil,
            version: Int64 = 0,
            createTime: Timestamp? = nil,
            updateTime: Timestamp? = nil
        ) {
            self.id = id
            self.accountID = accountID
            self.address = address
            self.isDefault = isDefault
            self.archived = archived
            self.archiveTime = archiveTime
            self.version = version
            self.createTime = createTime
            self.updateTime = updateTime
        }
    }
}

extension SoukV1.SavedAddress: CProtoMessage {
    public static var protoName: String { "souk.v1.SavedAddress" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__SavedAddress>) { souk__v1__saved_address__init(c) }

    init(c: Souk__V1__SavedAddress) throws {
        id = try Unpacked.string(c.id, "id")
        accountID = try Unpacked.string(c.account_id, "account_id")
        address = try Unpacked.message(c.address, "address")
        isDefault = c.is_default != 0
        archived = c.archived != 0
        archiveTime = try Unpacked.message(c.archive_time, "archive_time")
        version = c.version
        createTime = try Unpacked.message(c.create_time, "create_time")
        updateTime = try Unpacked.message(c.update_time, "update_time")
    }

    func fill(_ c: inout Souk__V1__SavedAddress, _ arena: inout EncodingArena) {
        c.id = arena.string(id)
        c.account_id = arena.string(accountID)
        c.address = arena.message(address)
        c.is_default = isDefault ? 1 : 0
        c.archived = archived ? 1 : 0
        c.archive_time = arena.message(archiveTime)
        c.version = version
        c.create_time = arena.message(createTime)
        c.update_time = arena.message(updateTime)
    }
}

extension SoukV1 {
    /// Request of Accounts.SignUp.
    public struct SignUpRequest: Sendable, Hashable {
        public var marketplaceID: String
        /// Idempotency key.
        public var requestID: String
        public var email: String
        public var password: String
        public var givenName: String
        public var familyName: String
        /// Optional, E.164.
        public var phone: String
        /// Roles to request besides customer: provider, courier or admin; each starts pending.
        public var requestedRoles: [SoukV1.Role]
        /// Required in laundry marketplaces.
        public var laundryProfile: SoukV1.LaundryProfile?
        /// Laundry marketplaces, when requesting the courier role: age in years.
        public var dasherAge: Int32
        /// Device label for the session ("iPhone 15").
        public var deviceName: String

        public init(
            marketplaceID: String = "",
            requestID: String = "",
            email: String = "",
            password: String = "",
            givenName: String = "",
            familyName: String = "",
            phone: String = "",
            requestedRoles: [SoukV1.Role] = [],
            laundryProfile: SoukV1.LaundryProfile? = nil,
            dasherAge: Int32 = 0,
            deviceName: String = ""
        ) {
            self.marketplaceID = marketplaceID
            self.requestID = requestID
            self.email = email
            self.password = password
            self.givenName = givenName
            self.familyName = familyName
            self.phone = phone
            self.requestedRoles = requestedRoles
            self.laundryProfile = laundryProfile
            self.dasherAge = dasherAge
            self.deviceName = deviceName
        }
    }
}

extension SoukV1.SignUpRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.SignUpRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__SignUpRequest>) { souk__v1__sign_up_request__init(c) }

    init(c: Souk__V1__SignUpRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        requestID = try Unpacked.string(c.request_id, "request_id")
        email = try Unpacked.string(c.email, "email")
        password = try Unpacked.string(c.password, "password")
        givenName = try Unpacked.string(c.given_name, "given_name")
        familyName = try Unpacked.string(c.family_name, "family_name")
        phone = try Unpacked.string(c.phone, "phone")
        requestedRoles = Unpacked.enumValues(c.n_requested_roles, c.requested_roles)
        laundryProfile = try Unpacked.message(c.laundry_profile, "laundry_profile")
        dasherAge = c.dasher_age
        deviceName = try Unpacked.string(c.device_name, "device_name")
    }

    func fill(_ c: inout Souk__V1__SignUpRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.request_id = arena.string(requestID)
        c.email = arena.string(email)
        c.password = arena.string(password)
        c.given_name = arena.string(givenName)
        c.family_name = arena.string(familyName)
        c.phone = arena.string(phone)
        c.n_requested_roles = requestedRoles.count
        c.requested_roles = arena.enumValues(requestedRoles, as: Souk__V1__Role.self)
        c.laundry_profile = arena.message(laundryProfile)
        c.dasher_age = dasherAge
        c.device_name = arena.string(deviceName)
    }
}

extension SoukV1.SignUpRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Response of Accounts.SignUp.
    public struct SignUpResponse: Sendable, Hashable {
        public var account: SoukV1.Account?
        /// Signed in at once.
        public var session: SoukV1.Session?

        public init(account: SoukV1.Account? = nil, session: SoukV1.Session? = nil) {
            self.account = account
            self.session = session
        }
    }
}

extension SoukV1.SignUpResponse: CProtoMessage {
    public static var protoName: String { "souk.v1.SignUpResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__SignUpResponse>) { souk__v1__sign_up_response__init(c) }

    init(c: Souk__V1__SignUpResponse) throws {
        account = try Unpacked.message(c.account, "account")
        session = try Unpacked.message(c.session, "session")
    }

    func fill(_ c: inout Souk__V1__SignUpResponse, _ arena: inout EncodingArena) {
        c.account = arena.message(account)
        c.session = arena.message(session)
    }
}

extension SoukV1 {
    /// Request of Accounts.Login.
    public struct LoginRequest: Sendable, Hashable {
        /// Empty only for platform operators.
        public var marketplaceID: String
        public var email: String
        public var password: String
        /// Device label for the session.
        public var deviceName: String

        public init(marketplaceID: String = "", email: String = "", password: String = "", deviceName: String = "") {
            self.marketplaceID = marketplaceID
            self.email = email
            self.password = password
            self.deviceName = deviceName
        }
    }
}

extension SoukV1.LoginRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.LoginRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__LoginRequest>) { souk__v1__login_request__init(c) }

    init(c: Souk__V1__LoginRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        email = try Unpacked.string(c.email, "email")
        password = try Unpacked.string(c.password, "password")
        deviceName = try Unpacked.string(c.device_name, "device_name")
    }

    func fill(_ c: inout Souk__V1__LoginRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.email = arena.string(email)
        c.password = arena.string(password)
        c.device_name = arena.string(deviceName)
    }
}

extension SoukV1.LoginRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.Refresh.
    public struct RefreshRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var refreshToken: String

        public init(marketplaceID: String = "", refreshToken: String = "") {
            self.marketplaceID = marketplaceID
            self.refreshToken = refreshToken
        }
    }
}

extension SoukV1.RefreshRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.RefreshRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__RefreshRequest>) { souk__v1__refresh_request__init(c) }

    init(c: Souk__V1__RefreshRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        refreshToken = try Unpacked.string(c.refresh_token, "refresh_token")
    }

    func fill(_ c: inout Souk__V1__RefreshRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.refresh_token = arena.string(refreshToken)
    }
}

extension SoukV1.RefreshRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.Logout.
    public struct LogoutRequest: Sendable, Hashable {
        public var marketplaceID: String
        /// End every session of the account, not only the caller's.
        public var allSessions: Bool

        public init(marketplaceID: String = "", allSessions: Bool = false) {
            self.marketplaceID = marketplaceID
            self.allSessions = allSessions
        }
    }
}

extension SoukV1.LogoutRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.LogoutRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__LogoutRequest>) { souk__v1__logout_request__init(c) }

    init(c: Souk__V1__LogoutRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        allSessions = c.all_sessions != 0
    }

    func fill(_ c: inout Souk__V1__LogoutRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.all_sessions = allSessions ? 1 : 0
    }
}

extension SoukV1.LogoutRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Response of Accounts.Logout.
    public struct LogoutResponse: Sendable, Hashable {
        /// Sessions ended.
        public var endedSessions: Int32

        public init(endedSessions: Int32 = 0) {
            self.endedSessions = endedSessions
        }
    }
}

extension SoukV1.LogoutResponse: CProtoMessage {
    public static var protoName: String { "souk.v1.LogoutResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__LogoutResponse>) { souk__v1__logout_response__init(c) }

    init(c: Souk__V1__LogoutResponse) throws {
        endedSessions = c.ended_sessions
    }

    func fill(_ c: inout Souk__V1__LogoutResponse, _ arena: inout EncodingArena) {
        c.ended_sessions = endedSessions
    }
}

extension SoukV1 {
    /// Request of Accounts.GetMe.
    public struct GetMeRequest: Sendable, Hashable {
        public var marketplaceID: String

        public init(marketplaceID: String = "") {
            self.marketplaceID = marketplaceID
        }
    }
}

extension SoukV1.GetMeRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.GetMeRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__GetMeRequest>) { souk__v1__get_me_request__init(c) }

    init(c: Souk__V1__GetMeRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
    }

    func fill(_ c: inout Souk__V1__GetMeRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
    }
}

extension SoukV1.GetMeRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.UpdateProfile.
    public struct UpdateProfileRequest: Sendable, Hashable {
        public var marketplaceID: String
        /// account.id names the account; only the paths in update_mask are read.
        public var account: SoukV1.Account?
        public var updateMask: GoogleProtobuf.FieldMask?
        public var expectedVersion: Int64

        public init(
            marketplaceID: String = "",
            account: SoukV1.Account? = nil,
            updateMask: GoogleProtobuf.FieldMask? = nil,
            expectedVersion: Int64 = 0
        ) {
            self.marketplaceID = marketplaceID
            self.account = account
            self.updateMask = updateMask
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.UpdateProfileRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.UpdateProfileRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__UpdateProfileRequest>) { souk__v1__update_profile_request__init(c) }

    init(c: Souk__V1__UpdateProfileRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        account = try Unpacked.message(c.account, "account")
        updateMask = try Unpacked.message(c.update_mask, "update_mask")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__UpdateProfileRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.account = arena.message(account)
        c.update_mask = arena.message(updateMask)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.UpdateProfileRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.ChangePassword.
    public struct ChangePasswordRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var currentPassword: String
        public var newPassword: String

        public init(marketplaceID: String = "", currentPassword: String = "", newPassword: String = "") {
            self.marketplaceID = marketplaceID
            self.currentPassword = currentPassword
            self.newPassword = newPassword
        }
    }
}

extension SoukV1.ChangePasswordRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.ChangePasswordRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ChangePasswordRequest>) { souk__v1__change_password_request__init(c) }

    init(c: Souk__V1__ChangePasswordRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        currentPassword = try Unpacked.string(c.current_password, "current_password")
        newPassword = try Unpacked.string(c.new_password, "new_password")
    }

    func fill(_ c: inout Souk__V1__ChangePasswordRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.current_password = arena.string(currentPassword)
        c.new_password = arena.string(newPassword)
    }
}

extension SoukV1.ChangePasswordRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Response of Accounts.ChangePassword.
    public struct ChangePasswordResponse: Sendable, Hashable {
        /// The caller's session stays valid; this many other sessions ended.
        public var endedSessions: Int32

        public init(endedSessions: Int32 = 0) {
            self.endedSessions = endedSessions
        }
    }
}

extension SoukV1.ChangePasswordResponse: CProtoMessage {
    public static var protoName: String { "souk.v1.ChangePasswordResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ChangePasswordResponse>) { souk__v1__change_password_response__init(c) }

    init(c: Souk__V1__ChangePasswordResponse) throws {
        endedSessions = c.ended_sessions
    }

    func fill(_ c: inout Souk__V1__ChangePasswordResponse, _ arena: inout EncodingArena) {
        c.ended_sessions = endedSessions
    }
}

extension SoukV1 {
    /// Request of Accounts.RequestPasswordReset.
    public struct RequestPasswordResetRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var email: String

        public init(marketplaceID: String = "", email: String = "") {
            self.marketplaceID = marketplaceID
            self.email = email
        }
    }
}

extension SoukV1.RequestPasswordResetRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.RequestPasswordResetRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__RequestPasswordResetRequest>) { souk__v1__request_password_reset_request__init(c) }

    init(c: Souk__V1__RequestPasswordResetRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        email = try Unpacked.string(c.email, "email")
    }

    func fill(_ c: inout Souk__V1__RequestPasswordResetRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.email = arena.string(email)
    }
}

extension SoukV1.RequestPasswordResetRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Response of Accounts.RequestPasswordReset.
    public struct RequestPasswordResetResponse: Sendable, Hashable {
        public init() {}
    }
}

extension SoukV1.RequestPasswordResetResponse: CProtoMessage {
    public static var protoName: String { "souk.v1.RequestPasswordResetResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__RequestPasswordResetResponse>) { souk__v1__request_password_reset_response__init(c) }

    init(c: Souk__V1__RequestPasswordResetResponse) throws {}
    func fill(_ c: inout Souk__V1__RequestPasswordResetResponse, _ arena: inout EncodingArena) {}
}

extension SoukV1 {
    /// Request of Accounts.ConfirmPasswordReset.
    public struct ConfirmPasswordResetRequest: Sendable, Hashable {
        public var marketplaceID: String
        /// The token from the e-mail.
        public var resetToken: String
        public var newPassword: String

        public init(marketplaceID: String = "", resetToken: String = "", newPassword: String = "") {
            self.marketplaceID = marketplaceID
            self.resetToken = resetToken
            self.newPassword = newPassword
        }
    }
}

extension SoukV1.ConfirmPasswordResetRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.ConfirmPasswordResetRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ConfirmPasswordResetRequest>) { souk__v1__confirm_password_reset_request__init(c) }

    init(c: Souk__V1__ConfirmPasswordResetRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        resetToken = try Unpacked.string(c.reset_token, "reset_token")
        newPassword = try Unpacked.string(c.new_password, "new_password")
    }

    func fill(_ c: inout Souk__V1__ConfirmPasswordResetRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.reset_token = arena.string(resetToken)
        c.new_password = arena.string(newPassword)
    }
}

extension SoukV1.ConfirmPasswordResetRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Response of Accounts.ConfirmPasswordReset.
    public struct ConfirmPasswordResetResponse: Sendable, Hashable {
        public init() {}
    }
}

extension SoukV1.ConfirmPasswordResetResponse: CProtoMessage {
    public static var protoName: String { "souk.v1.ConfirmPasswordResetResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ConfirmPasswordResetResponse>) { souk__v1__confirm_password_reset_response__init(c) }

    init(c: Souk__V1__ConfirmPasswordResetResponse) throws {}
    func fill(_ c: inout Souk__V1__ConfirmPasswordResetResponse, _ arena: inout EncodingArena) {}
}

extension SoukV1 {
    /// Request of Accounts.DeleteAccount.
    public struct DeleteAccountRequest: Sendable, Hashable {
        public var marketplaceID: String
        /// Current password, to confirm.
        public var password: String
        public var expectedVersion: Int64

        public init(marketplaceID: String = "", password: String = "", expectedVersion: Int64 = 0) {
            self.marketplaceID = marketplaceID
            self.password = password
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.DeleteAccountRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.DeleteAccountRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__DeleteAccountRequest>) { souk__v1__delete_account_request__init(c) }

    init(c: Souk__V1__DeleteAccountRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        password = try Unpacked.string(c.password, "password")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__DeleteAccountRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.password = arena.string(password)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.DeleteAccountRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Response of Accounts.DeleteAccount.
    public struct DeleteAccountResponse: Sendable, Hashable {
        public init() {}
    }
}

extension SoukV1.DeleteAccountResponse: CProtoMessage {
    public static var protoName: String { "souk.v1.DeleteAccountResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__DeleteAccountResponse>) { souk__v1__delete_account_response__init(c) }

    init(c: Souk__V1__DeleteAccountResponse) throws {}
    func fill(_ c: inout Souk__V1__DeleteAccountResponse, _ arena: inout EncodingArena) {}
}

extension SoukV1 {
    /// Request of Accounts.RequestRole.
    public struct RequestRoleRequest: Sendable, Hashable {
        public var marketplaceID: String
        /// Provider, courier or admin.
        public var role: SoukV1.Role
        /// Laundry marketplaces, courier role: age in years.
        public var dasherAge: Int32
        public var expectedVersion: Int64

        public init(
            marketplaceID: String = "",
            role: SoukV1.Role = .unspecified,
            dasherAge: Int32 = 0,
            expectedVersion: Int64 = 0
        ) {
            self.marketplaceID = marketplaceID
            self.role = role
            self.dasherAge = dasherAge
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.RequestRoleRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.RequestRoleRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__RequestRoleRequest>) { souk__v1__request_role_request__init(c) }

    init(c: Souk__V1__RequestRoleRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        role = .init(cValue: c.role)
        dasherAge = c.dasher_age
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__RequestRoleRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.role = role.cValue()
        c.dasher_age = dasherAge
        c.expected_version = expectedVersion
    }
}

extension SoukV1.RequestRoleRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.GetAccount.
    public struct GetAccountRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var accountID: String

        public init(marketplaceID: String = "", accountID: String = "") {
            self.marketplaceID = marketplaceID
            self.accountID = accountID
        }
    }
}

extension SoukV1.GetAccountRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.GetAccountRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__GetAccountRequest>) { souk__v1__get_account_request__init(c) }

    init(c: Souk__V1__GetAccountRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        accountID = try Unpacked.string(c.account_id, "account_id")
    }

    func fill(_ c: inout Souk__V1__GetAccountRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.account_id = arena.string(accountID)
    }
}

extension SoukV1.GetAccountRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.GetPublicProfile.
    public struct GetPublicProfileRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var accountID: String

        public init(marketplaceID: String = "", accountID: String = "") {
            self.marketplaceID = marketplaceID
            self.accountID = accountID
        }
    }
}

extension SoukV1.GetPublicProfileRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.GetPublicProfileRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__GetPublicProfileRequest>) { souk__v1__get_public_profile_request__init(c) }

    init(c: Souk__V1__GetPublicProfileRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        accountID = try Unpacked.string(c.account_id, "account_id")
    }

    func fill(_ c: inout Souk__V1__GetPublicProfileRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.account_id = arena.string(accountID)
    }
}

extension SoukV1.GetPublicProfileRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.ListAccounts.
    public struct ListAccountsRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var pageSize: Int32
        public var pageToken: String
        /// Only accounts holding this role...
        public var role: SoukV1.Role
        /// ...in this status (needs role; "pending couriers" is role=COURIER, status=PENDING).
        public var roleStatus: SoukV1.RoleStatus
        /// Only accounts in this state; unspecified means any.
        public var state: SoukV1.AccountState
        /// E-mail starts with this (case-insensitive); cannot be combined with role.
        public var emailPrefix: String

        public init(
            marketplaceID: String = "",
            pageSize: Int32 = 0,
            pageToken: String = "",
            role: SoukV1.Role = .unspecified,
            roleStatus: SoukV1.RoleStatus = .unspecified,
            state: SoukV1.AccountState = .unspecified,
            emailPrefix: String = ""
        ) {
            self.marketplaceID = marketplaceID
            self.pageSize = pageSize
            self.pageToken = pageToken
            self.role = role
            self.roleStatus = roleStatus
            self.state = state
            self.emailPrefix = emailPrefix
        }
    }
}

extension SoukV1.ListAccountsRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.ListAccountsRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ListAccountsRequest>) { souk__v1__list_accounts_request__init(c) }

    init(c: Souk__V1__ListAccountsRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        pageSize = c.page_size
        pageToken = try Unpacked.string(c.page_token, "page_token")
        role = .init(cValue: c.role)
        roleStatus = .init(cValue: c.role_status)
        state = .init(cValue: c.state)
        emailPrefix = try Unpacked.string(c.email_prefix, "email_prefix")
    }

    func fill(_ c: inout Souk__V1__ListAccountsRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.page_size = pageSize
        c.page_token = arena.string(pageToken)
        c.role = role.cValue()
        c.role_status = roleStatus.cValue()
        c.state = state.cValue()
        c.email_prefix = arena.string(emailPrefix)
    }
}

extension SoukV1.ListAccountsRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Response of Accounts.ListAccounts.
    public struct ListAccountsResponse: Sendable, Hashable {
        public var accounts: [SoukV1.Account]
        public var nextPageToken: String

        public init(accounts: [SoukV1.Account] = [], nextPageToken: String = "") {
            self.accounts = accounts
            self.nextPageToken = nextPageToken
        }
    }
}

extension SoukV1.ListAccountsResponse: CProtoMessage {
    public static var protoName: String { "souk.v1.ListAccountsResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ListAccountsResponse>) { souk__v1__list_accounts_response__init(c) }

    init(c: Souk__V1__ListAccountsResponse) throws {
        accounts = try Unpacked.messages(c.n_accounts, c.accounts, "accounts")
        nextPageToken = try Unpacked.string(c.next_page_token, "next_page_token")
    }

    func fill(_ c: inout Souk__V1__ListAccountsResponse, _ arena: inout EncodingArena) {
        c.n_accounts = accounts.count
        c.accounts = arena.messages(accounts)
        c.next_page_token = arena.string(nextPageToken)
    }
}

extension SoukV1 {
    /// Request of Accounts.CreateAccount.
    public struct CreateAccountRequest: Sendable, Hashable {
        public var marketplaceID: String
        /// Idempotency key.
        public var requestID: String
        public var email: String
        /// Initial password; must satisfy the password rule.
        public var initialPassword: String
        public var givenName: String
        public var familyName: String
        public var phone: String
        /// Roles to grant active besides customer.
        public var roles: [SoukV1.Role]
        public var laundryProfile: SoukV1.LaundryProfile?

        public init(
            marketplaceID: String = "",
            requestID: String = "",
            email: String = "",
            initialPassword: String = "",
            givenName: String = "",
            familyName: String = "",
            phone: String = "",
            roles: [SoukV1.Role] = [],
            laundryProfile: SoukV1.LaundryProfile? = nil
        ) {
            self.marketplaceID = marketplaceID
            self.requestID = requestID
            self.email = email
            self.initialPassword = initialPassword
            self.givenName = givenName
            self.familyName = familyName
            self.phone = phone
            self.roles = roles
            self.laundryProfile = laundryProfile
        }
    }
}

extension SoukV1.CreateAccountRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.CreateAccountRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__CreateAccountRequest>) { souk__v1__create_account_request__init(c) }

    init(c: Souk__V1__CreateAccountRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        requestID = try Unpacked.string(c.request_id, "request_id")
        email = try Unpacked.string(c.email, "email")
        initialPassword = try Unpacked.string(c.initial_password, "initial_password")
        givenName = try Unpacked.string(c.given_name, "given_name")
        familyName = try Unpacked.string(c.family_name, "family_name")
        phone = try Unpacked.string(c.phone, "phone")
        roles = Unpacked.enumValues(c.n_roles, c.roles)
        laundryProfile = try Unpacked.message(c.laundry_profile, "laundry_profile")
    }

    func fill(_ c: inout Souk__V1__CreateAccountRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.request_id = arena.string(requestID)
        c.email = arena.string(email)
        c.initial_password = arena.string(initialPassword)
        c.given_name = arena.string(givenName)
        c.family_name = arena.string(familyName)
        c.phone = arena.string(phone)
        c.n_roles = roles.count
        c.roles = arena.enumValues(roles, as: Souk__V1__Role.self)
        c.laundry_profile = arena.message(laundryProfile)
    }
}

extension SoukV1.CreateAccountRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.ApproveRole.
    public struct ApproveRoleRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var accountID: String
        public var role: SoukV1.Role
        public var expectedVersion: Int64

        public init(
            marketplaceID: String = "",
            accountID: String = "",
            role: SoukV1.Role = .unspecified,
            expectedVersion: Int64 = 0
        ) {
            self.marketplaceID = marketplaceID
            self.accountID = accountID
            self.role = role
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.ApproveRoleRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.ApproveRoleRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ApproveRoleRequest>) { souk__v1__approve_role_request__init(c) }

    init(c: Souk__V1__ApproveRoleRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        accountID = try Unpacked.string(c.account_id, "account_id")
        role = .init(cValue: c.role)
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__ApproveRoleRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.account_id = arena.string(accountID)
        c.role = role.cValue()
        c.expected_version = expectedVersion
    }
}

extension SoukV1.ApproveRoleRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.RejectRole.
    public struct RejectRoleRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var accountID: String
        public var role: SoukV1.Role
        /// Required; shown to the user.
        public var reason: String
        public var expectedVersion: Int64

        public init(
            marketplaceID: String = "",
            accountID: String = "",
            role: SoukV1.Role = .unspecified,
            reason: String = "",
            expectedVersion: Int64 = 0
        ) {
            self.marketplaceID = marketplaceID
            self.accountID = accountID
            self.role = role
            self.reason = reason
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.RejectRoleRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.RejectRoleRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__RejectRoleRequest>) { souk__v1__reject_role_request__init(c) }

    init(c: Souk__V1__RejectRoleRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        accountID = try Unpacked.string(c.account_id, "account_id")
        role = .init(cValue: c.role)
        reason = try Unpacked.string(c.reason, "reason")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__RejectRoleRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.account_id = arena.string(accountID)
        c.role = role.cValue()
        c.reason = arena.string(reason)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.RejectRoleRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.AssignRole.
    public struct AssignRoleRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var accountID: String
        public var role: SoukV1.Role
        public var expectedVersion: Int64

        public init(
            marketplaceID: String = "",
            accountID: String = "",
            role: SoukV1.Role = .unspecified,
            expectedVersion: Int64 = 0
        ) {
            self.marketplaceID = marketplaceID
            self.accountID = accountID
            self.role = role
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.AssignRoleRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.AssignRoleRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__AssignRoleRequest>) { souk__v1__assign_role_request__init(c) }

    init(c: Souk__V1__AssignRoleRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        accountID = try Unpacked.string(c.account_id, "account_id")
        role = .init(cValue: c.role)
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__AssignRoleRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.account_id = arena.string(accountID)
        c.role = role.cValue()
        c.expected_version = expectedVersion
    }
}

extension SoukV1.AssignRoleRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.RevokeRole.
    public struct RevokeRoleRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var accountID: String
        public var role: SoukV1.Role
        /// Required.
        public var reason: String
        public var expectedVersion: Int64

        public init(
            marketplaceID: String = "",
            accountID: String = "",
            role: SoukV1.Role = .unspecified,
            reason: String = "",
            expectedVersion: Int64 = 0
        ) {
            self.marketplaceID = marketplaceID
            self.accountID = accountID
            self.role = role
            self.reason = reason
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.RevokeRoleRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.RevokeRoleRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__RevokeRoleRequest>) { souk__v1__revoke_role_request__init(c) }

    init(c: Souk__V1__RevokeRoleRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        accountID = try Unpacked.string(c.account_id, "account_id")
        role = .init(cValue: c.role)
        reason = try Unpacked.string(c.reason, "reason")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__RevokeRoleRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.account_id = arena.string(accountID)
        c.role = role.cValue()
        c.reason = arena.string(reason)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.RevokeRoleRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.BlockAccount.
    public struct BlockAccountRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var accountID: String
        /// Required; kept on the account and in the audit log.
        public var reason: String
        public var expectedVersion: Int64

        public init(marketplaceID: String = "", accountID: String = "", reason: String = "", expectedVersion: Int64 = 0) {
            self.marketplaceID = marketplaceID
            self.accountID = accountID
            self.reason = reason
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.BlockAccountRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.BlockAccountRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__BlockAccountRequest>) { souk__v1__block_account_request__init(c) }

    init(c: Souk__V1__BlockAccountRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        accountID = try Unpacked.string(c.account_id, "account_id")
        reason = try Unpacked.string(c.reason, "reason")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__BlockAccountRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.account_id = arena.string(accountID)
        c.reason = arena.string(reason)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.BlockAccountRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.UnblockAccount.
    public struct UnblockAccountRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var accountID: String
        public var expectedVersion: Int64

        public init(marketplaceID: String = "", accountID: String = "", expectedVersion: Int64 = 0) {
            self.marketplaceID = marketplaceID
            self.accountID = accountID
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.UnblockAccountRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.UnblockAccountRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__UnblockAccountRequest>) { souk__v1__unblock_account_request__init(c) }

    init(c: Souk__V1__UnblockAccountRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        accountID = try Unpacked.string(c.account_id, "account_id")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__UnblockAccountRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.account_id = arena.string(accountID)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.UnblockAccountRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.CreateAddress.
    public struct CreateAddressRequest: Sendable, Hashable {
        public var marketplaceID: String
        /// Idempotency key.
        public var requestID: String
        public var address: SoukV1.Address?
        public var isDefault: Bool

        public init(
            marketplaceID: String = "",
            requestID: String = "",
            address: SoukV1.Address? = nil,
            isDefault: Bool = false
        ) {
            self.marketplaceID = marketplaceID
            self.requestID = requestID
            self.address = address
            self.isDefault = isDefault
        }
    }
}

extension SoukV1.CreateAddressRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.CreateAddressRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__CreateAddressRequest>) { souk__v1__create_address_request__init(c) }

    init(c: Souk__V1__CreateAddressRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        requestID = try Unpacked.string(c.request_id, "request_id")
        address = try Unpacked.message(c.address, "address")
        isDefault = c.is_default != 0
    }

    func fill(_ c: inout Souk__V1__CreateAddressRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.request_id = arena.string(requestID)
        c.address = arena.message(address)
        c.is_default = isDefault ? 1 : 0
    }
}

extension SoukV1.CreateAddressRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.GetAddress.
    public struct GetAddressRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var addressID: String

        public init(marketplaceID: String = "", addressID: String = "") {
            self.marketplaceID = marketplaceID
            self.addressID = addressID
        }
    }
}

extension SoukV1.GetAddressRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.GetAddressRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__GetAddressRequest>) { souk__v1__get_address_request__init(c) }

    init(c: Souk__V1__GetAddressRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        addressID = try Unpacked.string(c.address_id, "address_id")
    }

    func fill(_ c: inout Souk__V1__GetAddressRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.address_id = arena.string(addressID)
    }
}

extension SoukV1.GetAddressRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.ListAddresses.
    public struct ListAddressesRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var pageSize: Int32
        public var pageToken: String
        /// Whose addresses; empty means the caller's.
        public var accountID: String
        /// Include archived addresses.
        public var showArchived: Bool

        public init(
            marketplaceID: String = "",
            pageSize: Int32 = 0,
            pageToken: String = "",
            accountID: String = "",
            showArchived: Bool = false
        ) {
            self.marketplaceID = marketplaceID
            self.pageSize = pageSize
            self.pageToken = pageToken
            self.accountID = accountID
            self.showArchived = showArchived
        }
    }
}

extension SoukV1.ListAddressesRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.ListAddressesRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ListAddressesRequest>) { souk__v1__list_addresses_request__init(c) }

    init(c: Souk__V1__ListAddressesRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        pageSize = c.page_size
        pageToken = try Unpacked.string(c.page_token, "page_token")
        accountID = try Unpacked.string(c.account_id, "account_id")
        showArchived = c.show_archived != 0
    }

    func fill(_ c: inout Souk__V1__ListAddressesRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.page_size = pageSize
        c.page_token = arena.string(pageToken)
        c.account_id = arena.string(accountID)
        c.show_archived = showArchived ? 1 : 0
    }
}

extension SoukV1.ListAddressesRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Response of Accounts.ListAddresses.
    public struct ListAddressesResponse: Sendable, Hashable {
        public var addresses: [SoukV1.SavedAddress]
        public var nextPageToken: String

        public init(addresses: [SoukV1.SavedAddress] = [], nextPageToken: String = "") {
            self.addresses = addresses
            self.nextPageToken = nextPageToken
        }
    }
}

extension SoukV1.ListAddressesResponse: CProtoMessage {
    public static var protoName: String { "souk.v1.ListAddressesResponse" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ListAddressesResponse>) { souk__v1__list_addresses_response__init(c) }

    init(c: Souk__V1__ListAddressesResponse) throws {
        addresses = try Unpacked.messages(c.n_addresses, c.addresses, "addresses")
        nextPageToken = try Unpacked.string(c.next_page_token, "next_page_token")
    }

    func fill(_ c: inout Souk__V1__ListAddressesResponse, _ arena: inout EncodingArena) {
        c.n_addresses = addresses.count
        c.addresses = arena.messages(addresses)
        c.next_page_token = arena.string(nextPageToken)
    }
}

extension SoukV1 {
    /// Request of Accounts.UpdateAddress.
    public struct UpdateAddressRequest: Sendable, Hashable {
        public var marketplaceID: String
        /// saved_address.id names it; only the paths in update_mask are read.
        public var savedAddress: SoukV1.SavedAddress?
        public var updateMask: GoogleProtobuf.FieldMask?
        public var expectedVersion: Int64

        public init(
            marketplaceID: String = "",
            savedAddress: SoukV1.SavedAddress? = nil,
            updateMask: GoogleProtobuf.FieldMask? = nil,
            expectedVersion: Int64 = 0
        ) {
            self.marketplaceID = marketplaceID
            self.savedAddress = savedAddress
            self.updateMask = updateMask
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.UpdateAddressRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.UpdateAddressRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__UpdateAddressRequest>) { souk__v1__update_address_request__init(c) }

    init(c: Souk__V1__UpdateAddressRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        savedAddress = try Unpacked.message(c.saved_address, "saved_address")
        updateMask = try Unpacked.message(c.update_mask, "update_mask")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__UpdateAddressRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.saved_address = arena.message(savedAddress)
        c.update_mask = arena.message(updateMask)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.UpdateAddressRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.ArchiveAddress.
    public struct ArchiveAddressRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var addressID: String
        public var expectedVersion: Int64

        public init(marketplaceID: String = "", addressID: String = "", expectedVersion: Int64 = 0) {
            self.marketplaceID = marketplaceID
            self.addressID = addressID
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.ArchiveAddressRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.ArchiveAddressRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__ArchiveAddressRequest>) { souk__v1__archive_address_request__init(c) }

    init(c: Souk__V1__ArchiveAddressRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        addressID = try Unpacked.string(c.address_id, "address_id")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__ArchiveAddressRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.address_id = arena.string(addressID)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.ArchiveAddressRequest: MarketplaceScopedRequest {}

extension SoukV1 {
    /// Request of Accounts.RestoreAddress.
    public struct RestoreAddressRequest: Sendable, Hashable {
        public var marketplaceID: String
        public var addressID: String
        public var expectedVersion: Int64

        public init(marketplaceID: String = "", addressID: String = "", expectedVersion: Int64 = 0) {
            self.marketplaceID = marketplaceID
            self.addressID = addressID
            self.expectedVersion = expectedVersion
        }
    }
}

extension SoukV1.RestoreAddressRequest: CProtoMessage {
    public static var protoName: String { "souk.v1.RestoreAddressRequest" }
    static func cInit(_ c: UnsafeMutablePointer<Souk__V1__RestoreAddressRequest>) { souk__v1__restore_address_request__init(c) }

    init(c: Souk__V1__RestoreAddressRequest) throws {
        marketplaceID = try Unpacked.string(c.marketplace_id, "marketplace_id")
        addressID = try Unpacked.string(c.address_id, "address_id")
        expectedVersion = c.expected_version
    }

    func fill(_ c: inout Souk__V1__RestoreAddressRequest, _ arena: inout EncodingArena) {
        c.marketplace_id = arena.string(marketplaceID)
        c.address_id = arena.string(addressID)
        c.expected_version = expectedVersion
    }
}

extension SoukV1.RestoreAddressRequest: MarketplaceScopedRequest {}

