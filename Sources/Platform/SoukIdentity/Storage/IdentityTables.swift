import SoukAccess
import SoukKit
import SoukMessages
import SoukStore

// The identity tables. Each record keeps its marketplace (empty for platform operators) first in
// every index key, so no list ever crosses marketplaces. Protobuf values are stored without
// their id, version and times: the store's envelope holds those.

/// A marketplace as stored: its own record (`souk.store.v1.Marketplace`, without the id,
/// version and times, which the envelope holds). Calls see it through `MarketplaceProjection`.
enum MarketplaceTable {
    static let bySlug = Index<SoukStoreV1.Marketplace>.unique("marketplaces.slug") { [.string($0.slug)] }
    static let all = Index<SoukStoreV1.Marketplace>.nonUnique("marketplaces.all", key: { _ in [] })
    static let byVertical = Index<SoukStoreV1.Marketplace>.nonUnique("marketplaces.vertical") { [.enumCase($0.vertical)] }
    static let byArchived = Index<SoukStoreV1.Marketplace>.nonUnique("marketplaces.archived") { [.bool($0.archived)] }
    static let byArchivedVertical = Index<SoukStoreV1.Marketplace>.nonUnique("marketplaces.archived_vertical") {
        [.bool($0.archived), .enumCase($0.vertical)]
    }
    /// A marketplace is no marketplace's record, so the table stores the message alone.
    static let table = Table(
        "marketplaces", codec: MessageCodec<SoukStoreV1.Marketplace>(),
        indexes: [bySlug, all, byVertical, byArchived, byArchivedVertical])
}

/// An account: profile, roles and state. Its password and sign-in counters live in
/// `CredentialRecord`, so signing in or changing the password never changes the account's
/// version (an edit a client prepared stays valid).
struct AccountRecord: Sendable, Equatable {
    /// Identity's own record of the account (`souk.store.v1.Account`: id, version and times come
    /// from the envelope; the sign-in fields from the credentials; the vertical's fields from its
    /// own tables, `AccountPart`), answered with `AccountProjection`. Records of earlier releases
    /// also hold the laundry and Dasher profiles and the ratings, until
    /// `Identity.moveLegacyVerticalFields` hands them to their vertical.
    var account: SoukStoreV1.Account

    init(account: SoukStoreV1.Account) {
        self.account = account
    }
}

/// Accounts, with their unique e-mail per marketplace and the indexes admins list them by.
enum AccountTable {
    /// E-mail per marketplace, lower-cased; deleted accounts free theirs.
    static let byEmail = Index<AccountRecord>.unique("accounts.email") { record in
        guard record.account.state != .deleted, !record.account.email.isEmpty else { return nil }
        return [.string(record.account.marketplaceID), .string(EmailAddress.key(record.account.email))]
    }
    static let byMarketplace = Index<AccountRecord>.nonUnique("accounts.marketplace") { [.string($0.account.marketplaceID)] }
    /// One entry per role the account holds, with the role's status.
    static let byRoleStatus = Index<AccountRecord>.nonUnique("accounts.role_status", keys: { record in
        record.account.roles.map { [.string(record.account.marketplaceID), .enumCase($0.role), .enumCase($0.status)] }
    })
    static let byState = Index<AccountRecord>.nonUnique("accounts.state") {
        [.string($0.account.marketplaceID), .enumCase($0.account.state)]
    }
    /// The accounts an earlier release stored with a vertical's fields (laundry and Dasher
    /// profiles, ratings) inside the record; empty once they moved to their verticals.
    static let withLegacyVerticalFields = Index<AccountRecord>.nonUnique("accounts.legacy_vertical_fields") { record in
        record.account.hasLegacyVerticalFields ? [] : nil
    }
    static let table = Table(
        "accounts",
        codec: FieldCodec<AccountRecord>(
            write: { value, writer in writer.message(value.account) },
            read: { reader in AccountRecord(account: try reader.message(SoukStoreV1.Account.self)) }),
        indexes: [byEmail, byMarketplace, byRoleStatus, byState, withLegacyVerticalFields])
}

/// The secret and the sign-in counters of an account, stored under the account's id.
struct CredentialRecord: Sendable, Equatable {
    /// Argon2id hash string; empty once the account is deleted.
    var passwordHash: String
    /// Failed sign-ins in a row.
    var failedLogins: Int32 = 0
    var lockedUntil: StoreTime?
    var lastLogin: StoreTime?

    /// When the lockout in force at `now` ends; nil when the account is not locked.
    func lockout(at now: StoreTime) -> StoreTime? {
        guard let lockedUntil, lockedUntil > now else { return nil }
        return lockedUntil
    }
}

