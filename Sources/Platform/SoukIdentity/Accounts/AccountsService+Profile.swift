import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore

// One's own account: reading, profile changes, deletion, asking for a role.
extension AccountsService {
    func getMe(_ request: SoukV1.GetMeRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        try identity.present(callerAccount(call).1)
    }

    func getAccount(_ request: SoukV1.GetAccountRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        try identity.present(account(request.accountID, field: "account_id", call))
    }

    func getPublicProfile(_ request: SoukV1.GetPublicProfileRequest, _ call: SoukCall) async throws -> SoukV1.PersonSummary {
        let record = try account(request.accountID, field: "account_id", call)
        guard record.value.account.state != .deleted else { throw RPCError.notFound("account", request.accountID) }
        let account = try identity.views.view(record, nil, store)
        return Parties.summary(of: account, vertical: call.marketplace?.vertical ?? .unspecified)
    }

    /// Identity's own paths; the vertical's part adds its own (`AccountPart.profilePaths`).
    static let profilePaths: Set<String> = ["email", "given_name", "family_name", "phone", "avatar_media_id", "locale"]

    func updateProfile(_ request: SoukV1.UpdateProfileRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        let caller = try call.requireCaller()
        let input = request.account ?? SoukV1.Account()
        let targetText = input.id.isEmpty ? caller.accountID.description : input.id
        var checks = FieldChecks()
        let targetID = try checks.run { try RequestFields.id(targetText, field: "account.id") }
        // Read before the field checks end (some depend on it); NOT_FOUND comes after them.
        let scope = Self.scopeKey(call)
        let target = try targetID.flatMap { try store.get(AccountTable.table, $0) }.flatMap { $0.value.account.marketplaceID == scope ? $0 : nil }
        let part = identity.accountParts.part(call.marketplace?.vertical)
        let partPaths = part?.profilePaths ?? []
        let paths = try checks.run { try RequestFields.maskPaths(request.updateMask, allowed: Self.profilePaths.union(partPaths)) } ?? []
        try checks.check { _ = try RequestFields.expectedVersion(request.expectedVersion) }
        let rules = try identity.accountRules(scope)
        for path in paths {
            switch path {
            case "email":
                if let problem = EmailAddress.problem(with: input.email) {
                    checks.add("account.email", problem)
                } else if !EmailAddress.isAllowed(input.email, domains: rules.allowedEmailDomains) {
                    checks.add(
                        "account.email", "must be an address at \(rules.allowedEmailDomains.map { "@" + $0 }.joined(separator: " or "))",
                        reason: .emailDomainNotAllowed)
                }
            case "given_name":
                if let problem = PersonName.problem(with: input.givenName) { checks.add("account.given_name", problem) }
            case "family_name":
                if !input.familyName.isEmpty, let problem = PersonName.problem(with: input.familyName) {
                    checks.add("account.family_name", problem)
                }
            case "phone":
                if !input.phone.isEmpty, let problem = PhoneNumber.problem(with: input.phone) { checks.add("account.phone", problem) }
            case "avatar_media_id":
                // Checked and attached in the transaction that stores it.
                try checks.check { _ = try RequestFields.optionalID(input.avatarMediaID, field: "account.avatar_media_id") }
                if target?.value.account.marketplaceID.isEmpty == true, !input.avatarMediaID.isEmpty {
                    checks.add("account.avatar_media_id", "operators have no marketplace to keep a picture in")
                }
            case "locale":
                if !input.locale.isEmpty { try checks.check { try MarketplaceValidation.locale(input.locale, field: "account.locale") } }
            default:  // the vertical's paths
                break
            }
        }
        let verticalPaths = paths.filter { partPaths.contains($0) }
        if let part, !verticalPaths.isEmpty {
            try part.checkUpdate(input, paths: verticalPaths, current: target.map { AccountProjection.account($0, nil) }, into: &checks)
        }
        try checks.finish()
        guard let target else { throw RPCError.notFound("account", targetText) }
        // Admins and operators may use any picture of the marketplace; others only their own uploads.
        let uploader = caller.isOperator || caller.activeRoles.contains(.admin) ? nil : caller.accountID
        return try await changeAccount(target.id, call, expectedVersion: request.expectedVersion, event: "profile updated") {
            value, transaction in
            guard value.account.state != .deleted else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "the account was deleted")
            }
            for path in paths {
                switch path {
                case "email":
                    if EmailAddress.key(input.email) != EmailAddress.key(value.account.email) { value.account.emailVerified = false }
                    value.account.email = input.email
                case "given_name": value.account.givenName = input.givenName
                case "family_name": value.account.familyName = input.familyName
                case "phone": value.account.phone = input.phone
                case "avatar_media_id":
                    try Self.replaceAvatar(of: target.id, &value.account, with: input.avatarMediaID, uploader: uploader, in: transaction)
                case "locale": value.account.locale = input.locale
                default: break
                }
            }
            if let part, !verticalPaths.isEmpty {
                try part.update(
                    input, paths: verticalPaths, account: AccountProjection.identityFields(value.account, id: target.id), transaction: transaction)
            }
            return AccountChange()
        }
    }

    /// Points the account's picture at another uploaded image (or none), moving the media
    /// reference in the same transaction; avatars are public in the marketplace.
    static func replaceAvatar(
        of accountID: RecordID, _ account: inout SoukStoreV1.Account, with mediaID: String, uploader: RecordID?, in transaction: Transaction
    ) throws {
        let referrer = MediaReferrer(type: .account, id: accountID.description, field: "avatar_media_id")
        if let marketplaceID = RecordID(account.marketplaceID) {
            try MediaReferences.replace(
                account.avatarMediaID, with: mediaID, field: "account.avatar_media_id", referrer: referrer, visibility: .marketplace,
                marketplaceID: marketplaceID, uploader: uploader, imagesOnly: true, in: transaction)
        }
        account.avatarMediaID = mediaID
    }

    func deleteAccount(_ request: SoukV1.DeleteAccountRequest, _ call: SoukCall) async throws -> SoukV1.DeleteAccountResponse {
        let (caller, record) = try callerAccount(call)
        guard try await identity.passwords.verify(request.password, against: passwordHash(record.id)) else {
            throw RPCError.souk(.unauthenticated, .badCredentials, "the password is wrong")
        }
        let hooks = identity.deletionHooks
        let name = marketplaceName(call)
        _ = try await changeAccount(caller.accountID, call, expectedVersion: request.expectedVersion, event: "deleted") { value, transaction in
            let subject = AccountDeletionSubject(
                accountID: caller.accountID, marketplaceID: caller.marketplaceID ?? caller.accountID, roles: value.account.roles)
            if let obligation = try hooks.openObligation(subject, transaction) {
                throw RPCError.souk(.failedPrecondition, .openObligations, "the account cannot be deleted yet: \(obligation)")
            }
            try hooks.runCleanups(subject, transaction)
            let from = value.account.state.protoName
            // Personal data is erased; the record stays for what refers to it (orders, ratings).
            value.account.email = ""
            value.account.givenName = ""
            value.account.familyName = ""
            value.account.phone = ""
            try Self.replaceAvatar(of: caller.accountID, &value.account, with: "", uploader: nil, in: transaction)
            // The verticals erase their parts in their deletion cleanups.
            value.account = value.account.withoutLegacyVerticalFields()
            value.account.blockReason = ""
            value.account.state = .deleted
            try transaction.update(CredentialTable.table, caller.accountID) { $0 = CredentialRecord(passwordHash: "") }
            return AccountChange(
                from: from, to: SoukV1.AccountState.deleted.protoName,
                notice: ("Your \(name) account was deleted", "Your \(name) account and its personal data were deleted at your request."),
                revokesSessions: true)
        }
        return SoukV1.DeleteAccountResponse()
    }

    func requestRole(_ request: SoukV1.RequestRoleRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        let caller = try call.requireCaller()
        var checks = FieldChecks()
        checks.require([.provider, .courier, .admin].contains(request.role), "role", "must be provider, courier or admin")
        let part = identity.accountParts.part(call.marketplace?.vertical)
        part?.checkRoleRequest(request, into: &checks)
        try checks.check { _ = try RequestFields.expectedVersion(request.expectedVersion) }
        try checks.finish()
        let role = request.role
        return try await changeAccount(caller.accountID, call, expectedVersion: request.expectedVersion, event: "role requested") {
            value, transaction in
            let now = Timestamp(transaction.now)
            let grant = SoukV1.RoleGrant(role: role, status: .pending, requestTime: now)
            if let index = value.account.roles.firstIndex(where: { $0.role == role }) {
                let status = value.account.roles[index].status
                guard status != .active, status != .pending else {
                    throw RPCError.souk(
                        .failedPrecondition, .invalidTransition,
                        "the \(role.word) role is already \(status == .active ? "held" : "pending")")
                }
                value.account.roles[index] = grant
            } else {
                value.account.roles.append(grant)
            }
            try part?.roleChanged(Self.partView(value, caller.accountID), role: role, request: request, transaction: transaction)
            return AccountChange(to: SoukV1.RoleStatus.pending.protoName, role: role)
        }
    }

    /// `value` as an `AccountPart` sees it: identity's fields with the account's id.
    static func partView(_ value: AccountRecord, _ id: RecordID) -> SoukV1.Account {
        AccountProjection.identityFields(value.account, id: id)
    }
}
