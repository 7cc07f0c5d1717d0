import SoukKit
import SoukMessages
import SoukStore

/// The contract's view of an account: identity's record with its sign-in fields, then the
/// fields the account's vertical keeps in its own tables (`AccountPart.project`).
struct AccountViews: Sendable {
    let parts: AccountParts
    let marketplaces: MarketplaceRegistry

    /// The part of the vertical of marketplace `marketplaceID`; nil for operators and verticals
    /// without one.
    func part(marketplaceID: String) throws -> (any AccountPart)? {
        guard let id = RecordID(marketplaceID) else { return nil }
        return parts.part(try marketplaces.marketplace(id)?.vertical)
    }

    /// The view of `record` with `credentials`' sign-in fields, read through `reader` (the store,
    /// or the transaction that changed the account).
    func view(_ record: StoredRecord<AccountRecord>, _ credentials: CredentialRecord?, _ reader: any RecordLookup) throws -> SoukV1.Account {
        var account = AccountProjection.account(record, credentials)
        try project(&account, reader)
        return account
    }

    /// Fills in the vertical's fields of `account` (its id set).
    func project(_ account: inout SoukV1.Account, _ reader: any RecordLookup) throws {
        try part(marketplaceID: account.marketplaceID)?.project(&account, reader)
    }
}
