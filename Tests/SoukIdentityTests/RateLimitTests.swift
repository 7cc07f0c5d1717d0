import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukIdentity

/// The in-memory token buckets behind the sign-in, sign-up, reset and verification limits.
@Suite struct RateLimiterTests {
    let clock = ManualClock()

    @Test func aBucketSpendsItsCountThenRefillsOneCallPerShare() {
        let limiter = RateLimiter(clock: { [clock] in clock.now })
        let limit = RateLimit(count: 3, window: .seconds(60))
        for _ in 0..<3 { #expect(limiter.take("k", limit: limit) == nil) }
        let refusal = limiter.take("k", limit: limit)
        #expect(refusal?.index == 0 && refusal?.wait == .seconds(20))
        clock.advance(.seconds(19))
        #expect(limiter.take("k", limit: limit)?.wait == .seconds(1))
        clock.advance(.seconds(1))
        #expect(limiter.take("k", limit: limit) == nil)
        #expect(limiter.take("k", limit: limit) != nil)
        // Other keys are counted apart.
        #expect(limiter.take("other", limit: limit) == nil)
    }

    @Test func aRefusedCallSpendsFromNoBucket() {
        let limiter = RateLimiter(clock: { [clock] in clock.now })
        let roomy = RateLimit(count: 2, window: .seconds(60))
        let tight = RateLimit(count: 1, window: .seconds(60))
        #expect(limiter.takeAll([("address", roomy), ("account", tight)]) == nil)
        // The account's bucket is empty: refused, and the address keeps its last call.
        #expect(limiter.takeAll([("address", roomy), ("account", tight)])?.index == 1)
        #expect(limiter.take("address", limit: roomy) == nil)
        #expect(limiter.take("address", limit: roomy) != nil)
    }

    @Test func theTableStaysWithinItsCapacity() {
        let limiter = RateLimiter(capacity: 10, clock: { [clock] in clock.now })
        let limit = RateLimit(count: 1, window: .seconds(3600))
        for index in 0..<25 {
            clock.advance(.seconds(1))
            #expect(limiter.take("key\(index)", limit: limit) == nil)
        }
        #expect(limiter.keyCount <= 10)
        // The most recent keys are kept: the last one is still counted.
        #expect(limiter.take("key24", limit: limit) != nil)
    }
}

/// The limits as a marketplace sets them, and password reset doing the same work for every e-mail.
@Suite struct AuthLimitSettingsTests {
    @Test func unsetFieldsTakeTheDefaults() {
        let limits = AuthRateLimits(SoukV1.AuthRateLimits(
            signInPerAccount: .init(count: 3), passwordResetPerAccount: .init(window: .seconds(60))))
        #expect(limits[.signInPerAccount] == RateLimit(count: 3, window: .seconds(900)))
        #expect(limits[.passwordResetPerAccount] == RateLimit(count: 5, window: .seconds(60)))
        #expect(limits[.signUpPerAddress] == AuthRateLimits.Kind.signUpPerAddress.defaultLimit)
    }

    @Test func addressesAreCountedWithoutTheirPortAndIPv6ByItsNetwork() {
        #expect(AccountsService.clientAddress(peer: "ipv4:127.0.0.1:53422") == "ipv4:127.0.0.1")
        #expect(AccountsService.clientAddress(peer: "ipv6:[2001:db8:0:1:aaaa::1]:443") == "ipv6:2001:db8:0:1::/64")
        #expect(AccountsService.clientAddress(peer: "ipv6:[2001:db8:0:1:bbbb::2]:80") == "ipv6:2001:db8:0:1::/64")
        #expect(AccountsService.clientAddress(peer: "ipv6:[::1]:80") == "ipv6:0:0:0:0::/64")
        #expect(AccountsService.clientAddress(peer: "unix:/tmp/souk.sock") == "unix:/tmp/souk.sock")
    }

    @Test func passwordResetWritesAResetRecordWhetherOrNotTheAccountExists() async throws {
        let fixture = try IdentityFixture(accessTokenTTL: .seconds(60))
        let marketplace = try await fixture.marketplace()
        _ = try await fixture.signUp(marketplace, email: "jo@rutgers.edu")
        func resets() throws -> [StoredRecord<PasswordResetRecord>] {
            try fixture.store.list(PasswordResetTable.table, PasswordResetTable.byToken, page: PageRequest(size: 100)).items
        }
        for email in ["jo@rutgers.edu", "nobody@rutgers.edu"] {
            let _: SoukV1.RequestPasswordResetResponse = try await fixture.accounts(
                "RequestPasswordReset", SoukV1.RequestPasswordResetRequest(marketplaceID: marketplace.id, email: email))
        }
        let written = try resets()
        #expect(written.count == 2)
        // The unknown e-mail's record names no account, so its token (never mailed) redeems nothing.
        let owners = try written.map { try fixture.store.get(AccountTable.table, $0.value.accountID) }
        #expect(owners.filter { $0 == nil }.count == 1)
    }
}
