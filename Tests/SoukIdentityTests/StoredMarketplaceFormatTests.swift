import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukIdentity

/// The marketplaces table stored `souk.v1.Marketplace` before marketplaces had a record of their
/// own (`souk.store.v1.Marketplace`, which keeps its field numbers): such records still read,
/// and the projection sends them as the contract has them.
@Suite struct StoredMarketplaceFormatTests {
    /// An archived water-services marketplace as the previous format wrote it (the
    /// souk.v1.Marketplace's bytes alone, made with `protoc --encode=souk.v1.Marketplace` from the
    /// contract before this change).
    static let previousFormat = hexBytes("""
        1208617175612d6875621a08417175612048756220012a03534152320b417369612f5269796164683a0561722d534142160a
        140a0b6578616d706c652e636f6d10051a03088407480152060880e9f7d906
        """)

    @Test func aMarketplaceWrittenByThePreviousFormatReads() throws {
        let stored = try Self.previousFormat.withUnsafeBytes { try MarketplaceTable.table.codec.decode($0) }
        #expect(stored.slug == "aqua-hub" && stored.displayName == "Aqua Hub" && stored.vertical == .waterServices)
        #expect(stored.currencyCode == "SAR" && stored.timeZone == "Asia/Riyadh" && stored.defaultLocale == "ar-SA")
        let accounts = try #require(stored.settings?.accounts)
        #expect(accounts.maxFailedLogins == 5 && accounts.lockoutDuration == .seconds(900) && accounts.allowedEmailDomains == ["example.com"])
        #expect(stored.archived && stored.archiveTime?.seconds == 1_799_222_400)
        let time = StoreTime(microsecondsSinceEpoch: 1_799_222_400_000_000)
        let record = StoredRecord(id: RecordID.generate(), version: 7, createdAt: time, updatedAt: time, value: stored)
        let shown = MarketplaceProjection.marketplace(record)
        #expect(shown.id == record.id.description && shown.version == 7 && shown.updateTime?.seconds == 1_799_222_400)
        #expect(shown.slug == "aqua-hub" && shown.vertical == .waterServices && shown.currencyCode == "SAR" && shown.timeZone == "Asia/Riyadh")
        #expect(shown.settings == stored.settings && shown.archived && shown.archiveTime == stored.archiveTime && shown.defaultLocale == "ar-SA")
    }
}
