import SoukAccess
import SoukKit
import SoukDemo
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukIdentity

@Suite struct MarketplaceFlowTests {
    let fixture: IdentityFixture

    init() throws {
        fixture = try IdentityFixture()
    }

    func marketplaces<Response: ProtoMessage>(_ method: String, _ request: some ProtoMessage, token: String? = nil) async throws -> Response {
        try await fixture.call("souk.v1.Marketplaces", method, request, token: token)
    }

    @Test func onlyOperatorsCreateAndCreatesAreIdempotent() async throws {
        let operatorToken = try await fixture.operatorToken()
        let request = SoukV1.CreateMarketplaceRequest(
            requestID: "m1", marketplace: .init(slug: "aqua-hub", displayName: "Aqua Hub", vertical: .waterServices, currencyCode: "SAR",
                                                timeZone: "Asia/Riyadh", defaultLocale: "ar-SA"))
        let created: SoukV1.Marketplace = try await marketplaces("CreateMarketplace", request, token: operatorToken)
        #expect(created.version == 1 && RecordID(created.id)?.version == 7 && created.createTime != nil)
        let again: SoukV1.Marketplace = try await marketplaces("CreateMarketplace", request, token: operatorToken)
        #expect(again == created)
        var duplicate = request
        duplicate.requestID = "m2"
        let taken = await fixture.error("souk.v1.Marketplaces", "CreateMarketplace", duplicate, token: operatorToken, as: SoukV1.Marketplace.self)
        #expect(taken?.code == .alreadyExists && taken?.soukReason == .duplicate)
        let guest = await fixture.error("souk.v1.Marketplaces", "CreateMarketplace", duplicate, as: SoukV1.Marketplace.self)
        #expect(guest?.code == .unauthenticated)
        let admin = try await fixture.adminToken(created, email: "admin@aquahub.example")
        let byAdmin = await fixture.error("souk.v1.Marketplaces", "CreateMarketplace", duplicate, token: admin, as: SoukV1.Marketplace.self)
        #expect(byAdmin?.code == .permissionDenied)
        let read: SoukV1.Marketplace = try await marketplaces("GetMarketplace", SoukV1.GetMarketplaceRequest(marketplaceID: created.id))
        #expect(read == created)
    }

    @Test func adminsChangeSettingsByMaskWithValidationAndVersions() async throws {
        let marketplace = try await fixture.marketplace(slug: "chateau-du-nox", vertical: .retail, currency: "MYR")
        let admin = try await fixture.adminToken(marketplace, email: "admin@chateau.example")
        let update = SoukV1.UpdateMarketplaceSettingsRequest(
            marketplaceID: marketplace.id,
            settings: .init(commerce: .init(taxRateBps: 2600, shippingFee: .init(amountMinor: 5990, currencyCode: "MYR"), maxQuantityPerCartLine: 12)),
            updateMask: .init(paths: ["commerce.tax_rate_bps", "commerce.shipping_fee"]), expectedVersion: marketplace.version)
        let updated: SoukV1.Marketplace = try await marketplaces("UpdateMarketplaceSettings", update, token: admin)
        #expect(updated.settings?.commerce == .init(taxRateBps: 2600, shippingFee: .init(amountMinor: 5990, currencyCode: "MYR")))
        #expect(updated.settings?.accounts?.maxFailedLogins == 5)
        #expect(updated.version == marketplace.version + 1)
        let stale = await fixture.error("souk.v1.Marketplaces", "UpdateMarketplaceSettings", update, token: admin, as: SoukV1.Marketplace.self)
        #expect(stale?.code == .aborted)
        // Identity checks the platform's parts; each vertical its own (SoukServerTests.SettingsValidationTests).
        var outOfRange = update
        outOfRange.expectedVersion = 0
        outOfRange.settings = .init(accounts: .init(maxFailedLogins: 1001))
        outOfRange.updateMask = .init(paths: ["accounts"])
        let range = await fixture.error(
            "souk.v1.Marketplaces", "UpdateMarketplaceSettings", outOfRange, token: admin, as: SoukV1.Marketplace.self)
        #expect(range?.fieldViolations.first?.field == "settings.accounts.max_failed_logins")
        var badMask = update
        badMask.expectedVersion = 0
        badMask.updateMask = .init(paths: ["commerce.nope"])
        let mask = await fixture.error("souk.v1.Marketplaces", "UpdateMarketplaceSettings", badMask, token: admin, as: SoukV1.Marketplace.self)
        #expect(mask?.fieldViolations.first?.field == "update_mask")
        // The next GetMarketplace sees the change (the directory cache follows every write).
        let read: SoukV1.Marketplace = try await marketplaces("GetMarketplace", SoukV1.GetMarketplaceRequest(marketplaceID: marketplace.id))
        #expect(read == updated)
    }