enum CredentialTable {
    static let table = Table(
        "account_credentials",
        codec: FieldCodec<CredentialRecord>(
            write: { value, writer in
                writer.string(value.passwordHash)
                writer.int(Int64(value.failedLogins))
                for time in [value.lockedUntil, value.lastLogin] {
                    writer.bool(time != nil)
                    writer.time(time ?? StoreTime(microsecondsSinceEpoch: 0))
                }
            },
            read: { reader in
                var record = CredentialRecord(passwordHash: try reader.string(), failedLogins: Int32(truncatingIfNeeded: try reader.int()))
                let lockedSet = try reader.bool()
                let locked = try reader.time()
                let lastSet = try reader.bool()
                let last = try reader.time()
                record.lockedUntil = lockedSet ? locked : nil
                record.lastLogin = lastSet ? last : nil
                return record
            }))
}

/// A signed-in session: the hashes of its current token pair and of the refresh tokens it
/// rotated out (to detect their reuse), and its latest rotation (to answer a retry of it).
struct SessionRecord: Sendable {
    var accountID: RecordID
    var marketplaceID: String
    var accessTokenHash: [UInt8]
    var accessExpiry: StoreTime
    var refreshTokenHash: [UInt8]
    var refreshExpiry: StoreTime
    /// Newest last; at most `SessionTable.retiredRefreshLimit`.
    var retiredRefreshHashes: [[UInt8]]
    var revoked: Bool
    var deviceName: String
    /// Nil before the first rotation, once revoked, and in records written before rotations were kept.
    var latestRotation: RefreshRotation? = nil
    /// The access token the latest rotation replaced, still good until its own expiry: calls a
    /// client sent before its refresh answer arrived must not fail.
    var previousAccess: PreviousAccessToken? = nil

    /// Ends the session: its tokens leave the indexes and the sealed pair is dropped.
    mutating func revoke() {
        revoked = true
        latestRotation = nil
    }
}

/// An access token a rotation replaced, and when it expires.
struct PreviousAccessToken: Sendable, Equatable {
    var hash: [UInt8]
    var expiry: StoreTime
}

/// A rotation of a session's refresh token, kept until the next one so that the retired token
/// can get the same new pair again within the marketplace's reuse interval.
struct RefreshRotation: Sendable, Equatable {
    /// The `TokenHash` of the refresh token this rotation retired.
    var retiredRefreshHash: [UInt8]
    var rotatedAt: StoreTime
    /// The pair this rotation issued (the session's current one), sealed under the retired token.
    var pair: SealedTokenPair
}

enum SessionTable {
    /// Refresh tokens remembered per session for reuse detection.
    static let retiredRefreshLimit = 16

    static let byAccessToken = Index<SessionRecord>.unique("sessions.access_token") {
        $0.revoked ? nil : [.bytes($0.accessTokenHash)]
    }
    static let byRefreshToken = Index<SessionRecord>.unique("sessions.refresh_token") {
        $0.revoked ? nil : [.bytes($0.refreshTokenHash)]
    }
    static let byRetiredRefreshToken = Index<SessionRecord>.nonUnique("sessions.retired_refresh_token", keys: { session in
        session.revoked ? [] : session.retiredRefreshHashes.map { [.bytes($0)] }
    })
    /// The access token each session's latest rotation replaced (see `SessionRecord.previousAccess`).
    static let byPreviousAccessToken = Index<SessionRecord>.unique("sessions.previous_access_token") {
        $0.revoked ? nil : $0.previousAccess.map { [.bytes($0.hash)] }
    }
    static let byAccount = Index<SessionRecord>.nonUnique("sessions.account") { $0.revoked ? nil : [.id($0.accountID)] }
    /// The access token of each ended session, so that a call with it is told the session ended
    /// (SESSION_REVOKED) rather than that the token is unknown.
    static let byEndedAccessToken = Index<SessionRecord>.unique("sessions.ended_access_token") {
        $0.revoked ? [.bytes($0.accessTokenHash)] : nil
    }
    /// The refresh token of each ended session, so that a blocked account's refresh is told the
    /// account is blocked (ACCOUNT_BLOCKED) rather than that the token is unknown.
    static let byEndedRefreshToken = Index<SessionRecord>.unique("sessions.ended_refresh_token") {
        $0.revoked ? [.bytes($0.refreshTokenHash)] : nil
    }

