import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// Commerce's part of water-services and food-delivery accounts (`AccountPart`): the rating a
/// courier or driver received, which commerce keeps (`RatingTotalTable`) and the account view shows.
struct CommerceAccountPart: AccountPart {
    func project(_ account: inout SoukV1.Account, _ reader: any RecordLookup) throws {
        try Self.project(&account, reader)
    }

    /// Fills `Account.rating` of `account` (its id set) from commerce's totals.
    static func project(_ account: inout SoukV1.Account, _ reader: any RecordLookup) throws {
        guard let id = RecordID(account.id) else { return }
        account.rating = try RatingTotal.summary(of: id, in: RatingTotalTable.table, reader) ?? SoukV1.RatingSummary()
    }
}
