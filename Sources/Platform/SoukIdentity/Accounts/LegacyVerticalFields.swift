import SoukKit
import SoukMessages
import SoukStore

extension Identity {
    /// Hands the vertical fields earlier releases stored inside account records (laundry and
    /// Dasher profiles, ratings) to the part of each account's vertical (`AccountPart.adoptLegacy`)
    /// and clears them from the record, a page per transaction, without changing the accounts'
    /// versions. Runs at start, once every domain registered its part; accounts of a vertical no
    /// mounted module keeps are left as they are. Returns how many accounts moved.
    public func moveLegacyVerticalFields() async throws -> Int {
        var moved = 0
        var token: String? = nil
        let views = self.views
        repeat {
            let page = try store.list(
                AccountTable.table, AccountTable.withLegacyVerticalFields, page: PageRequest(size: PageRequest.maximumSize, token: token))
            token = page.nextPageToken
            moved += try await store.write { transaction in
                var count = 0
                for old in page.items {
                    guard let record = try transaction.get(AccountTable.table, old.id), record.value.account.hasLegacyVerticalFields,
                          let part = try views.part(marketplaceID: record.value.account.marketplaceID)
                    else { continue }
                    try part.adoptLegacy(AccountProjection.legacy(record.value.account, id: record.id), transaction: transaction)
                    try transaction.updateMaintainedFields(AccountTable.table, record.id) { $0.account = $0.account.withoutLegacyVerticalFields() }
                    count += 1
                }
                return count
            }
        } while token != nil
        if moved > 0 { logger.info("account fields moved to their verticals", metadata: ["accounts": "\(moved)"]) }
        return moved
    }
}
