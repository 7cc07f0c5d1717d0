import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// What one party of a lease sees of the other: a summary (name, avatar, rating; no e-mail,
/// no phone).
enum RentalParties {
    static func summary(_ id: String, store: Store) throws -> SoukV1.PersonSummary? {
        guard let recordID = RecordID(id), let record = try store.get(AccountTable.table, recordID) else { return nil }
        var account = record.value.account
        account.id = id
        return Parties.summary(of: account, vertical: .rentals)
    }
}
