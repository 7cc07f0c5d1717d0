import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore

// Sign-up, sign-in, tokens and passwords.
extension AccountsService {
    func signUp(_ request: SoukV1.SignUpRequest, _ call: SoukCall) async throws -> SoukV1.SignUpResponse {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        try checkRateLimits([(.signUpPerAddress, Self.clientAddress(call))], call)
        let new = NewAccount(
            email: request.email, password: request.password, givenName: request.givenName, familyName: request.familyName,
            phone: request.phone, pendingRoles: request.requestedRoles, laundryProfile: request.laundryProfile,
            dasherAge: request.dasherAge)
        // Every wrong field at once: the form highlights them all.
        var checks = FieldChecks()
        let checkedID = try checks.run { try RequestFields.requestID(request.requestID) }
        try new.validate(in: marketplace, rules: try identity.accountRules(marketplaceID.description), fields: .signUp,
            dormRequired: identity.dormCheck.isRegistered, into: &checks)
        try checks.finish()
        let requestID = checkedID ?? ""
        // The fingerprint leaves the password out: idempotency records keep no secrets.
        var fingerprinted = request
        fingerprinted.password = ""
        let (account, session) = try await identity.createAccount(
            new, in: marketplace, fields: .signUp, actor: AuditActor(call, requestID: requestID),
            idempotencyKey: IdempotencyKey(marketplace: marketplaceID.description, account: "", key: requestID),
            fingerprint: RequestFingerprint(fingerprinted.encoded()), sessionDevice: request.deviceName)
        return SoukV1.SignUpResponse(account: account, session: session)
    }

    // Sign-in and the lockout (platform decision 5). An attempt arriving while the account is
    // locked is refused before any hashing. Otherwise the password is checked (the slow part,
    // concurrent attempts overlap here), then the verdict is one transaction: a right password
    // signs in and clears the count without looking at the lock again (it was checked before a
    // lock that attempts in flight set meanwhile); a wrong one is counted unless the account is
    // locked by then, so however many are in flight, those after the limit are refused as locked.
    func login(_ request: SoukV1.LoginRequest, _ call: SoukCall) async throws -> SoukV1.Session {
        // Limits first: a refused attempt costs no hashing.
        var limits: [(kind: AuthRateLimits.Kind, subject: String)] = [(.signInPerAddress, Self.clientAddress(call))]
        if !request.email.isEmpty { limits.append((.signInPerAccount, EmailAddress.key(request.email))) }
        try checkRateLimits(limits, call)
        var checks = FieldChecks()
        if let problem = EmailAddress.problem(with: request.email) { checks.add("email", problem) }
        checks.require(!request.password.isEmpty, "password", "is required")
        try checks.finish()
        let attempt = try beginSignIn(email: request.email, scope: Self.scopeKey(call))
        // An unknown e-mail verifies against a decoy hash: same time, same answer.
        let matches = try await identity.passwords.verify(request.password, against: attempt.credentials?.value.passwordHash)
        return try await finishSignIn(attempt, passwordMatches: matches, deviceName: request.deviceName)
    }

    /// A sign-in between its lock check and its password check: what it found then.
    struct SignInAttempt: Sendable {
        let scope: String
        let account: StoredRecord<AccountRecord>?
        let credentials: StoredRecord<CredentialRecord>?
    }

    /// Finds the account by e-mail; refuses at once while it is locked.
    func beginSignIn(email: String, scope: String) throws -> SignInAttempt {
        let account = try store.get(
            AccountTable.table, unique: AccountTable.byEmail, [.string(scope), .string(EmailAddress.key(email))])
        let credentials = try account.flatMap { try store.get(CredentialTable.table, $0.id) }
        if let until = credentials?.value.lockout(at: store.configuration.clock()) { throw accountLocked(until: until) }
        return SignInAttempt(scope: scope, account: account, credentials: credentials)
    }

    /// The verdict on a checked password: a session, or the refusal (counting a wrong password).
    func finishSignIn(_ attempt: SignInAttempt, passwordMatches: Bool, deviceName: String) async throws -> SoukV1.Session {
        let rules = try identity.accountRules(attempt.scope)
        guard passwordMatches, let found = attempt.account, let credentials = attempt.credentials else {
            if let found = attempt.account { try await countFailedLogin(found.id, rules: rules) }
            throw Self.badCredentials
        }
        guard found.value.account.state == .active else {
            throw RPCError.souk(.permissionDenied, .accountBlocked, "the account is blocked")
        }
        let sessions = identity.sessions
        let session = try await store.write { transaction in
            let account = try transaction.require(AccountTable.table, found.id)
            let current = try transaction.require(CredentialTable.table, found.id)
            // The password changed while it was being verified: the one checked is no longer valid.
            guard current.value.passwordHash == credentials.value.passwordHash, account.value.account.state == .active else {
                throw Self.badCredentials
            }
            let updated = try transaction.update(CredentialTable.table, found.id) { value in
                value.failedLogins = 0
                value.lockedUntil = nil
                value.lastLogin = transaction.now
            }
            return try sessions.open(in: transaction, account: account.apiAccount(updated.value), rules: rules, deviceName: deviceName)
        }
        logger.info("signed in", metadata: [
            "account_id": "\(found.id)", "marketplace_id": "\(attempt.scope)", "session_id": "\(session.sessionID)",
        ])
        return session
    }

