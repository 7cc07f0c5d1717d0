import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukIdentity

/// Accounts and sessions through the contract, on a real store, with the interceptors in front.
@Suite struct AccountFlowTests {
    let fixture: IdentityFixture

    init() throws {
        fixture = try IdentityFixture(accessTokenTTL: .seconds(60))
    }

    func getMe(_ marketplace: SoukV1.Marketplace, _ token: String) async -> RPCError? {
        await fixture.error("souk.v1.Accounts", "GetMe", SoukV1.GetMeRequest(marketplaceID: marketplace.id), token: token, as: SoukV1.Account.self)
    }

    @Test func signUpSignsInAndRequestedRolesWaitForAnAdmin() async throws {
        let marketplace = try await fixture.marketplace()
        let signUp = try await fixture.signUp(marketplace, email: "Jo@Rutgers.edu", roles: [.courier])
        let account = try #require(signUp.account)
        #expect(account.roles.map(\.role) == [.customer, .courier])
        #expect(account.roles.map(\.status) == [.active, .pending])
        // The Dasher profile is laundry's part (LaundryAccountPartTests); identity stores none.
        #expect(account.dasherProfile == nil && account.laundryProfile == nil)
        let session = try #require(signUp.session)
        #expect(session.accessToken.utf8.count == 43 && session.refreshToken != session.accessToken)
        let me: SoukV1.Account = try await fixture.accounts("GetMe", SoukV1.GetMeRequest(marketplaceID: marketplace.id), token: session.accessToken)
        #expect(me.id == account.id)
        // The pending courier role grants nothing yet.
        let denied = await fixture.error(
            "souk.v1.Deliveries", "ListMyDeliveries", SoukV1.GetMeRequest(marketplaceID: marketplace.id), token: session.accessToken,
            as: SoukV1.Account.self)
        #expect(denied?.code == .permissionDenied || denied?.code == .unimplemented)
    }

    @Test func signUpRulesNameTheirFields() async throws {
        let marketplace = try await fixture.marketplace(settings: .init(accounts: .init(allowedEmailDomains: ["rutgers.edu"])))
        func error(_ request: SoukV1.SignUpRequest) async -> RPCError? {
            await fixture.error("souk.v1.Accounts", "SignUp", request, as: SoukV1.SignUpResponse.self)
        }
        let base = SoukV1.SignUpRequest(
            marketplaceID: marketplace.id, requestID: "r", email: "a@rutgers.edu", password: "Abcdef1!", givenName: "Ann",
            laundryProfile: .init(campus: "Busch", room: "1"))
        var request = base
        request.email = "a@gmail.com"
        #expect(await error(request)?.soukReason == .emailDomainNotAllowed)
        request = base
        request.password = "abcdefgh"
        let weak = await error(request)
        #expect(weak?.soukReason == .weakPassword)
        #expect(weak?.fieldViolations.first?.field == "password")
        request = base
        request.phone = "0501234567"
        #expect(await error(request)?.message.hasPrefix("phone: ") == true)
        request = base
        request.requestID = ""
        #expect(await error(request)?.fieldViolations.first?.field == "request_id")
        request = base
        request.requestedRoles = [.operator]
        #expect(await error(request)?.fieldViolations.first?.field == "requested_roles[0]")
    }

