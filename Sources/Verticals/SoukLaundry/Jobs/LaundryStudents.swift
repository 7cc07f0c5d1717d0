import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// What the laundry rules read of an account: identity's account (`IdentityRecords`) with
/// laundry's own part of it (`LaundryProfiles`): its dorm, whether it is a verified student and an
/// active Dasher, and the summary another party sees.
enum LaundryStudents {
    /// Account `id` of marketplace `marketplaceID` with its laundry part; nil when unknown.
    static func account(_ id: RecordID, marketplaceID: String, _ reader: any RecordLookup) throws -> SoukV1.Account? {
        guard var account = try IdentityRecords.account(id, marketplaceID: marketplaceID, reader) else { return nil }
        try LaundryProfiles.project(&account, reader)
        return account
    }

    /// The caller's account, which must be a verified student with a dorm.
    static func requireStudent(_ call: SoukCall, store: Store) throws -> SoukV1.Account {
        let account = try caller(call, store)
        guard let dorm = account.laundryProfile?.dormID, !dorm.isEmpty else {
            throw RPCError.souk(.failedPrecondition, .laundryProfileRequired, "account \(account.id) has no laundry profile with a dorm")
        }
        try requireVerified(account)
        return account
    }

    /// Throws FAILED_PRECONDITION (EMAIL_NOT_VERIFIED) unless the account proved its e-mail
    /// address (`Accounts.VerifyEmail`): no job is submitted or taken, and no Dasher quiz taken,
    /// before. Accounts an admin creates count as proven.
    static func requireVerified(_ account: SoukV1.Account) throws {
        guard account.emailVerified else {
            throw RPCError.souk(
                .failedPrecondition, .emailNotVerified,
                "the e-mail address is not verified yet: confirm it with the code from Accounts.SendVerificationCode")
        }
    }

    /// The caller's account in the call's marketplace, with its laundry part.
    static func caller(_ call: SoukCall, _ store: Store) throws -> SoukV1.Account {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        guard let account = try account(caller.accountID, marketplaceID: marketplaceID.description, store) else {
            throw RPCError.notFound("account", caller.accountID.description)
        }
        return account
    }

    /// Whether `account` holds the courier role, active.
    static func isActiveDasher(_ account: SoukV1.Account) -> Bool {
        account.roles.contains { $0.role == .courier && $0.status == .active }
    }

    /// The account's dorm; "" without a laundry profile.
    static func dorm(_ account: SoukV1.Account) -> String { account.laundryProfile?.dormID ?? "" }

    /// The account's shared gender; UNSPECIFIED when not shared.
    static func gender(_ account: SoukV1.Account) -> SoukV1.Gender { account.laundryProfile?.gender ?? .unspecified }

    /// Account `id` of the marketplace, read inside `transaction`; nil when unknown.
    static func account(_ id: String, marketplaceID: String, transaction: Transaction) throws -> SoukV1.Account? {
        guard let recordID = RecordID(id) else { return nil }
        return try account(recordID, marketplaceID: marketplaceID, transaction)
    }

    /// Account `id` (of any marketplace) with its laundry part; nil for none.
    static func account(_ id: String, _ reader: any RecordLookup) throws -> SoukV1.Account? {
        guard let recordID = RecordID(id), var account = try IdentityRecords.account(recordID, reader) else { return nil }
        try LaundryProfiles.project(&account, reader)
        return account
    }

    /// What another party sees of account `id`: first name and rating (Parties); nil for none.
    static func summary(_ id: String, store: Store) throws -> SoukV1.PersonSummary? {
        try account(id, store).map { Parties.summary(of: $0, vertical: .laundry) }
    }

    /// What a customer sees of a Dasher: first name and rating, completed jobs, time as a Dasher.
    static func dasherSummary(of account: SoukV1.Account) -> SoukV1.DasherSummary {
        SoukV1.DasherSummary(
            person: Parties.summary(of: account, vertical: .laundry), completedJobs: account.dasherProfile?.completedJobs ?? 0,
            dasherSince: account.dasherProfile?.dasherSince)
    }

    /// The summary of Dasher `id`; nil for none.
    static func dasherSummary(_ id: String, store: Store) throws -> SoukV1.DasherSummary? {
        try account(id, store).map(dasherSummary(of:))
    }

    /// One more job brought to stage 9 by the Dasher (a field the server maintains).
    static func countCompleted(_ dasherID: RecordID, marketplaceID: String, transaction: Transaction) throws {
        try LaundryProfiles.change(dasherID, marketplaceID: marketplaceID, transaction: transaction) { record in
            var profile = record.dasher ?? SoukV1.DasherProfile()
            profile.completedJobs += 1
            record.dasher = profile
        }
    }
}