    @Test func archivedMarketplacesRefuseCallsUntilRestored() async throws {
        let marketplace = try await fixture.marketplace()
        let operatorToken = try await fixture.operatorToken()
        let archived: SoukV1.Marketplace = try await marketplaces(
            "ArchiveMarketplace", SoukV1.ArchiveMarketplaceRequest(marketplaceID: marketplace.id), token: operatorToken)
        #expect(archived.archived && archived.archiveTime != nil)
        let signUp = await fixture.error("souk.v1.Accounts", "SignUp", SoukV1.SignUpRequest(
            marketplaceID: marketplace.id, requestID: "r", email: "a@rutgers.edu", password: "Abcdef1!", givenName: "A",
            laundryProfile: .init(campus: "Busch", room: "1")), as: SoukV1.SignUpResponse.self)
        #expect(signUp?.code == .failedPrecondition)
        let listed: SoukV1.ListMarketplacesResponse = try await marketplaces("ListMarketplaces", SoukV1.ListMarketplacesRequest())
        #expect(listed.marketplaces.isEmpty)
        let all: SoukV1.ListMarketplacesResponse = try await marketplaces(
            "ListMarketplaces", SoukV1.ListMarketplacesRequest(showArchived: true), token: operatorToken)
        #expect(all.marketplaces.map(\.id) == [marketplace.id])
        let twice = await fixture.error("souk.v1.Marketplaces", "ArchiveMarketplace", SoukV1.ArchiveMarketplaceRequest(
            marketplaceID: marketplace.id), token: operatorToken, as: SoukV1.Marketplace.self)
        #expect(twice?.code == .failedPrecondition)
        let _: SoukV1.Marketplace = try await marketplaces(
            "RestoreMarketplace", SoukV1.RestoreMarketplaceRequest(marketplaceID: marketplace.id), token: operatorToken)
        _ = try await fixture.signUp(marketplace, email: "a@rutgers.edu")
    }

    @Test func listsFilterBySlugAndVertical() async throws {
        let laundry = try await fixture.marketplace()
        let rentals = try await fixture.marketplace(slug: "mara", vertical: .rentals, currency: "VND")
        let bySlug: SoukV1.ListMarketplacesResponse = try await marketplaces("ListMarketplaces", SoukV1.ListMarketplacesRequest(slug: "mara"))
        #expect(bySlug.marketplaces.map(\.id) == [rentals.id])
        let byVertical: SoukV1.ListMarketplacesResponse = try await marketplaces(
            "ListMarketplaces", SoukV1.ListMarketplacesRequest(vertical: .laundry))
        #expect(byVertical.marketplaces.map(\.id) == [laundry.id])
        let page: SoukV1.ListMarketplacesResponse = try await marketplaces("ListMarketplaces", SoukV1.ListMarketplacesRequest(pageSize: 1))
        #expect(page.marketplaces.map(\.id) == [laundry.id] && !page.nextPageToken.isEmpty)
        let next: SoukV1.ListMarketplacesResponse = try await marketplaces(
            "ListMarketplaces", SoukV1.ListMarketplacesRequest(pageSize: 1, pageToken: page.nextPageToken))
        #expect(next.marketplaces.map(\.id) == [rentals.id] && next.nextPageToken.isEmpty)
    }