    @Test func emailsAreUniqueCaseInsensitivelyAndKeepingOnesOwnIsFine() async throws {
        let marketplace = try await fixture.marketplace()
        let first = try await fixture.signUp(marketplace, email: "Jo@Rutgers.edu")
        let taken = await fixture.error(
            "souk.v1.Accounts", "SignUp",
            SoukV1.SignUpRequest(marketplaceID: marketplace.id, requestID: "other", email: "jo@RUTGERS.EDU", password: "Abcdef1!",
                                 givenName: "Jo", laundryProfile: .init(campus: "Busch", room: "2")),
            as: SoukV1.SignUpResponse.self)
        #expect(taken?.code == .alreadyExists)
        #expect(taken?.soukReason == .emailTaken)
        let token = try #require(first.session?.accessToken)
        let account = try #require(first.account)
        let updated: SoukV1.Account = try await fixture.accounts("UpdateProfile", SoukV1.UpdateProfileRequest(
            marketplaceID: marketplace.id, account: .init(id: account.id, email: "JO@rutgers.edu", givenName: "Nguyễn Thị Lan"),
            updateMask: .init(paths: ["email", "given_name"]), expectedVersion: account.version), token: token)
        #expect(updated.email == "JO@rutgers.edu" && updated.givenName == "Nguyễn Thị Lan" && updated.version == account.version + 1)
        let stale = await fixture.error("souk.v1.Accounts", "UpdateProfile", SoukV1.UpdateProfileRequest(
            marketplaceID: marketplace.id, account: .init(id: account.id, givenName: "Lan"), updateMask: .init(paths: ["given_name"]),
            expectedVersion: account.version), token: token, as: SoukV1.Account.self)
        #expect(stale?.code == .aborted)
    }

    @Test func signUpRetriesReturnTheFirstAccount() async throws {
        let marketplace = try await fixture.marketplace()
        let first = try await fixture.signUp(marketplace, email: "jo@rutgers.edu", requestID: "same")
        let again = try await fixture.signUp(marketplace, email: "jo@rutgers.edu", requestID: "same")
        #expect(again.account == first.account)
        #expect(again.session != nil && again.session?.accessToken != first.session?.accessToken)
        let reused = await fixture.error("souk.v1.Accounts", "SignUp", SoukV1.SignUpRequest(
            marketplaceID: marketplace.id, requestID: "same", email: "other@rutgers.edu", password: "Abcdef1!", givenName: "O",
            laundryProfile: .init(campus: "Busch", room: "2")), as: SoukV1.SignUpResponse.self)
        #expect(reused?.code == .invalidArgument)
        #expect(reused?.soukReason == .requestIDReused)
    }

    @Test func signingInAndChangingThePasswordLeaveTheAccountVersion() async throws {
        let marketplace = try await fixture.marketplace()
        let signUp = try await fixture.signUp(marketplace, email: "jo@rutgers.edu")
        let version = try #require(signUp.account?.version)
        _ = await fixture.error("souk.v1.Accounts", "Login", SoukV1.LoginRequest(
            marketplaceID: marketplace.id, email: "jo@rutgers.edu", password: "Wrong-pass-1"), as: SoukV1.Session.self)
        let session: SoukV1.Session = try await fixture.accounts(
            "Login", SoukV1.LoginRequest(marketplaceID: marketplace.id, email: "jo@rutgers.edu", password: "Abcdef1!"))
        #expect(session.account?.version == version)
        #expect(session.account?.lastLoginTime == Timestamp(fixture.clock.now) && session.account?.failedLoginCount == 0)
        let _: SoukV1.ChangePasswordResponse = try await fixture.accounts("ChangePassword", SoukV1.ChangePasswordRequest(
            marketplaceID: marketplace.id, currentPassword: "Abcdef1!", newPassword: "Newpass1!"), token: session.accessToken)
        let me: SoukV1.Account = try await fixture.accounts(
            "GetMe", SoukV1.GetMeRequest(marketplaceID: marketplace.id), token: session.accessToken)
        #expect(me.version == version)
    }

    @Test func wrongPasswordsLockTheAccountForTheMarketplacesLockout() async throws {
        let marketplace = try await fixture.marketplace(settings: .init(accounts: .init(maxFailedLogins: 3, lockoutDuration: .seconds(120))))
        _ = try await fixture.signUp(marketplace, email: "jo@rutgers.edu")
        func login(_ password: String, email: String = "jo@rutgers.edu") async -> RPCError? {
            await fixture.error("souk.v1.Accounts", "Login", SoukV1.LoginRequest(marketplaceID: marketplace.id, email: email, password: password),
                                as: SoukV1.Session.self)
        }
        let unknown = await login("Abcdef1!", email: "nobody@rutgers.edu")
        for _ in 0..<3 {
            let wrong = await login("Wrong-pass-1")
            #expect(wrong?.code == .unauthenticated)
            #expect(wrong?.message == unknown?.message && wrong?.errorInfo == unknown?.errorInfo)
        }
        let locked = await login("Abcdef1!")
        #expect(locked?.code == .resourceExhausted)
        #expect(locked?.soukReason == .accountLocked)
        #expect(locked?.retryDelay == .seconds(120))
        fixture.clock.advance(.seconds(121))
        #expect(await login("Abcdef1!") == nil)
    }

