import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import Testing
@testable import SoukAccess
import SoukKit

/// The interceptors and the method builder together, on real contract methods.
@Suite struct AccessControlTests {
    let harness: AccessHarness
    let builder: SoukMethodBuilder

    init() throws {
        harness = try AccessHarness()
        builder = SoukMethodBuilder(
            service: "souk.v1.Accounts", rules: harness.rules, marketplaces: FakeDirectory(), logger: .init(label: "test"))
    }

    /// GetAccount (Access: customer (owner), admin, operator): answers with the caller's id.
    var getAccount: RPCMethod {
        builder.unary("GetAccount", owner: .account { $0.accountID }) { (_: SoukV1.GetAccountRequest, call) in
            SoukV1.Account(id: call.caller?.accountID.description ?? "", marketplaceID: call.marketplace?.slug ?? "")
        }
    }

    func request(_ marketplace: RecordID = FakeAuthenticator.marketplace, account: RecordID = FakeAuthenticator.customerID)
        -> SoukV1.GetAccountRequest
    {
        SoukV1.GetAccountRequest(marketplaceID: marketplace.description, accountID: account.description)
    }

    func status(_ method: RPCMethod, _ request: some ProtoMessage, token: String?) async -> RPCError? {
        await harness.status("souk.v1.Accounts", method, request, token: token)
    }

    @Test func noTokenWhereGuestsAreNotAllowedIsUnauthenticated() async {
        let error = await status(getAccount, request(), token: nil)
        #expect(error?.code == .unauthenticated)
        #expect(error?.soukReason == .signInRequired)
    }

    @Test func aRefusedTokenIsUnauthenticatedWithItsReason() async {
        let error = await status(getAccount, request(), token: "blocked")
        #expect(error?.code == .unauthenticated)
        #expect(error?.message == "the access token is unknown or was revoked")
        #expect(await status(getAccount, request(), token: "Basic abc")?.code == .unauthenticated)
    }

    @Test func aTokenThatCannotBeCheckedEndsTheCall() async {
        // The store failed while the token was looked up: not the caller's fault, so not UNAUTHENTICATED.
        let error = await status(getAccount, request(), token: "store-closed")
        #expect(error?.code == .unavailable)
    }

    @Test func ownerReadsOwnAccountButNotAnothers() async throws {
        #expect(await status(getAccount, request(), token: "customer") == nil)
        let error = await status(getAccount, request(account: FakeAuthenticator.adminID), token: "customer")
        #expect(error?.code == .permissionDenied)
        #expect(error?.soukReason == .notAllowed)
    }

    @Test func adminsAndOperatorsNeedNoOwnership() async throws {
        let reply = try await harness.call("souk.v1.Accounts", getAccount, request(), token: "admin")
        #expect(try SoukV1.Account(decoding: reply).marketplaceID == "aqua-hub")
        #expect(await status(getAccount, request(FakeAuthenticator.otherMarketplace), token: "operator") == nil)
    }

    @Test func aTokenNeverActsInAnotherMarketplace() async {
        let error = await status(getAccount, request(FakeAuthenticator.otherMarketplace), token: "admin")
        #expect(error?.code == .permissionDenied)
        #expect(error?.soukReason == .marketplaceMismatch)
    }

    @Test func marketplaceMustBeAKnownUUID() async {
        let malformed = await status(getAccount, SoukV1.GetAccountRequest(marketplaceID: "aqua-hub", accountID: ""), token: "operator")
        #expect(malformed?.code == .invalidArgument)
        #expect(malformed?.message.hasPrefix("marketplace_id: ") == true)
        #expect(malformed?.fieldViolations.first?.field == "marketplace_id")
        let unknown = await status(getAccount, request(RecordID(high: 99, low: 99)), token: "operator")
        #expect(unknown?.code == .notFound)
        let missing = await status(getAccount, SoukV1.GetAccountRequest(), token: "operator")
        #expect(missing?.code == .invalidArgument)
    }

    @Test func archivedMarketplacesAnswerOnlyOperators() async throws {
        var directory = FakeDirectory()
        directory.marketplaces[FakeAuthenticator.marketplace]?.archived = true
        let builder = SoukMethodBuilder(service: "souk.v1.Accounts", rules: harness.rules, marketplaces: directory, logger: .init(label: "test"))
        let method = builder.unary("GetMe", scope: .marketplaceOrPlatform) { (_: SoukV1.GetMeRequest, _) in SoukV1.Account() }
        let request = SoukV1.GetMeRequest(marketplaceID: FakeAuthenticator.marketplace.description)
        #expect(await status(method, request, token: "admin")?.code == .failedPrecondition)
        #expect(await status(method, request, token: "operator") == nil)
    }

    @Test func platformScopeAcceptsAnEmptyMarketplaceOnlyForOperatorsAndGuests() async {
        let method = builder.unary("GetMe", scope: .marketplaceOrPlatform) { (_: SoukV1.GetMeRequest, _) in SoukV1.Account() }
        #expect(await status(method, SoukV1.GetMeRequest(), token: "operator") == nil)
        let error = await status(method, SoukV1.GetMeRequest(), token: "customer")
        #expect(error?.code == .permissionDenied)
        #expect(error?.soukReason == .marketplaceMismatch)
    }