    @Test func theOperatorIsCreatedOnce() async throws {
        #expect(try !fixture.identity.hasOperator())
        #expect(try await fixture.identity.bootstrapOperator(email: "ops@souk.example", password: "Operator-Pass-1"))
        #expect(try await !fixture.identity.bootstrapOperator(email: "other@souk.example", password: "Operator-Pass-2"))
        #expect(try fixture.identity.account(email: "other@souk.example", marketplaceID: nil) == nil)
        let weak = try IdentityFixture()
        await #expect(throws: IdentitySetupError.self) { try await weak.identity.bootstrapOperator(email: "ops@souk.example", password: "short") }
    }

    @Test func demoDataLoadsOnceWithEveryRoleInEveryMarketplace() async throws {
        let loader = DemoLoader(identity: fixture.identity, logger: IdentityFixture.quietLogger)
        let logins = try await loader.load()
        #expect(logins.count == 24)  // four a marketplace, two more DineSwift restaurant owners and two more MARA lessors
        #expect(Set(logins.map(\.marketplaceName)) == ["Aqua Hub", "Chateau Du Nox", "Drip 'n Dash", "MARA", "DineSwift"])
        for name in Set(logins.map(\.marketplaceName)) {
            #expect(Set(logins.filter { $0.marketplaceName == name }.map(\.role)) == [.customer, .provider, .courier, .admin])
        }
        // The demo provider of each marketplace is its last provider login (DineSwift lists its
        // other restaurant owners first, MARA its other lessors).
        #expect(logins.last { $0.marketplaceName == "DineSwift" && $0.role == .provider }?.email == "restaurant@dineswift.example")
        #expect(logins.last { $0.marketplaceName == "MARA" && $0.role == .provider }?.email == "lessor@mara.example")
        #expect(logins.filter { $0.marketplaceName == "Drip 'n Dash" }.allSatisfy { $0.email.hasSuffix("@rutgers.edu") })
        let line = try #require(logins.first).line
        #expect(line.hasPrefix("demo login: Aqua Hub | customer | customer@aquahub.example | AquaHub-customer-2026 | marketplace_id="))
        func records() throws -> [Int] {
            try Set(logins.map(\.marketplaceID)).sorted().flatMap { id in
                [
                    try fixture.store.list(AccountTable.table, AccountTable.byMarketplace, .starting(with: [.string(id)]),
                                           page: .init(size: 100)).items.count,
                    try fixture.store.list(AuditTable.table, AuditTable.byMarketplace, .starting(with: [.string(id)]),
                                           page: .init(size: 100)).items.count,
                ]
            }
        }
        let before = try records()
        // 4 accounts (6 at DineSwift and MARA); as many account audit entries and 1 for the marketplace.
        #expect(before.allSatisfy { [4, 5, 6, 7].contains($0) } && before.filter { $0 >= 6 }.count == 4)
        #expect(try await loader.load() == logins)
        #expect(try records() == before)
        // Every demo login signs in with its role active.
        for login in logins {
            let session: SoukV1.Session = try await fixture.accounts(
                "Login", SoukV1.LoginRequest(marketplaceID: login.marketplaceID, email: login.email, password: login.password))
            #expect(session.account?.roles.contains { $0.role == login.role && $0.status == .active } == true)
        }
        // The Dasher's laundry and Dasher profiles are laundry's part, not mounted here.
        let dasher = try #require(try fixture.identity.account(email: "dasher.demo@rutgers.edu", marketplaceID: RecordID(logins[10].marketplaceID)))
        #expect(dasher.roles.contains { $0.role == .courier && $0.status == .active } && dasher.laundryProfile == nil)
        let dripNDash = try #require(try fixture.identity.marketplaces.marketplace(slug: "drip-n-dash"))
        #expect(dripNDash.settings?.accounts?.allowedEmailDomains == ["rutgers.edu"])
        let chateau = try #require(try fixture.identity.marketplaces.marketplace(slug: "chateau-du-nox"))
        #expect(chateau.settings?.commerce?.taxRateBps == 2600 && chateau.settings?.commerce?.maxQuantityPerCartLine == 12)
    }
}