    @Test func tokensExpireAndRefreshRotates() async throws {
        let marketplace = try await fixture.marketplace()
        let session = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").session)
        fixture.clock.advance(.seconds(61))
        #expect(await getMe(marketplace, session.accessToken)?.code == .unauthenticated)
        let refreshed: SoukV1.Session = try await fixture.accounts(
            "Refresh", SoukV1.RefreshRequest(marketplaceID: marketplace.id, refreshToken: session.refreshToken))
        #expect(refreshed.sessionID == session.sessionID)
        #expect(await getMe(marketplace, refreshed.accessToken) == nil)
        // The rotated-out refresh token ends the whole session when it comes back after the
        // reuse interval (30 seconds).
        fixture.clock.advance(.seconds(30))
        let reused = await fixture.error(
            "souk.v1.Accounts", "Refresh", SoukV1.RefreshRequest(marketplaceID: marketplace.id, refreshToken: session.refreshToken),
            as: SoukV1.Session.self)
        #expect(reused?.code == .unauthenticated)
        #expect(await getMe(marketplace, refreshed.accessToken)?.code == .unauthenticated)
        let after = await fixture.error(
            "souk.v1.Accounts", "Refresh", SoukV1.RefreshRequest(marketplaceID: marketplace.id, refreshToken: refreshed.refreshToken),
            as: SoukV1.Session.self)
        #expect(after?.code == .unauthenticated)
    }

    @Test func logoutEndsTheSessionAndPasswordChangesEndTheOthers() async throws {
        let marketplace = try await fixture.marketplace()
        let first = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").session)
        let login = SoukV1.LoginRequest(marketplaceID: marketplace.id, email: "jo@rutgers.edu", password: "Abcdef1!")
        let second: SoukV1.Session = try await fixture.accounts("Login", login)
        let third: SoukV1.Session = try await fixture.accounts("Login", login)
        let changed: SoukV1.ChangePasswordResponse = try await fixture.accounts("ChangePassword", SoukV1.ChangePasswordRequest(
            marketplaceID: marketplace.id, currentPassword: "Abcdef1!", newPassword: "Newpass1!"), token: third.accessToken)
        #expect(changed.endedSessions == 2)
        #expect(await getMe(marketplace, first.accessToken)?.code == .unauthenticated)
        #expect(await getMe(marketplace, second.accessToken)?.code == .unauthenticated)
        #expect(await getMe(marketplace, third.accessToken) == nil)
        let out: SoukV1.LogoutResponse = try await fixture.accounts(
            "Logout", SoukV1.LogoutRequest(marketplaceID: marketplace.id), token: third.accessToken)
        #expect(out.endedSessions == 1)
        #expect(await getMe(marketplace, third.accessToken)?.code == .unauthenticated)
        let wrongCurrent = await fixture.error("souk.v1.Accounts", "ChangePassword", SoukV1.ChangePasswordRequest(
            marketplaceID: marketplace.id, currentPassword: "nope", newPassword: "Newpass2!"), token: second.accessToken,
            as: SoukV1.ChangePasswordResponse.self)
        #expect(wrongCurrent?.code == .unauthenticated)
    }