    static let badCredentials = RPCError.souk(.unauthenticated, .badCredentials, "wrong e-mail or password")

    func accountLocked(until: StoreTime) -> RPCError {
        let left = max(0, until.microsecondsSinceEpoch - store.configuration.clock().microsecondsSinceEpoch)
        return RPCError.souk(
            .resourceExhausted, .accountLocked, "too many failed sign-ins: the account is locked, try again later",
            retryDelay: .microseconds(left))
    }

    /// What a wrong password did to the lockout.
    private enum FailedLogin: Sendable {
        case counted(lockedNow: Bool)
        case refused(lockedUntil: StoreTime)
    }

    /// Counts a wrong password and decides the lock in one transaction: returns when the
    /// failure was counted (the one reaching the marketplace's limit sets the lock), throws
    /// ACCOUNT_LOCKED, uncounted, when the account is locked by then.
    private func countFailedLogin(_ id: RecordID, rules: AccountRules) async throws {
        let outcome: FailedLogin = try await store.write { transaction in
            guard let current = try transaction.get(CredentialTable.table, id) else { return .counted(lockedNow: false) }
            if let until = current.value.lockout(at: transaction.now) { return .refused(lockedUntil: until) }
            let updated = try transaction.update(CredentialTable.table, id) { value in
                // A lockout that ended starts a fresh count.
                if value.lockedUntil != nil {
                    value.lockedUntil = nil
                    value.failedLogins = 0
                }
                value.failedLogins += 1
                if value.failedLogins >= rules.maxFailedLogins {
                    value.lockedUntil = transaction.now.adding(rules.lockoutDuration)
                }
            }
            return .counted(lockedNow: updated.value.lockedUntil != nil)
        }
        switch outcome {
        case .counted(let lockedNow):
            if lockedNow {
                logger.info("account locked after failed sign-ins", metadata: ["account_id": "\(id)", "failed": "\(rules.maxFailedLogins)"])
            }
        case .refused(let lockedUntil):
            throw accountLocked(until: lockedUntil)
        }
    }

    func refresh(_ request: SoukV1.RefreshRequest, _ call: SoukCall) async throws -> SoukV1.Session {
        guard !request.refreshToken.isEmpty else { throw RPCError.invalidField("refresh_token", "is required") }
        let identity = self.identity
        return try await identity.sessions.refresh(request.refreshToken, marketplaceID: call.marketplaceID) { marketplaceID in
            try identity.accountRules(marketplaceID)
        }
    }

    func logout(_ request: SoukV1.LogoutRequest, _ call: SoukCall) async throws -> SoukV1.LogoutResponse {
        let caller = try call.requireCaller()
        let sessions = identity.sessions
        let allSessions = request.allSessions
        let ended = try await store.write { transaction in
            allSessions
                ? try sessions.revokeAll(in: transaction, accountID: caller.accountID)
                : (try sessions.revoke(in: transaction, sessionID: caller.sessionID) ? 1 : 0)
        }
        logger.info("signed out", metadata: [
            "account_id": "\(caller.accountID)", "session_id": "\(caller.sessionID)", "ended_sessions": "\(ended)",
        ])
        return SoukV1.LogoutResponse(endedSessions: Int32(ended))
    }

    func changePassword(_ request: SoukV1.ChangePasswordRequest, _ call: SoukCall) async throws -> SoukV1.ChangePasswordResponse {
        var checks = FieldChecks()
        if let problem = PasswordPolicy.problem(with: request.newPassword) {
            checks.add("new_password", problem, reason: .weakPassword)
        }
        try checks.finish()
        let (caller, _) = try callerAccount(call)
        let hashRead = try passwordHash(caller.accountID)
        guard try await identity.passwords.verify(request.currentPassword, against: hashRead) else {
            throw RPCError.souk(.unauthenticated, .badCredentials, "the current password is wrong")
        }
        let newHash = try await identity.passwords.hash(request.newPassword)
        let sessions = identity.sessions
        let ended = try await store.write { transaction in
            guard try transaction.require(CredentialTable.table, caller.accountID).value.passwordHash == hashRead else {
                throw RPCError.souk(.aborted, .staleVersion, "the password was changed meanwhile; try again")
            }
            try transaction.update(CredentialTable.table, caller.accountID) { $0.passwordHash = newHash }
            return try sessions.revokeAll(in: transaction, accountID: caller.accountID, except: caller.sessionID)
        }
        logger.info("password changed", metadata: ["account_id": "\(caller.accountID)", "ended_sessions": "\(ended)"])
        return SoukV1.ChangePasswordResponse(endedSessions: Int32(ended))
    }