    static let table = Table(
        "sessions",
        codec: FieldCodec<SessionRecord>(
            write: { value, writer in
                writer.id(value.accountID)
                writer.string(value.marketplaceID)
                writer.data(value.accessTokenHash)
                writer.time(value.accessExpiry)
                writer.data(value.refreshTokenHash)
                writer.time(value.refreshExpiry)
                writer.list(value.retiredRefreshHashes) { $0.data($1) }
                writer.bool(value.revoked)
                writer.string(value.deviceName)
                writer.bool(value.latestRotation != nil)
                if let rotation = value.latestRotation {
                    writer.data(rotation.retiredRefreshHash)
                    writer.time(rotation.rotatedAt)
                    writer.data(rotation.pair.bytes)
                }
                writer.bool(value.previousAccess != nil)
                if let previous = value.previousAccess {
                    writer.data(previous.hash)
                    writer.time(previous.expiry)
                }
            },
            read: { reader in
                var record = SessionRecord(
                    accountID: try reader.id(), marketplaceID: try reader.string(),
                    accessTokenHash: try reader.bytesValue(), accessExpiry: try reader.time(),
                    refreshTokenHash: try reader.bytesValue(), refreshExpiry: try reader.time(),
                    retiredRefreshHashes: try reader.list { try $0.bytesValue() },
                    revoked: try reader.bool(), deviceName: try reader.string())
                if !reader.isAtEnd, try reader.bool() {
                    record.latestRotation = RefreshRotation(
                        retiredRefreshHash: try reader.bytesValue(), rotatedAt: try reader.time(),
                        pair: SealedTokenPair(bytes: try reader.bytesValue()))
                }
                // Records written before previous tokens were kept end here.
                if !reader.isAtEnd, try reader.bool() {
                    record.previousAccess = PreviousAccessToken(hash: try reader.bytesValue(), expiry: try reader.time())
                }
                return record
            }),
        indexes: [
            byAccessToken, byRefreshToken, byRetiredRefreshToken, byAccount, byEndedAccessToken, byEndedRefreshToken,
            byPreviousAccessToken,
        ])
}

/// A single-use password-reset token (its hash).
struct PasswordResetRecord: Sendable {
    var accountID: RecordID
    var marketplaceID: String
    var tokenHash: [UInt8]
    var expiry: StoreTime
    var used: Bool
}

enum PasswordResetTable {
    static let byToken = Index<PasswordResetRecord>.unique("password_resets.token") { $0.used ? nil : [.bytes($0.tokenHash)] }

    static let table = Table(
        "password_resets",
        codec: FieldCodec<PasswordResetRecord>(
            write: { value, writer in
                writer.id(value.accountID)
                writer.string(value.marketplaceID)
                writer.data(value.tokenHash)
                writer.time(value.expiry)
                writer.bool(value.used)
            },
            read: { reader in
                PasswordResetRecord(
                    accountID: try reader.id(), marketplaceID: try reader.string(), tokenHash: try reader.bytesValue(),
                    expiry: try reader.time(), used: try reader.bool())
            }),
        indexes: [byToken])
}

/// A saved address of an account as stored: its own record (`souk.store.v1.SavedAddress`,
/// without the id, version and times, which the envelope holds) and its marketplace. RPCs answer
/// with `AddressProjection`.
public typealias AddressRecord = MarketRecord<SoukStoreV1.SavedAddress>

/// Saved addresses; orders read them (`IdentityRecords.address`) to snapshot the one a customer picks.
enum AddressTable {
    static let byAccount = Index<AddressRecord>.nonUnique("addresses.account") {
        [.string($0.marketplaceID), .string($0.subject.accountID), .bool($0.subject.archived)]
    }
    static let byAccountAll = Index<AddressRecord>.nonUnique("addresses.account_all") {
        [.string($0.marketplaceID), .string($0.subject.accountID)]
    }
    /// Only the account's default address (at most one).
    static let defaultOfAccount = Index<AddressRecord>.nonUnique("addresses.default") {
        $0.subject.isDefault && !$0.subject.archived ? [.string($0.marketplaceID), .string($0.subject.accountID)] : nil
    }

    static let table = marketTable("addresses", SoukStoreV1.SavedAddress.self, indexes: [byAccount, byAccountAll, defaultOfAccount])
}

extension SoukStoreV1.Account {
    /// Whether the record holds fields an earlier release kept here for a vertical.
    var hasLegacyVerticalFields: Bool {
        legacyLaundryProfile != nil || legacyDasherProfile != nil || legacyRating != nil || legacyCustomerRating != nil
    }

    /// Without the fields an earlier release kept here for a vertical.
    func withoutLegacyVerticalFields() -> SoukStoreV1.Account {
        var account = self
        account.legacyLaundryProfile = nil
        account.legacyDasherProfile = nil
        account.legacyRating = nil
        account.legacyCustomerRating = nil
        return account
    }
}