    @Test func blockingStopsTokensAtOnceAndIsAudited() async throws {
        let marketplace = try await fixture.marketplace()
        let admin = try await fixture.adminToken(marketplace)
        let user = try await fixture.signUp(marketplace, email: "jo@rutgers.edu")
        let token = try #require(user.session?.accessToken)
        let account = try #require(user.account)
        let block = SoukV1.BlockAccountRequest(marketplaceID: marketplace.id, accountID: account.id, reason: "abuse")
        let noReason = await fixture.error(
            "souk.v1.Accounts", "BlockAccount", SoukV1.BlockAccountRequest(marketplaceID: marketplace.id, accountID: account.id),
            token: admin, as: SoukV1.Account.self)
        #expect(noReason?.fieldViolations.first?.field == "reason")
        let customerBlocks = await fixture.error("souk.v1.Accounts", "BlockAccount", block, token: token, as: SoukV1.Account.self)
        #expect(customerBlocks?.code == .permissionDenied)
        let blocked: SoukV1.Account = try await fixture.accounts("BlockAccount", block, token: admin)
        #expect(blocked.state == .blocked && blocked.blockReason == "abuse")
        #expect(await getMe(marketplace, token)?.code == .unauthenticated)
        let login = await fixture.error("souk.v1.Accounts", "Login", SoukV1.LoginRequest(
            marketplaceID: marketplace.id, email: "jo@rutgers.edu", password: "Abcdef1!"), as: SoukV1.Session.self)
        #expect(login?.code == .permissionDenied && login?.soukReason == .accountBlocked)
        let twice = await fixture.error("souk.v1.Accounts", "BlockAccount", block, token: admin, as: SoukV1.Account.self)
        #expect(twice?.code == .failedPrecondition)
        let _: SoukV1.Account = try await fixture.accounts(
            "UnblockAccount", SoukV1.UnblockAccountRequest(marketplaceID: marketplace.id, accountID: account.id), token: admin)
        // Blocking ended the sessions: unblocking does not bring the old token back.
        #expect(await getMe(marketplace, token)?.code == .unauthenticated)
        let audit: SoukV1.ListAuditEntriesResponse = try await fixture.call("souk.v1.Admin", "ListAuditEntries", SoukV1.ListAuditEntriesRequest(
            marketplaceID: marketplace.id, resource: .init(type: .account, id: account.id)), token: admin)
        #expect(audit.entries.map(\.action) == ["souk.v1.Accounts/UnblockAccount", "souk.v1.Accounts/BlockAccount", "souk.v1.Accounts/SignUp"])
        #expect(audit.entries[1].toState == "ACCOUNT_STATE_BLOCKED" && audit.entries[1].reason == "abuse")
        #expect(audit.entries[1].actorRole == .admin && !audit.entries[1].actorAccountID.isEmpty)
    }

    @Test func adminsDecidePendingRoles() async throws {
        let marketplace = try await fixture.marketplace()
        let admin = try await fixture.adminToken(marketplace)
        let courier = try #require(try await fixture.signUp(marketplace, email: "dash@rutgers.edu", roles: [.courier]).account)
        let provider = try #require(try await fixture.signUp(marketplace, email: "shop@rutgers.edu", roles: [.provider]).account)
        let pending: SoukV1.ListAccountsResponse = try await fixture.accounts("ListAccounts", SoukV1.ListAccountsRequest(
            marketplaceID: marketplace.id, role: .courier, roleStatus: .pending), token: admin)
        #expect(pending.accounts.map(\.id) == [courier.id])
        let approved: SoukV1.Account = try await fixture.accounts("ApproveRole", SoukV1.ApproveRoleRequest(
            marketplaceID: marketplace.id, accountID: courier.id, role: .courier, expectedVersion: courier.version), token: admin)
        #expect(approved.roles.first { $0.role == .courier }?.status == .active)
        let retried = await fixture.error("souk.v1.Accounts", "ApproveRole", SoukV1.ApproveRoleRequest(
            marketplaceID: marketplace.id, accountID: courier.id, role: .courier, expectedVersion: courier.version), token: admin,
            as: SoukV1.Account.self)
        #expect(retried?.code == .aborted)
        let notPending = await fixture.error("souk.v1.Accounts", "ApproveRole", SoukV1.ApproveRoleRequest(
            marketplaceID: marketplace.id, accountID: courier.id, role: .courier), token: admin, as: SoukV1.Account.self)
        #expect(notPending?.code == .failedPrecondition)
        let rejected: SoukV1.Account = try await fixture.accounts("RejectRole", SoukV1.RejectRoleRequest(
            marketplaceID: marketplace.id, accountID: provider.id, role: .provider, reason: "no business licence"), token: admin)
        #expect(rejected.roles.first { $0.role == .provider }?.status == .rejected)
        #expect(rejected.roles.first { $0.role == .provider }?.reason == "no business licence")
        let assigned: SoukV1.Account = try await fixture.accounts("AssignRole", SoukV1.AssignRoleRequest(
            marketplaceID: marketplace.id, accountID: provider.id, role: .provider), token: admin)
        #expect(assigned.roles.first { $0.role == .provider }?.status == .active)
        let operatorRole = await fixture.error("souk.v1.Accounts", "AssignRole", SoukV1.AssignRoleRequest(
            marketplaceID: marketplace.id, accountID: provider.id, role: .operator), token: admin, as: SoukV1.Account.self)
        #expect(operatorRole?.code == .invalidArgument)
        let active: SoukV1.ListAccountsResponse = try await fixture.accounts("ListAccounts", SoukV1.ListAccountsRequest(
            marketplaceID: marketplace.id, role: .provider, roleStatus: .active), token: admin)
        #expect(active.accounts.map(\.id) == [provider.id])
        let badFilter = await fixture.error("souk.v1.Accounts", "ListAccounts", SoukV1.ListAccountsRequest(
            marketplaceID: marketplace.id, roleStatus: .pending), token: admin, as: SoukV1.ListAccountsResponse.self)
        #expect(badFilter?.code == .invalidArgument)
        // The notices went to the mail outbox.
        let mail: SoukV1.ListMailOutboxResponse = try await fixture.call(
            "souk.v1.Admin", "ListMailOutbox", SoukV1.ListMailOutboxRequest(marketplaceID: marketplace.id), token: admin)
        #expect(mail.messages.filter { $0.kind == .accountNotice }.count == 3)
    }

