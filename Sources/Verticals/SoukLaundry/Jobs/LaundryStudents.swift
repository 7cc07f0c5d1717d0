import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// What the laundry rules read of an account: its dorm, whether it is a verified student and an
/// active Dasher, and the summary another party sees.
enum LaundryStudents {
    /// The caller's account, which must be a verified student with a dorm.
    static func requireStudent(_ call: SoukCall, store: Store) throws -> SoukV1.Account {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        guard let record = try store.get(AccountTable.table, caller.accountID), record.value.account.marketplaceID == marketplaceID.description
        else { throw RPCError.notFound("account", caller.accountID.description) }
        var account = record.value.account
        account.id = record.id.description
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

    /// The caller's stored account in the call's marketplace.
    static func callerRecord(_ call: SoukCall, _ store: Store) throws -> StoredRecord<AccountRecord> {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        guard let record = try store.get(AccountTable.table, caller.accountID),
              record.value.account.marketplaceID == marketplaceID.description
        else { throw RPCError.notFound("account", caller.accountID.description) }
        return record
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
        guard let recordID = RecordID(id), let record = try transaction.get(AccountTable.table, recordID),
              record.value.account.marketplaceID == marketplaceID else { return nil }
        var account = record.value.account
        account.id = id
        return account
    }

    /// What another party sees of account `id`: first name and rating (Parties); nil for none.
    static func summary(_ id: String, store: Store) throws -> SoukV1.PersonSummary? {
        guard let recordID = RecordID(id), let record = try store.get(AccountTable.table, recordID) else { return nil }
        var account = record.value.account
        account.id = id
        return Parties.summary(of: account, vertical: .laundry)
    }

    /// What a customer sees of a Dasher: first name and rating, completed jobs, time as a Dasher.
    static func dasherSummary(of account: SoukV1.Account) -> SoukV1.DasherSummary {
        SoukV1.DasherSummary(
            person: Parties.summary(of: account, vertical: .laundry), completedJobs: account.dasherProfile?.completedJobs ?? 0,
            dasherSince: account.dasherProfile?.dasherSince)
    }

    /// The summary of Dasher `id`; nil for none.
    static func dasherSummary(_ id: String, store: Store) throws -> SoukV1.DasherSummary? {
        guard let recordID = RecordID(id), let record = try store.get(AccountTable.table, recordID) else { return nil }
        var account = record.value.account
        account.id = id
        return dasherSummary(of: account)
    }

    /// One more job brought to stage 9 by the Dasher (a field the server maintains).
    static func countCompleted(_ dasherID: RecordID, transaction: Transaction) throws {
        guard try transaction.get(AccountTable.table, dasherID) != nil else { return }
        try transaction.updateMaintainedFields(AccountTable.table, dasherID) { record in
            var profile = record.account.dasherProfile ?? SoukV1.DasherProfile()
            profile.completedJobs += 1
            record.account.dasherProfile = profile
        }
    }
}
