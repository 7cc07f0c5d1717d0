import SoukAccess
import SoukGRPC
import SoukMessages
@_spi(Testing) import SoukStore
import Testing
@testable import SoukIdentity

/// A call's authentication answers from memory in the common case, and every change to its
/// session or account applies to the very next call.
@Suite struct AuthenticationCacheTests {
    let fixture: IdentityFixture

    init() throws {
        fixture = try IdentityFixture()
    }

    func getMe(_ marketplace: SoukV1.Marketplace, _ token: String) async -> RPCError? {
        await fixture.error("souk.v1.Accounts", "GetMe", SoukV1.GetMeRequest(marketplaceID: marketplace.id), token: token, as: SoukV1.Account.self)
    }

    @Test func aTokenAuthenticatedBeforeIsAuthenticatedWithoutAStoreRead() async throws {
        let marketplace = try await fixture.marketplace()
        let token = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").session?.accessToken)
        let first = try fixture.identity.sessions.caller(forAccessToken: token)
        let calls = fixture.store.callCount
        for _ in 0..<3 {
            #expect(try fixture.identity.sessions.caller(forAccessToken: token) == first)
        }
        #expect(fixture.store.callCount == calls)
    }

    @Test func blockingAnAccountRefusesItsNextCall() async throws {
        let marketplace = try await fixture.marketplace()
        let admin = try await fixture.adminToken(marketplace)
        let user = try await fixture.signUp(marketplace, email: "jo@rutgers.edu")
        let token = try #require(user.session?.accessToken)
        #expect(await getMe(marketplace, token) == nil)
        let _: SoukV1.Account = try await fixture.accounts(
            "BlockAccount", SoukV1.BlockAccountRequest(marketplaceID: marketplace.id, accountID: try #require(user.account).id, reason: "abuse"),
            token: admin)
        let refused = await getMe(marketplace, token)
        #expect(refused?.code == .unauthenticated && refused?.soukReason == .accountBlocked)
    }

    @Test func signingOutRefusesTheSessionsNextCall() async throws {
        let marketplace = try await fixture.marketplace()
        let token = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").session?.accessToken)
        #expect(await getMe(marketplace, token) == nil)
        let _: SoukV1.LogoutResponse = try await fixture.accounts("Logout", SoukV1.LogoutRequest(marketplaceID: marketplace.id), token: token)
        let refused = await getMe(marketplace, token)
        #expect(refused?.code == .unauthenticated && refused?.soukReason == .sessionRevoked)
    }

    @Test func aRoleGrantedAppliesToTheNextCall() async throws {
        let marketplace = try await fixture.marketplace()
        let admin = try await fixture.adminToken(marketplace)
        let user = try await fixture.signUp(marketplace, email: "jo@rutgers.edu")
        let token = try #require(user.session?.accessToken)
        #expect(try fixture.identity.sessions.caller(forAccessToken: token).activeRoles == [.customer])
        let _: SoukV1.Account = try await fixture.accounts(
            "AssignRole", SoukV1.AssignRoleRequest(marketplaceID: marketplace.id, accountID: try #require(user.account).id, role: .courier),
            token: admin)
        #expect(try fixture.identity.sessions.caller(forAccessToken: token).activeRoles == [.customer, .courier])
    }

    @Test func anExpiredTokenIsRefusedThoughItWasAuthenticatedBefore() async throws {
        let marketplace = try await fixture.marketplace()
        let token = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").session?.accessToken)
        #expect(await getMe(marketplace, token) == nil)
        fixture.clock.advance(.seconds(3601))
        let refused = await getMe(marketplace, token)
        #expect(refused?.code == .unauthenticated && refused?.soukReason == .tokenExpired)
    }

    @Test func theCacheKeepsAtMostItsCapacityAndForgetsWhatChanged() throws {
        let cache = AuthenticationCache(capacity: 2)
        let account = RecordID.generate()
        let sessions = (0..<3).map { _ in RecordID.generate() }
        let tokens = (0..<3).map { TokenHash(of: "token-\($0)") }
        let expiry = StoreTime(microsecondsSinceEpoch: 2_000_000_000_000_000)
        let now = StoreTime(microsecondsSinceEpoch: 1_900_000_000_000_000)
        for i in 0..<3 {
            let caller = Caller(accountID: account, marketplaceID: nil, sessionID: sessions[i], activeRoles: [.customer])
            cache.add(tokens[i], .init(caller: caller, accessExpiry: expiry), readAt: cache.generation)
        }
        #expect(cache.count == 2)
        cache.invalidate(accounts: [account])
        #expect(cache.count == 0)
        #expect(tokens.allSatisfy { cache.entry($0, now: now) == nil })
        // What was read before a change is not kept after it; what is read after it is.
        let caller = Caller(accountID: account, marketplaceID: nil, sessionID: sessions[0], activeRoles: [.customer])
        let before = cache.generation
        cache.invalidate(sessions: [sessions[0]])
        cache.add(tokens[0], .init(caller: caller, accessExpiry: expiry), readAt: before)
        #expect(cache.entry(tokens[0], now: now) == nil)
        cache.add(tokens[0], .init(caller: caller, accessExpiry: expiry), readAt: cache.generation)
        #expect(cache.entry(tokens[0], now: now)?.caller == caller)
        // An expired entry is dropped.
        #expect(cache.entry(tokens[0], now: expiry) == nil && cache.count == 0)
    }
}