    /// Answers alike whether or not the e-mail has an active account, and does the same work
    /// either way: the same lookup, a token generated and hashed, and one transaction writing a
    /// reset record with its index entry (for an unknown address one that names no account, its
    /// token never leaving the server, so it can redeem nothing). Only the mail differs, one
    /// more insert in the same transaction.
    func requestPasswordReset(
        _ request: SoukV1.RequestPasswordResetRequest, _ call: SoukCall
    ) async throws -> SoukV1.RequestPasswordResetResponse {
        // The per-e-mail limit counts unknown addresses too, or it would tell them apart.
        var limits: [(kind: AuthRateLimits.Kind, subject: String)] = [(.passwordResetPerAddress, Self.clientAddress(call))]
        if !request.email.isEmpty { limits.append((.passwordResetPerAccount, EmailAddress.key(request.email))) }
        try checkRateLimits(limits, call)
        if let problem = EmailAddress.problem(with: request.email) { throw RPCError.invalidField("email", problem) }
        let scope = Self.scopeKey(call)
        let found = try store.get(
            AccountTable.table, unique: AccountTable.byEmail, [.string(scope), .string(EmailAddress.key(request.email))]
        ).flatMap { $0.value.account.state == .active ? $0 : nil }
        let rules = try identity.accountRules(scope)
        let token = SecretToken.generate()
        let minutes = Int(rules.passwordResetTTL.components.seconds / 60)
        let name = marketplaceName(call)
        let body = """
            Someone asked to reset the password of your \(name) account.

            Reset token: \(token.text)

            The token works once and expires in \(minutes) minutes. If you did not ask for this, ignore this mail.
            """
        let mailID = try await store.write { transaction in
            try transaction.insert(PasswordResetTable.table, PasswordResetRecord(
                accountID: found?.id ?? RecordID.generate(), marketplaceID: scope, tokenHash: token.hash.bytes,
                expiry: transaction.now.adding(rules.passwordResetTTL), used: false))
            guard let found else { return RecordID?.none }
            return try MailOutbox.enqueue(
                in: transaction, marketplaceID: scope, kind: .passwordReset, to: found.value.account.email,
                accountID: found.id.description, subject: "Reset your \(name) password", body: body)
        }
        if let found, let mailID {
            logger.info("password reset requested", metadata: ["account_id": "\(found.id)", "mail_id": "\(mailID)"])
        }
        return SoukV1.RequestPasswordResetResponse()
    }

    func confirmPasswordReset(
        _ request: SoukV1.ConfirmPasswordResetRequest, _ call: SoukCall
    ) async throws -> SoukV1.ConfirmPasswordResetResponse {
        try checkRateLimits([(.passwordResetPerAddress, Self.clientAddress(call))], call)
        var checks = FieldChecks()
        checks.require(!request.resetToken.isEmpty, "reset_token", "is required: the token from the reset mail")
        if let problem = PasswordPolicy.problem(with: request.newPassword) {
            checks.add("new_password", problem, reason: .weakPassword)
        }
        try checks.finish()
        let invalid = RPCError.souk(.failedPrecondition, .tokenInvalid, "the reset token is unknown, used or expired")
        let scope = Self.scopeKey(call)
        let hash = TokenHash(of: request.resetToken).bytes
        guard !request.resetToken.isEmpty,
              let reset = try store.get(PasswordResetTable.table, unique: PasswordResetTable.byToken, [.bytes(hash)]),
              reset.value.marketplaceID == scope, reset.value.expiry > store.configuration.clock()
        else { throw invalid }
        let newHash = try await identity.passwords.hash(request.newPassword)
        let sessions = identity.sessions
        let ended = try await store.write { transaction in
            // Read again under lock: two confirmations with one token cannot both succeed.
            guard let current = try transaction.get(PasswordResetTable.table, reset.id), !current.value.used,
                  current.value.expiry > transaction.now,
                  let account = try transaction.get(AccountTable.table, current.value.accountID), account.value.account.state != .deleted
            else { throw invalid }
            try transaction.update(PasswordResetTable.table, reset.id) { $0.used = true }
            try transaction.update(CredentialTable.table, account.id) { value in
                value.passwordHash = newHash
                value.failedLogins = 0
                value.lockedUntil = nil
            }
            return try sessions.revokeAll(in: transaction, accountID: account.id)
        }
        logger.info("password reset", metadata: ["account_id": "\(reset.value.accountID)", "ended_sessions": "\(ended)"])
        return SoukV1.ConfirmPasswordResetResponse()
    }
}