    @Test func listsArePaginatedWithTokensBoundToTheirFilters() async throws {
        let marketplace = try await fixture.marketplace()
        let admin = try await fixture.adminToken(marketplace)
        for index in 0..<5 { _ = try await fixture.signUp(marketplace, email: "user\(index)@rutgers.edu") }
        var seen: [String] = []
        var token = ""
        repeat {
            let page: SoukV1.ListAccountsResponse = try await fixture.accounts("ListAccounts", SoukV1.ListAccountsRequest(
                marketplaceID: marketplace.id, pageSize: 2, pageToken: token, emailPrefix: "USER"), token: admin)
            #expect(page.accounts.count <= 2)
            seen += page.accounts.map(\.email)
            token = page.nextPageToken
        } while !token.isEmpty
        #expect(seen == (0..<5).map { "user\($0)@rutgers.edu" })
        let first: SoukV1.ListAccountsResponse = try await fixture.accounts(
            "ListAccounts", SoukV1.ListAccountsRequest(marketplaceID: marketplace.id, pageSize: 2, emailPrefix: "user"), token: admin)
        let mixed = await fixture.error("souk.v1.Accounts", "ListAccounts", SoukV1.ListAccountsRequest(
            marketplaceID: marketplace.id, pageSize: 2, pageToken: first.nextPageToken, role: .customer), token: admin,
            as: SoukV1.ListAccountsResponse.self)
        #expect(mixed?.code == .invalidArgument)
    }