    @Test func rolesThatAreNotActiveAreRefused() async {
        let method = builder.unary("ListAccounts") { (_: SoukV1.ListAccountsRequest, _) in SoukV1.ListAccountsResponse() }
        let request = SoukV1.ListAccountsRequest(marketplaceID: FakeAuthenticator.marketplace.description)
        let denied = await status(method, request, token: "customer")
        #expect(denied?.code == .permissionDenied)
        #expect(denied?.soukReason == .notAllowed)
        #expect(await status(method, request, token: "admin") == nil)
    }

    @Test func guestsBrowseEvenWithABadToken() async {
        let method = builder.unary("GetPublicProfile") { (_: SoukV1.GetPublicProfileRequest, call) in
            SoukV1.PersonSummary(displayName: call.caller == nil ? "guest" : "signed in")
        }
        let request = SoukV1.GetPublicProfileRequest(marketplaceID: FakeAuthenticator.marketplace.description)
        #expect(await status(method, request, token: nil) == nil)
        #expect(await status(method, request, token: "blocked") == nil)
        let reply = try? await harness.call("souk.v1.Accounts", method, request, token: "customer")
        #expect(reply.flatMap { try? SoukV1.PersonSummary(decoding: $0) }?.displayName == "signed in")
    }

    @Test func wrongVerticalIsAFailedPrecondition() async {
        let method = builder.unary("GetPublicProfile", verticals: [.laundry]) { (_: SoukV1.GetPublicProfileRequest, _) in SoukV1.PersonSummary() }
        let error = await status(method, SoukV1.GetPublicProfileRequest(marketplaceID: FakeAuthenticator.marketplace.description), token: nil)
        #expect(error?.code == .failedPrecondition)
        #expect(error?.soukReason == .wrongVertical)
    }

    @Test func storeErrorsBecomeStatuses() async {
        let method = builder.unary("GetPublicProfile") { (_: SoukV1.GetPublicProfileRequest, _) -> SoukV1.PersonSummary in
            throw StoreError.versionMismatch(table: "accounts", id: RecordID(high: 1, low: 2), expected: 1, actual: 2)
        }
        let error = await status(method, SoukV1.GetPublicProfileRequest(marketplaceID: FakeAuthenticator.marketplace.description), token: nil)
        #expect(error?.code == .aborted)
        #expect(error?.soukReason == .staleVersion)
    }

    @Test func stringsHoldingNULsAreRefusedBeforeTheyAreCut() async throws {
        let method = builder.unary("GetPublicProfile") { (request: SoukV1.GetPublicProfileRequest, _) in
            SoukV1.PersonSummary(accountID: request.accountID)
        }
        let marketplace = Array(FakeAuthenticator.marketplace.description.utf8)
        var bytes: [UInt8] = [0x0A, UInt8(marketplace.count)] + marketplace
        bytes += [0x12, 0x03, UInt8(ascii: "a"), 0, UInt8(ascii: "b")]  // account_id = "a\0b"
        do {
            _ = try await harness.call("souk.v1.Accounts", method, bytes: bytes, token: nil)
            Issue.record("a NUL inside account_id was accepted")
        } catch let error as RPCError {
            #expect(error.code == .invalidArgument)
            #expect(error.fieldViolations.first?.field == "account_id")
        }
    }

    @Test func unimplementedMethodsAnswerAfterAuthorization() async throws {
        let fallback = UnimplementedMethods.services(rules: harness.rules, implemented: [])
        #expect(fallback.count == 17)
        #expect(fallback.reduce(0) { $0 + $1.methods.count } == 230)
        let orders = try #require(fallback.first { $0.serviceName == "souk.v1.Orders" })
        let cancel = try #require(orders.methods.first { $0.name == "CancelOrder" })
        let request = SoukV1.GetMeRequest(marketplaceID: FakeAuthenticator.marketplace.description)
        #expect(await harness.status("souk.v1.Orders", cancel, request, token: nil)?.code == .unauthenticated)
        let error = await harness.status("souk.v1.Orders", cancel, request, token: "customer")
        #expect(error?.code == .unimplemented && error?.message == "souk.v1.Orders/CancelOrder is not implemented yet")
        #expect(error?.soukReason == .notImplemented)
        let watch = try #require(orders.methods.first { $0.name == "WatchOrder" })
        #expect(watch.kind == .serverStreaming)
    }

    @Test func implementedMethodsAreLeftOut() {
        struct Partial: RPCService {
            let serviceName = "souk.v1.Admin"
            let methods = [RPCMethod(name: "ListMailOutbox", handler: .unary { _, _ in throw RPCError(.ok, "") })]
        }
        let fallback = UnimplementedMethods.services(rules: harness.rules, implemented: [Partial()])
        let admin = fallback.first { $0.serviceName == "souk.v1.Admin" }
        #expect(admin?.methods.contains { $0.name == "ListMailOutbox" } == false)
        #expect(admin?.methods.contains { $0.name == "CompleteMail" } == true)
    }
}
