import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukIdentity

/// The accounts table stored `souk.v1.Account` before accounts had a record of their own
/// (`souk.store.v1.Account`, which keeps its field numbers): such records still read, the
/// vertical's fields an earlier release kept inside read as the legacy fields (handed to the
/// vertical at start), and the projection sends identity's fields as the contract has them.
@Suite struct StoredAccountFormatTests {
    /// A Dasher's account as the previous format wrote it, with the laundry and Dasher profiles
    /// and the ratings an earlier release kept inside (format byte 1, then the souk.v1.Account's
    /// bytes, made with `protoc --encode=souk.v1.Account` from the contract before this change).
    static let previousFormat = hexBytes("""
        01ac02122430313930663361342d376331652d376432612d396233632d3565366637613862396330641a1353616d2e4c6565
        40527574676572732e656475220353616d2a034c6565320c2b31373332353535303132333a2430313930663361342d303030
        302d373030302d383030302d3030303030303030303061314205656e2d55534a14080110022a060880e9f7d90632060880e9
        f7d9064a3a08031002222430313930663361342d303030302d373030302d383030302d3030303030303030303061642a0608
        e4e9f7d906320608808cfdd90650016205080310d3036a05080110f40372350a054275736368122430313930663361342d30
        3030302d373030302d383030302d3030303030303030303064311a043231344220017a0e0814100c1801220608808cfdd906
        b00101
        """)

    @Test func anAccountWrittenByThePreviousFormatReads() throws {
        let stored = try Self.previousFormat.withUnsafeBytes { try AccountTable.table.codec.decode($0) }.account
        #expect(stored.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d" && stored.email == "Sam.Lee@Rutgers.edu")
        #expect(stored.givenName == "Sam" && stored.familyName == "Lee" && stored.phone == "+17325550123" && stored.locale == "en-US")
        #expect(stored.avatarMediaID == "0190f3a4-0000-7000-8000-0000000000a1" && stored.state == .active && stored.emailVerified)
        #expect(stored.roles.map(\.role) == [.customer, .courier] && stored.roles.allSatisfy { $0.status == .active })
        #expect(stored.roles.last?.decidedByAccountID == "0190f3a4-0000-7000-8000-0000000000ad" && stored.roles.last?.decideTime?.seconds == 1_799_308_800)
        #expect(stored.hasLegacyVerticalFields)
        #expect(stored.legacyLaundryProfile == SoukV1.LaundryProfile(campus: "Busch", dormID: "0190f3a4-0000-7000-8000-0000000000d1", room: "214B", gender: .female))
        #expect(stored.legacyDasherProfile?.age == 20 && stored.legacyDasherProfile?.completedJobs == 12 && stored.legacyDasherProfile?.acceptingRequests == true)
        #expect(stored.legacyRating == SoukV1.RatingSummary(count: 3, averageHundredths: 467))
        #expect(stored.legacyCustomerRating == SoukV1.RatingSummary(count: 1, averageHundredths: 500))

        let time = StoreTime(microsecondsSinceEpoch: 1_799_308_800_000_000)
        let record = StoredRecord(id: RecordID.generate(), version: 6, createdAt: time, updatedAt: time, value: AccountRecord(account: stored))
        let credentials = CredentialRecord(passwordHash: "$argon2id$x", failedLogins: 2, lockedUntil: nil, lastLogin: time)
        let shown = AccountProjection.account(record, credentials)
        #expect(shown.id == record.id.description && shown.version == 6 && shown.updateTime?.seconds == 1_799_308_800)
        #expect(shown.email == stored.email && shown.givenName == "Sam" && shown.roles == stored.roles && shown.emailVerified)
        #expect(shown.failedLoginCount == 2 && shown.lastLoginTime?.seconds == 1_799_308_800 && shown.lockedUntil == nil)
        // The vertical's fields are its part's to fill: never the legacy copies.
        #expect(shown.laundryProfile == nil && shown.dasherProfile == nil)
        #expect(shown.rating == SoukV1.RatingSummary() && shown.customerRating == SoukV1.RatingSummary())
        // What the vertical adopts at start.
        let legacy = AccountProjection.legacy(stored, id: record.id)
        #expect(legacy.id == record.id.description && legacy.laundryProfile == stored.legacyLaundryProfile && legacy.rating == stored.legacyRating)
        #expect(!stored.withoutLegacyVerticalFields().hasLegacyVerticalFields)
    }
}
