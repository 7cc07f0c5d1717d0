import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore

// Proving one's e-mail address with a code sent to it (Drip 'n Dash needs a proven
// @rutgers.edu address before jobs and the Dasher quiz).
extension AccountsService {
    /// How long a code works.
    static let verificationCodeTTL: Duration = .seconds(30 * 60)
    /// Wrong codes accepted before the code is used up.
    static let verificationTries = 5
    /// Codes sent to one account within an hour at most, so the outbox cannot be made to mail
    /// an address over and over.
    static let verificationSendsPerHour = 5
    /// Shortest time between two codes sent to one account.
    static let verificationSendGap: Duration = .seconds(60)

    func sendVerificationCode(
        _ request: SoukV1.SendVerificationCodeRequest, _ call: SoukCall
    ) async throws -> SoukV1.SendVerificationCodeResponse {
        try checkVerificationLimits(call)
        let (_, account) = try callerAccount(call)
        guard !account.value.account.emailVerified else { throw Self.alreadyVerified }
        let code = Self.newCode()
        let scope = Self.scopeKey(call)
        let email = account.value.account.email
        let name = marketplaceName(call)
        let minutes = Int(Self.verificationCodeTTL.components.seconds / 60)
        let body = """
            Your \(name) verification code is \(code).

            It expires in \(minutes) minutes. If you did not sign up, ignore this mail.
            """
        let expiry = try await store.write { transaction in
            let expiry = transaction.now.adding(Self.verificationCodeTTL)
            let previous = try transaction.get(EmailVerificationTable.table, account.id)
            let sent = try Self.checkSendingLimit(previous?.value.sendTimes ?? [], now: transaction.now)
            let record = EmailVerificationRecord(
                codeHash: TokenHash(of: code).bytes, email: EmailAddress.key(email), expiry: expiry, failedTries: 0, used: false,
                sendTimes: sent + [transaction.now])
            if previous != nil {
                try transaction.update(EmailVerificationTable.table, account.id) { $0 = record }
            } else {
                try transaction.insert(EmailVerificationTable.table, record, id: account.id)
            }
            try MailOutbox.enqueue(
                in: transaction, marketplaceID: scope, kind: .emailVerification, to: email, accountID: account.id.description,
                subject: "Your \(name) verification code", body: body)
            return expiry
        }
        return SoukV1.SendVerificationCodeResponse(expireTime: Timestamp(expiry))
    }

    func verifyEmail(_ request: SoukV1.VerifyEmailRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        try checkVerificationLimits(call)
        guard !request.code.isEmpty else { throw RPCError.invalidField("code", "must be the code from the verification mail") }
        let (_, account) = try callerAccount(call)
        let hash = TokenHash(of: request.code).bytes
        let tries = Self.verificationTries
        // A wrong code is counted (and committed) before the refusal is returned.
        let outcome: Result<StoredRecord<AccountRecord>, RPCError> = try await store.write { transaction in
            let current = try transaction.require(AccountTable.table, account.id)
            guard !current.value.account.emailVerified else { throw Self.alreadyVerified }
            guard let sent = try transaction.get(EmailVerificationTable.table, account.id), !sent.value.used,
                  sent.value.expiry > transaction.now, sent.value.email == EmailAddress.key(current.value.account.email)
            else {
                throw RPCError.souk(.failedPrecondition, .tokenInvalid, "no verification code is waiting: send a new one")
            }
            guard sent.value.codeHash == hash else {
                let updated = try transaction.update(EmailVerificationTable.table, account.id) { value in
                    value.failedTries += 1
                    value.used = value.failedTries >= tries
                }
                let left = tries - updated.value.failedTries
                return .failure(RPCError.souk(
                    .unauthenticated, .badCredentials,
                    left > 0 ? "the code is wrong: \(left) tries left" : "the code is wrong and now used up: send a new one"))
            }
            try transaction.update(EmailVerificationTable.table, account.id) { $0.used = true }
            let record = try transaction.updateMaintainedFields(AccountTable.table, account.id) { $0.account.emailVerified = true }
            try AuditLog.record(
                in: transaction, marketplaceID: current.value.account.marketplaceID,
                resource: .init(type: .account, id: account.id.description), actor: AuditActor(call),
                from: "email unverified", to: "email verified", resourceVersion: record.version)
            return .success(record)
        }
        return try identity.present(outcome.get())
    }

    /// The sends of the last hour in `times`; RESOURCE_EXHAUSTED (VERIFICATION_CODE_LIMIT, with
    /// the wait in RetryInfo) when one more now would break the gap or the hourly limit.
    static func checkSendingLimit(_ times: [StoreTime], now: StoreTime) throws -> [StoreTime] {
        let hour = Duration.seconds(3600)
        let recent = times.filter { $0.adding(hour) > now }
        var retry: StoreTime?
        if let last = recent.last, last.adding(verificationSendGap) > now { retry = last.adding(verificationSendGap) }
        if recent.count >= verificationSendsPerHour { retry = max(retry ?? now, recent[recent.count - verificationSendsPerHour].adding(hour)) }
        guard let retry else { return recent }
        let left = retry.microsecondsSinceEpoch - now.microsecondsSinceEpoch
        let seconds = (left + 999_999) / 1_000_000
        throw RPCError.souk(
            .resourceExhausted, .verificationCodeLimit,
            "verification codes are limited to \(verificationSendsPerHour) an hour, \(verificationSendGap.components.seconds) seconds "
                + "apart: send the next one in \(seconds) seconds",
            retryDelay: .microseconds(left))
    }

    /// The per-address and per-account limits both verification calls spend from.
    private func checkVerificationLimits(_ call: SoukCall) throws {
        let caller = try call.requireCaller()
        try checkRateLimits(
            [(.verificationPerAddress, Self.clientAddress(call)), (.verificationPerAccount, caller.accountID.description)], call)
    }

    static let alreadyVerified = RPCError.souk(.failedPrecondition, .invalidTransition, "the e-mail address is already verified")

    /// Six random digits.
    static func newCode() -> String {
        let value = Sodium.randomBytes(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
        let text = String(value)
        return String(repeating: "0", count: 6 - text.count) + text
    }
}
