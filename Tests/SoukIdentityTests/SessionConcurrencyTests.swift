import SoukGRPC
import SoukMessages
@_spi(Testing) import SoukStore
import Testing
@testable import SoukIdentity

/// Refresh retries and the sign-in lockout with many calls in flight at once, on a real store.
@Suite struct SessionConcurrencyTests {
    let fixture: IdentityFixture

    init() throws {
        fixture = try IdentityFixture()
    }

    func refresh(_ marketplace: SoukV1.Marketplace, _ token: String) async -> Result<SoukV1.Session, RPCError> {
        do {
            return .success(try await fixture.accounts("Refresh", SoukV1.RefreshRequest(marketplaceID: marketplace.id, refreshToken: token)))
        } catch let error as RPCError {
            return .failure(error)
        } catch {
            return .failure(RPCError(.unknown, "\(error)"))
        }
    }

    /// `count` Refresh calls with the same token, all in flight together.
    func refreshAtOnce(_ marketplace: SoukV1.Marketplace, _ token: String, count: Int) async -> [Result<SoukV1.Session, RPCError>] {
        await withTaskGroup(of: Result<SoukV1.Session, RPCError>.self) { group in
            for _ in 0..<count { group.addTask { await refresh(marketplace, token) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    func getMe(_ marketplace: SoukV1.Marketplace, _ token: String) async -> RPCError? {
        await fixture.error("souk.v1.Accounts", "GetMe", SoukV1.GetMeRequest(marketplaceID: marketplace.id), token: token, as: SoukV1.Account.self)
    }

    // MARK: Refresh retries

    @Test func refreshesRacingWithOneTokenAllGetTheSamePairUntilTheIntervalEnds() async throws {
        let marketplace = try await fixture.marketplace()
        for round in 0..<5 {
            let first = try #require(try await fixture.signUp(marketplace, email: "jo\(round)@rutgers.edu").session)
            let results = await refreshAtOnce(marketplace, first.refreshToken, count: 6)
            let pairs = try results.map { try $0.get() }
            let pair = pairs[0]
            #expect(pair.accessToken != first.accessToken && pair.refreshToken != first.refreshToken)
            for other in pairs {
                #expect(other.accessToken == pair.accessToken && other.refreshToken == pair.refreshToken)
                #expect(other.accessTokenExpireTime == pair.accessTokenExpireTime)
                #expect(other.refreshTokenExpireTime == pair.refreshTokenExpireTime && other.sessionID == first.sessionID)
            }
            #expect(await getMe(marketplace, pair.accessToken) == nil)
            // Just before the default 30 seconds end, a retry still gets the same pair.
            fixture.clock.advance(.seconds(29))
            #expect(try await refresh(marketplace, first.refreshToken).get().refreshToken == pair.refreshToken)
            #expect(await getMe(marketplace, pair.accessToken) == nil)
            // After them, the retired token ends the session.
            fixture.clock.advance(.seconds(1))
            guard case .failure(let reused) = await refresh(marketplace, first.refreshToken) else {
                Issue.record("a retired refresh token was accepted after the reuse interval")
                return
            }
            #expect(reused.code == .unauthenticated && reused.soukReason == .tokenInvalid)
            #expect(await getMe(marketplace, pair.accessToken)?.code == .unauthenticated)
            guard case .failure = await refresh(marketplace, pair.refreshToken) else {
                Issue.record("the pair of an ended session still refreshes")
                return
            }
        }
    }

    @Test func theMarketplacesReuseIntervalBoundsRetries() async throws {
        let marketplace = try await fixture.marketplace(settings: .init(accounts: .init(refreshReuseInterval: .seconds(2))))
        let first = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").session)
        let pair = try await refresh(marketplace, first.refreshToken).get()
        fixture.clock.advance(.milliseconds(1999))
        let retried = try await refresh(marketplace, first.refreshToken).get()
        #expect(retried.accessToken == pair.accessToken && retried.refreshToken == pair.refreshToken)
        fixture.clock.advance(.milliseconds(1))
        #expect(await refresh(marketplace, first.refreshToken).failureCode == .unauthenticated)
        #expect(await getMe(marketplace, pair.accessToken)?.code == .unauthenticated)
    }

    @Test func onlyTheLatestRotationCanBeRetried() async throws {
        let marketplace = try await fixture.marketplace()
        let first = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").session)
        let second = try await refresh(marketplace, first.refreshToken).get()
        let third = try await refresh(marketplace, second.refreshToken).get()
        #expect(try await refresh(marketplace, second.refreshToken).get().refreshToken == third.refreshToken)
        // The first token's pair was itself rotated: within the interval or not, it ends the session.
        #expect(await refresh(marketplace, first.refreshToken).failureCode == .unauthenticated)
        #expect(await getMe(marketplace, third.accessToken)?.code == .unauthenticated)
        #expect(await refresh(marketplace, second.refreshToken).failureCode == .unauthenticated)
    }

    @Test func aRetryIsRefusedOnceTheSessionEnded() async throws {
        let marketplace = try await fixture.marketplace()
        let first = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").session)
        let pair = try await refresh(marketplace, first.refreshToken).get()
        let _: SoukV1.LogoutResponse = try await fixture.accounts(
            "Logout", SoukV1.LogoutRequest(marketplaceID: marketplace.id), token: pair.accessToken)
        #expect(await refresh(marketplace, first.refreshToken).failureReason == .tokenInvalid)
        let stored = try fixture.store.get(SessionTable.table, try #require(RecordID(first.sessionID)))
        #expect(stored?.value.revoked == true && stored?.value.latestRotation == nil)
    }

    @Test func theStoreKeepsNoTokenInTheClear() async throws {
        let marketplace = try await fixture.marketplace()
        let first = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").session)
        let pair = try await refresh(marketplace, first.refreshToken).get()
        let sessionID = try #require(RecordID(pair.sessionID))
        let stored = try #require(try fixture.store.rawRecordValue(SessionTable.table, sessionID))
        for token in [first.accessToken, first.refreshToken, pair.accessToken, pair.refreshToken] {
            #expect(!stored.contains(Array(token.utf8)))
        }
    }

    // MARK: Lockout

    func login(_ marketplace: SoukV1.Marketplace, _ password: String) async -> Result<SoukV1.Session, RPCError> {
        do {
            return .success(try await fixture.accounts(
                "Login", SoukV1.LoginRequest(marketplaceID: marketplace.id, email: "jo@rutgers.edu", password: password)))
        } catch let error as RPCError {
            return .failure(error)
        } catch {
            return .failure(RPCError(.unknown, "\(error)"))
        }
    }

    /// Logins with each of `passwords`, all in flight together, in the order given.
    func loginAtOnce(_ marketplace: SoukV1.Marketplace, _ passwords: [String]) async -> [Result<SoukV1.Session, RPCError>] {
        await withTaskGroup(of: (Int, Result<SoukV1.Session, RPCError>).self) { group in
            for (index, password) in passwords.enumerated() { group.addTask { (index, await login(marketplace, password)) } }
            return await group.reduce(into: Array(repeating: .failure(RPCError(.unknown, "no answer")), count: passwords.count)) {
                $0[$1.0] = $1.1
            }
        }
    }

    func credentials(_ accountID: String) throws -> CredentialRecord? {
        let id = try #require(RecordID(accountID))
        return try fixture.store.get(CredentialTable.table, id)?.value
    }

    @Test func wrongPasswordsAtOnceCountOnlyUpToTheLimitAndTheRestAreRefusedAsLocked() async throws {
        let marketplace = try await fixture.marketplace()
        let account = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").account)
        let results = await loginAtOnce(marketplace, Array(repeating: "Wrong-pass-1", count: 12))
        let reasons = results.map { $0.failureReason }
        #expect(reasons.filter { $0 == .badCredentials }.count == 5)
        #expect(reasons.filter { $0 == .accountLocked }.count == 7)
        for case .failure(let error) in results where error.soukReason == .accountLocked {
            #expect(error.code == .resourceExhausted)
            #expect(error.retryDelay == .seconds(15 * 60))
        }
        let stored = try #require(try credentials(account.id))
        #expect(stored.failedLogins == 5 && stored.lockedUntil == fixture.clock.now.adding(.seconds(15 * 60)))
        // The right password is refused too until the lockout ends.
        #expect(await login(marketplace, "Abcdef1!").failureReason == .accountLocked)
        fixture.clock.advance(.seconds(15 * 60))
        #expect(await login(marketplace, "Abcdef1!").failureReason == nil)
        #expect(try credentials(account.id)?.failedLogins == 0)
    }

    @Test func aRightPasswordCheckedBeforeTheLockSignsInAndClearsIt() async throws {
        let marketplace = try await fixture.marketplace()
        let account = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").account)
        let service = AccountsService(identity: fixture.identity, rules: fixture.rules)
        // The right password's attempt passes the lock check first; wrong ones lock the account
        // while its password is being checked.
        let attempt = try service.beginSignIn(email: "jo@rutgers.edu", scope: marketplace.id)
        let wrong = await loginAtOnce(marketplace, Array(repeating: "Wrong-pass-1", count: 8))
        #expect(wrong.filter { $0.failureReason == .badCredentials }.count == 5)
        #expect(wrong.filter { $0.failureReason == .accountLocked }.count == 3)
        #expect(try credentials(account.id)?.lockout(at: fixture.clock.now) != nil)
        let matches = try await fixture.identity.passwords.verify("Abcdef1!", against: attempt.credentials?.value.passwordHash)
        let session = try await service.finishSignIn(attempt, passwordMatches: matches, deviceName: "phone")
        #expect(await getMe(marketplace, session.accessToken) == nil)
        let stored = try #require(try credentials(account.id))
        #expect(stored.failedLogins == 0 && stored.lockedUntil == nil)
        #expect(await login(marketplace, "Wrong-pass-1").failureReason == .badCredentials)
    }

    @Test func aRightPasswordAmongWrongOnesAtOnceSignsIn() async throws {
        let marketplace = try await fixture.marketplace()
        let account = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").account)
        for _ in 0..<5 {
            var passwords = Array(repeating: "Wrong-pass-1", count: 4)
            passwords.insert("Abcdef1!", at: 2)
            let results = await loginAtOnce(marketplace, passwords)
            #expect(results[2].failureReason == nil)
            #expect(results.enumerated().allSatisfy { $0.offset == 2 || $0.element.failureReason == .badCredentials })
            // Only wrong passwords judged after the right one still count.
            let stored = try #require(try credentials(account.id))
            #expect(stored.failedLogins <= 4 && stored.lockedUntil == nil)
            #expect(await login(marketplace, "Abcdef1!").failureReason == nil)
        }
    }
}

extension Result where Failure == RPCError {
    /// The reason of the refusal; nil when the call succeeded.
    var failureReason: SoukV1.ErrorReason? {
        guard case .failure(let error) = self else { return nil }
        return error.soukReason ?? .unspecified
    }

    var failureCode: StatusCode? {
        guard case .failure(let error) = self else { return nil }
        return error.code
    }
}
