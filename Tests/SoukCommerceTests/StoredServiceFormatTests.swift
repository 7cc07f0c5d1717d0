import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukShops

/// The services table stored `souk.v1.Service` before services had a record of their own
/// (`souk.store.v1.Service`, which keeps its field numbers): such records still read, and the
/// projection sends them as the contract has them, in the caller's language.
@Suite struct StoredServiceFormatTests {
    /// A rated delivery service with an option and Arabic texts, as the previous format wrote it
    /// (its codec: format byte 1, the marketplace id, then the souk.v1.Service's bytes, made with
    /// `protoc --encode=souk.v1.Service` from the contract before this change).
    static let previousFormat = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d356536663761386239633064f501120a5361666920576174
        65721a17426f74746c6564206472696e6b696e672077617465722e20012a0808ac02120353415230013a570a243031393066
        3361342d303030302d373030302d383030302d3030303030303030303066361206362d7061636b1a0808dc0b120353415220
        012a130a026172120dd9a620d8b9d8a8d988d8a7d8aa3206362d7061636b422430313930663361342d303030302d37303030
        2d383030302d3030303030303030303065337a340a0261721211d985d98ad8a7d98720d8b5d8a7d981d98a1a1bd985d98ad8
        a7d98720d8b4d8b1d8a820d985d8b9d8a8d8a3d8a92e820105080210c2038a0102656e
        """)

    @Test func aServiceWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousFormat.withUnsafeBytes { try ServiceTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let service = value.subject
        #expect(service.name == "Safi Water" && service.description == "Bottled drinking water." && service.type == .delivery)
        #expect(service.basePrice == SoukV1.Money(amountMinor: 300, currencyCode: "SAR") && service.available && !service.requiresApproval)
        #expect(service.options.map(\.code) == ["6-pack"] && service.options.first?.price?.amountMinor == 1500)
        #expect(service.options.first?.translations.first?.name == "٦ عبوات" && service.imageMediaID == "0190f3a4-0000-7000-8000-0000000000e3")
        #expect(service.translations.map(\.languageCode) == ["ar"] && service.languageCode == "en")
        #expect(service.rating == SoukV1.RatingSummary(count: 2, averageHundredths: 450) && !service.archived)
        let time = StoreTime(microsecondsSinceEpoch: 1_796_083_200_000_000)
        let record = StoredRecord(id: RecordID.generate(), version: 3, createdAt: time, updatedAt: time, value: value)
        let shown = ServiceProjection.service(record)
        #expect(shown.id == record.id.description && shown.version == 3 && shown.updateTime == Timestamp(time))
        #expect(shown.name == service.name && shown.options == service.options && shown.translations == service.translations)
        #expect(shown.rating == service.rating && shown.localized == nil)
        let arabic = ServiceLanguages.localized(shown, language: .arabic)
        #expect(arabic.localized?.name == "مياه صافي" && arabic.options.first?.localized?.name == "٦ عبوات" && arabic.name == "Safi Water")
    }
}