    @Test func passwordResetIsSingleUseAndOnlyOperatorsReadTheToken() async throws {
        let marketplace = try await fixture.marketplace()
        let admin = try await fixture.adminToken(marketplace)
        let session = try #require(try await fixture.signUp(marketplace, email: "jo@rutgers.edu").session)
        let _: SoukV1.RequestPasswordResetResponse = try await fixture.accounts(
            "RequestPasswordReset", SoukV1.RequestPasswordResetRequest(marketplaceID: marketplace.id, email: "JO@rutgers.edu"))
        let _: SoukV1.RequestPasswordResetResponse = try await fixture.accounts(
            "RequestPasswordReset", SoukV1.RequestPasswordResetRequest(marketplaceID: marketplace.id, email: "nobody@rutgers.edu"))
        let forAdmin: SoukV1.ListMailOutboxResponse = try await fixture.call(
            "souk.v1.Admin", "ListMailOutbox", SoukV1.ListMailOutboxRequest(marketplaceID: marketplace.id, statuses: [.pending]), token: admin)
        #expect(forAdmin.messages.map(\.body) == ["[redacted]"])
        let forOperator: SoukV1.ListMailOutboxResponse = try await fixture.call(
            "souk.v1.Admin", "ListMailOutbox", SoukV1.ListMailOutboxRequest(marketplaceID: marketplace.id, statuses: [.pending]),
            token: try await fixture.operatorToken())
        let mail = try #require(forOperator.messages.first)
        #expect(mail.kind == .passwordReset && mail.toAddress == "jo@rutgers.edu")
        let line = try #require(mail.body.split(separator: "\n").first { $0.hasPrefix("Reset token: ") })
        let resetToken = String(line.dropFirst("Reset token: ".count))
        let confirm = SoukV1.ConfirmPasswordResetRequest(marketplaceID: marketplace.id, resetToken: resetToken, newPassword: "Newpass1!")
        let weak = await fixture.error("souk.v1.Accounts", "ConfirmPasswordReset", SoukV1.ConfirmPasswordResetRequest(
            marketplaceID: marketplace.id, resetToken: resetToken, newPassword: "weak"), as: SoukV1.ConfirmPasswordResetResponse.self)
        #expect(weak?.fieldViolations.first?.field == "new_password")
        let _: SoukV1.ConfirmPasswordResetResponse = try await fixture.accounts("ConfirmPasswordReset", confirm)
        #expect(await getMe(marketplace, session.accessToken)?.code == .unauthenticated)
        let again = await fixture.error("souk.v1.Accounts", "ConfirmPasswordReset", confirm, as: SoukV1.ConfirmPasswordResetResponse.self)
        #expect(again?.code == .failedPrecondition && again?.soukReason == .tokenInvalid)
        let _: SoukV1.Session = try await fixture.accounts(
            "Login", SoukV1.LoginRequest(marketplaceID: marketplace.id, email: "jo@rutgers.edu", password: "Newpass1!"))
    }

