@_spi(Testing) import SoukStore
import SoukGRPC
import SoukKit
import SoukMessages
import SoukTesting
import Testing
@testable import SoukIdentity
@testable import SoukLaundry

/// A student's laundry and Dasher profiles and ratings are laundry's records: identity's account
/// record holds none of them, its view shows them (`LaundryAccountPart`), and accounts an
/// earlier release stored with them inside move to laundry at start.
@Suite struct LaundryAccountPartTests {
    static let mattia = LaundryFixture.dorms["mattia"]!
    static let hardenbergh = LaundryFixture.dorms["hardenbergh"]!

    @Test func aCourierSignUpIsADasherAtFiveStarsAndItsProfilesAreLaundrys() async throws {
        let fixture = try await LaundryFixture.make()
        let response: SoukV1.SignUpResponse = try await fixture.harness.accounts("SignUp", SoukV1.SignUpRequest(
            marketplaceID: fixture.marketplace.id, requestID: "dee", email: "dee@rutgers.edu", password: "Abcdef1!", givenName: "Dee",
            requestedRoles: [.courier], laundryProfile: .init(campus: "Busch", dormID: Self.mattia, room: "7"), dasherAge: 20))
        let account = try #require(response.account)
        #expect(account.laundryProfile?.room == "7" && account.dasherProfile?.age == 20)
        #expect(account.rating == SoukV1.RatingSummary(count: 0, averageHundredths: 500))
        let id = try #require(RecordID(account.id))
        let stored = try #require(try fixture.harness.store.get(AccountTable.table, id)).value.account
        #expect(!stored.hasLegacyVerticalFields)
        let person = try #require(try fixture.harness.store.get(LaundryPersonTable.table, id)).value
        #expect(person.profile?.dormID == Self.mattia && person.dasher?.age == 20 && person.dasherRatingHundredths == 500)

        let missing = await fixture.harness.error("souk.v1.Accounts", "SignUp", SoukV1.SignUpRequest(
            marketplaceID: fixture.marketplace.id, requestID: "eve", email: "eve@rutgers.edu", password: "Abcdef1!", givenName: "Eve"),
            as: SoukV1.SignUpResponse.self)
        #expect(missing?.fieldViolations.map(\.field) == ["laundry_profile"])
        let unknownDorm = await fixture.harness.error("souk.v1.Accounts", "SignUp", SoukV1.SignUpRequest(
            marketplaceID: fixture.marketplace.id, requestID: "fay", email: "fay@rutgers.edu", password: "Abcdef1!", givenName: "Fay",
            laundryProfile: .init(campus: "Busch", dormID: "0190a0b0-0000-7000-8000-0000000000ff", room: "1")), as: SoukV1.SignUpResponse.self)
        #expect(unknownDorm?.fieldViolations.map(\.field) == ["laundry_profile.dorm_id"])
    }

    @Test func profileUpdatesAndBlocksChangeLaundrysRecord() async throws {
        let fixture = try await LaundryFixture.make()
        let dasher = try await fixture.student("dana", dasher: true)
        try await fixture.setAccepting(dasher)
        let me: SoukV1.Account = try await fixture.harness.accounts("GetMe", SoukV1.GetMeRequest(marketplaceID: fixture.marketplace.id), token: dasher.token)
        let updated: SoukV1.Account = try await fixture.harness.accounts("UpdateProfile", SoukV1.UpdateProfileRequest(
            marketplaceID: fixture.marketplace.id, account: .init(laundryProfile: .init(room: "42"), dasherProfile: .init(age: 30)),
            updateMask: .init(paths: ["laundry_profile.room", "dasher_profile.age"]), expectedVersion: me.version), token: dasher.token)
        #expect(updated.laundryProfile?.room == "42" && updated.laundryProfile?.dormID == Self.mattia && updated.dasherProfile?.age == 30)
        #expect(updated.version == me.version + 1)
        let id = try #require(RecordID(dasher.id))
        #expect(try fixture.harness.store.get(LaundryPersonTable.table, id)?.value.profile?.room == "42")

        let admin = try await fixture.harness.adminToken(fixture.marketplace)
        let _: SoukV1.Account = try await fixture.harness.accounts("BlockAccount", SoukV1.BlockAccountRequest(
            marketplaceID: fixture.marketplace.id, accountID: dasher.id, reason: "reported", expectedVersion: updated.version), token: admin)
        #expect(try fixture.harness.store.get(LaundryPersonTable.table, id)?.value.dasher?.acceptingRequests == false)
    }

    @Test func accountsStoredWithProfilesInsideMoveToLaundryOnce() async throws {
        let fixture = try await LaundryFixture.make()
        let store = fixture.harness.store
        let dasher = try await fixture.student("dana", dasher: true)
        let customer = try await fixture.student("cy", dorm: "hardenbergh")
        let id = try #require(RecordID(dasher.id))
        // The account as the previous release stored it: its profiles and ratings inside the
        // account message, nothing in laundry's table; the star totals were kept already.
        var legacy = try #require(try store.get(AccountTable.table, id)).value.account
        legacy.legacyLaundryProfile = .init(campus: "Busch", dormID: Self.hardenbergh, room: "9", gender: .female)
        legacy.legacyDasherProfile = .init(age: 22, completedJobs: 3, acceptingRequests: true, dasherSince: Timestamp(StoreTime(microsecondsSinceEpoch: 1_700_000_000_000_000)))
        legacy.legacyRating = .init(count: 2, averageHundredths: 450)
        legacy.legacyCustomerRating = .init()
        let old = legacy
        let version = try await store.write { transaction in
            try transaction.delete(LaundryPersonTable.table, id)
            _ = try RatingTotal.add(4, to: id, in: JobRatingTables.dasherTotals, transaction: transaction)
            _ = try RatingTotal.add(5, to: id, in: JobRatingTables.dasherTotals, transaction: transaction)
            return try transaction.updateMaintainedFields(AccountTable.table, id) { $0.account = old }.version
        }
        let raw = try #require(try store.rawRecordValue(AccountTable.table, id))
        let oldBytes = old.encoded()
        #expect(raw.count >= oldBytes.count && (0...(raw.count - oldBytes.count)).contains { Array(raw[$0..<$0 + oldBytes.count]) == oldBytes })

        #expect(try await fixture.harness.identity.moveLegacyVerticalFields() == 1)
        let stored = try #require(try store.get(AccountTable.table, id))
        #expect(stored.version == version && !stored.value.account.hasLegacyVerticalFields)
        let person = try #require(try store.get(LaundryPersonTable.table, id)).value
        #expect(person.profile == old.legacyLaundryProfile && person.dasher == old.legacyDasherProfile && person.dasherRatingHundredths == 450)
        let me: SoukV1.Account = try await fixture.harness.accounts("GetMe", SoukV1.GetMeRequest(marketplaceID: fixture.marketplace.id), token: dasher.token)
        #expect(me.laundryProfile == old.legacyLaundryProfile && me.dasherProfile == old.legacyDasherProfile && me.rating == old.legacyRating)
        let listed: SoukV1.ListAcceptingDashersResponse = try await fixture.call(
            "ListAcceptingDashers", SoukV1.ListAcceptingDashersRequest(marketplaceID: fixture.marketplace.id), customer)
        #expect(listed.dashers.map { $0.person?.accountID } == [dasher.id])
        #expect(try await fixture.harness.identity.moveLegacyVerticalFields() == 0)
    }
}