/// What callers see of a stored account, before its vertical's part fills in the vertical's
/// fields (`AccountViews`): the contract's `Account`, built field by field (an allow-list: a
/// field added to the stored record reaches no caller until a line here names it).
enum AccountProjection {
    /// The account with the envelope's id, version and times and `credentials`' sign-in fields
    /// (nil: shown unset, as to other domains).
    static func account(_ record: StoredRecord<AccountRecord>, _ credentials: CredentialRecord?) -> SoukV1.Account {
        var account = record.stamped(identityFields(record.value.account, id: record.id))
        // Shown empty until the vertical's part fills them, as accounts always showed them.
        account.rating = SoukV1.RatingSummary()
        account.customerRating = SoukV1.RatingSummary()
        account.failedLoginCount = credentials?.failedLogins ?? 0
        account.lockedUntil = credentials?.lockedUntil.map(Timestamp.init)
        account.lastLoginTime = credentials?.lastLogin.map(Timestamp.init)
        return account
    }

    /// Identity's fields of `stored` and its id: the account as an `AccountPart` is handed it.
    static func identityFields(_ stored: SoukStoreV1.Account, id: RecordID) -> SoukV1.Account {
        var account = SoukV1.Account()
        account.id = id.description
        account.marketplaceID = stored.marketplaceID
        account.email = stored.email
        account.givenName = stored.givenName
        account.familyName = stored.familyName
        account.phone = stored.phone
        account.avatarMediaID = stored.avatarMediaID
        account.locale = stored.locale
        account.roles = stored.roles
        account.state = stored.state
        account.blockReason = stored.blockReason
        account.emailVerified = stored.emailVerified
        return account
    }

    /// Identity's fields with the vertical's fields an earlier release stored in the record, for
    /// the vertical's part to adopt (`AccountPart.adoptLegacy`).
    static func legacy(_ stored: SoukStoreV1.Account, id: RecordID) -> SoukV1.Account {
        var account = identityFields(stored, id: id)
        account.rating = stored.legacyRating
        account.customerRating = stored.legacyCustomerRating
        account.laundryProfile = stored.legacyLaundryProfile
        account.dasherProfile = stored.legacyDasherProfile
        return account
    }
}

extension SoukV1.Account: StampedMessage {}

/// What callers (and the scope check's cache) see of a stored marketplace: the contract's
/// `Marketplace`, built field by field (an allow-list: a field added to the stored record reaches
/// no caller until a line here names it).
enum MarketplaceProjection {
    static func marketplace(_ record: StoredRecord<SoukStoreV1.Marketplace>) -> SoukV1.Marketplace {
        let stored = record.value
        var shown = record.stamped(SoukV1.Marketplace())
        shown.slug = stored.slug
        shown.displayName = stored.displayName
        shown.vertical = stored.vertical
        shown.currencyCode = stored.currencyCode
        shown.timeZone = stored.timeZone
        shown.defaultLocale = stored.defaultLocale
        shown.settings = stored.settings
        shown.archived = stored.archived
        shown.archiveTime = stored.archiveTime
        return shown
    }
}

extension SoukV1.Marketplace: StampedMessage {}

/// What the owner and admins see of a stored address: the contract's `SavedAddress`, built
/// field by field (an allow-list: a field added to the stored record reaches no caller until a
/// line here names it).
enum AddressProjection {
    static func address(_ record: StoredRecord<AddressRecord>) -> SoukV1.SavedAddress {
        let saved = record.value.subject
        var shown = record.stamped(SoukV1.SavedAddress())
        shown.accountID = saved.accountID
        shown.address = saved.address
        shown.isDefault = saved.isDefault
        shown.archived = saved.archived
        shown.archiveTime = saved.archiveTime
        return shown
    }
}

extension SoukV1.SavedAddress: StampedMessage {}

/// The e-mail verification code last sent to an account, stored under the account's id (a new
/// code replaces it).
struct EmailVerificationRecord: Sendable {
    var codeHash: [UInt8]
    /// The address the code was sent to; a code proves only that address.
    var email: String
    var expiry: StoreTime
    /// Wrong codes entered so far.
    var failedTries: Int
    /// Used up: confirmed, or too many wrong tries.
    var used: Bool
    /// When codes were sent in the last hour, oldest first (the sending limit).
    var sendTimes: [StoreTime] = []
}

enum EmailVerificationTable {
    static let table = Table(
        "email_verifications",
        codec: FieldCodec<EmailVerificationRecord>(
            write: { value, writer in
                writer.data(value.codeHash)
                writer.string(value.email)
                writer.time(value.expiry)
                writer.int(Int64(value.failedTries))
                writer.bool(value.used)
                writer.list(value.sendTimes) { $0.time($1) }
            },
            read: { reader in
                var record = EmailVerificationRecord(
                    codeHash: try reader.bytesValue(), email: try reader.string(), expiry: try reader.time(),
                    failedTries: Int(try reader.int()), used: try reader.bool())
                if !reader.isAtEnd { record.sendTimes = try reader.list { try $0.time() } }
                return record
            }),
        indexes: [])
}