    @Test func resetTokensExpire() async throws {
        let marketplace = try await fixture.marketplace()
        _ = try await fixture.signUp(marketplace, email: "jo@rutgers.edu")
        let _: SoukV1.RequestPasswordResetResponse = try await fixture.accounts(
            "RequestPasswordReset", SoukV1.RequestPasswordResetRequest(marketplaceID: marketplace.id, email: "jo@rutgers.edu"))
        let outbox: SoukV1.ListMailOutboxResponse = try await fixture.call(
            "souk.v1.Admin", "ListMailOutbox", SoukV1.ListMailOutboxRequest(marketplaceID: marketplace.id), token: try await fixture.operatorToken())
        let body = try #require(outbox.messages.first?.body)
        let token = String(try #require(body.split(separator: "\n").first { $0.hasPrefix("Reset token: ") }).dropFirst(13))
        fixture.clock.advance(.seconds(3601))
        let expired = await fixture.error("souk.v1.Accounts", "ConfirmPasswordReset", SoukV1.ConfirmPasswordResetRequest(
            marketplaceID: marketplace.id, resetToken: token, newPassword: "Newpass1!"), as: SoukV1.ConfirmPasswordResetResponse.self)
        #expect(expired?.code == .failedPrecondition)
    }

    @Test func deletingErasesPersonalDataAndFreesTheEmail() async throws {
        let marketplace = try await fixture.marketplace()
        let signUp = try await fixture.signUp(marketplace, email: "jo@rutgers.edu")
        let token = try #require(signUp.session?.accessToken)
        fixture.identity.deletionHooks.addCheck("test obligations") { subject, _ in
            subject.roles.contains { $0.role == .courier } ? "a job in progress" : nil
        }
        let wrong = await fixture.error("souk.v1.Accounts", "DeleteAccount", SoukV1.DeleteAccountRequest(
            marketplaceID: marketplace.id, password: "nope"), token: token, as: SoukV1.DeleteAccountResponse.self)
        #expect(wrong?.code == .unauthenticated)
        let _: SoukV1.DeleteAccountResponse = try await fixture.accounts(
            "DeleteAccount", SoukV1.DeleteAccountRequest(marketplaceID: marketplace.id, password: "Abcdef1!"), token: token)
        #expect(await getMe(marketplace, token)?.code == .unauthenticated)
        let stored = try #require(try fixture.store.get(AccountTable.table, RecordID(signUp.account!.id)!))
        #expect(stored.value.account.state == .deleted && stored.value.account.email.isEmpty && stored.value.account.givenName.isEmpty)
        #expect(try fixture.store.get(CredentialTable.table, stored.id)?.value.passwordHash == "")
        _ = try await fixture.signUp(marketplace, email: "jo@rutgers.edu", requestID: "again")
    }

    @Test func openObligationsRefuseDeletion() async throws {
        let marketplace = try await fixture.marketplace()
        let signUp = try await fixture.signUp(marketplace, email: "dash@rutgers.edu", roles: [.courier])
        fixture.identity.deletionHooks.addCheck("jobs in progress") { subject, _ in
            subject.roles.contains { $0.role == .courier } ? "a laundry job in progress" : nil
        }
        let refused = await fixture.error("souk.v1.Accounts", "DeleteAccount", SoukV1.DeleteAccountRequest(
            marketplaceID: marketplace.id, password: "Abcdef1!"), token: signUp.session?.accessToken, as: SoukV1.DeleteAccountResponse.self)
        #expect(refused?.code == .failedPrecondition && refused?.soukReason == .openObligations)
    }

    @Test func requestingARoleAddsItAsPending() async throws {
        let marketplace = try await fixture.marketplace(slug: "mara", vertical: .rentals, currency: "VND")
        let signUp = try await fixture.signUp(marketplace, email: "lan@mara.example")
        let token = try #require(signUp.session?.accessToken)
        let account: SoukV1.Account = try await fixture.accounts(
            "RequestRole", SoukV1.RequestRoleRequest(marketplaceID: marketplace.id, role: .provider), token: token)
        #expect(account.roles.first { $0.role == .provider }?.status == .pending)
        let twice = await fixture.error("souk.v1.Accounts", "RequestRole", SoukV1.RequestRoleRequest(
            marketplaceID: marketplace.id, role: .provider), token: token, as: SoukV1.Account.self)
        #expect(twice?.code == .failedPrecondition)
        let customer = await fixture.error("souk.v1.Accounts", "RequestRole", SoukV1.RequestRoleRequest(
            marketplaceID: marketplace.id, role: .customer), token: token, as: SoukV1.Account.self)
        #expect(customer?.code == .invalidArgument)
    }

    @Test func customersReadOnlyTheirOwnAccountAndNeverAnotherMarketplace() async throws {
        let laundry = try await fixture.marketplace()
        let rentals = try await fixture.marketplace(slug: "mara", vertical: .rentals, currency: "VND")
        let jo = try await fixture.signUp(laundry, email: "jo@rutgers.edu")
        let ann = try await fixture.signUp(laundry, email: "ann@rutgers.edu")
        let token = try #require(jo.session?.accessToken)
        let other = await fixture.error("souk.v1.Accounts", "GetAccount", SoukV1.GetAccountRequest(
            marketplaceID: laundry.id, accountID: ann.account!.id), token: token, as: SoukV1.Account.self)
        #expect(other?.code == .permissionDenied)
        let own: SoukV1.Account = try await fixture.accounts(
            "GetAccount", SoukV1.GetAccountRequest(marketplaceID: laundry.id, accountID: jo.account!.id), token: token)
        #expect(own.email == "jo@rutgers.edu")
        let elsewhere = await fixture.error("souk.v1.Accounts", "GetMe", SoukV1.GetMeRequest(marketplaceID: rentals.id), token: token,
                                            as: SoukV1.Account.self)
        #expect(elsewhere?.code == .permissionDenied && elsewhere?.soukReason == .marketplaceMismatch)
        let summary: SoukV1.PersonSummary = try await fixture.accounts(
            "GetPublicProfile", SoukV1.GetPublicProfileRequest(marketplaceID: laundry.id, accountID: ann.account!.id))
        #expect(summary.displayName == "Test" && summary.accountID == ann.account!.id)  // laundry: the given name alone
    }
}
