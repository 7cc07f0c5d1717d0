import Foundation
import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore

// Account administration by admins and operators: listing, creating, role decisions, blocking.
extension AccountsService {
    func listAccounts(_ request: SoukV1.ListAccountsRequest, _ call: SoukCall) async throws -> SoukV1.ListAccountsResponse {
        let scope = Self.scopeKey(call)
        let role: SoukV1.Role? = request.role == .unspecified ? nil : request.role
        let status: SoukV1.RoleStatus? = request.roleStatus == .unspecified ? nil : request.roleStatus
        let state: SoukV1.AccountState? = request.state == .unspecified ? nil : request.state
        let prefix = EmailAddress.key(request.emailPrefix)
        var checks = FieldChecks()
        checks.require(status == nil || role != nil, "role_status", "needs role (for example role=COURIER, role_status=PENDING)")
        checks.require(prefix.isEmpty || role == nil, "email_prefix", "cannot be combined with role")
        let filters = "role=\(request.role.rawValue);status=\(request.roleStatus.rawValue);state=\(request.state.rawValue);email=\(prefix)"
        let checkedPage = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        let page = checkedPage ?? PageRequest()
        let result: Page<AccountRecord>
        if let role {
            var parts: [KeyPart] = [.string(scope), .enumCase(role)]
            if let status { parts.append(.enumCase(status)) }
            result = try store.list(AccountTable.table, AccountTable.byRoleStatus, .starting(with: parts), page: page)
        } else if !prefix.isEmpty {
            var upper = Array(prefix.utf8)
            upper[upper.count - 1] += 1  // e-mail keys are ASCII, so the last byte is below 0x7F
            result = try store.list(
                AccountTable.table, AccountTable.byEmail,
                IndexRange(prefix: [.string(scope)], lower: RangeBound([.string(prefix)], inclusive: true),
                           upper: RangeBound([.bytes(upper)], inclusive: false)),
                page: page)
        } else if let state {
            result = try store.list(AccountTable.table, AccountTable.byState, .starting(with: [.string(scope), .enumCase(state)]), page: page)
        } else {
            result = try store.list(AccountTable.table, AccountTable.byMarketplace, .starting(with: [.string(scope)]), page: page)
        }
        // A state filter next to another filter narrows the page (which may then hold fewer items).
        let accounts = try identity.present(result.items.filter { state == nil || $0.value.account.state == state })
        return SoukV1.ListAccountsResponse(
            accounts: accounts, nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    /// An account of the request's marketplace; with an empty marketplace_id (operators only,
    /// the builder's scope check refuses anyone else) a platform service account, the push
    /// adapter, whose roles must be exactly [PUSH_ADAPTER].
    func createAccount(_ request: SoukV1.CreateAccountRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        let marketplace = call.marketplace
        let caller = try call.requireCaller()
        let new = NewAccount(
            email: request.email, password: request.initialPassword, givenName: request.givenName, familyName: request.familyName,
            phone: request.phone, activeRoles: request.roles, laundryProfile: request.laundryProfile)
        var checks = FieldChecks()
        let checkedID = try checks.run { try RequestFields.requestID(request.requestID) }
        if marketplace == nil {
            // The builder let only operators through with an empty marketplace_id.
            checks.require(
                request.roles == [.pushAdapter], "roles",
                "a platform account (empty marketplace_id) is a push adapter: roles must be exactly [ROLE_PUSH_ADAPTER]")
        }
        try identity.check(new, in: marketplace, fields: .createAccount, into: &checks)
        try checks.finish()
        let requestID = checkedID ?? ""
        var fingerprinted = request
        fingerprinted.initialPassword = ""
        return try await identity.createAccount(
            new, in: marketplace, fields: .createAccount, actor: AuditActor(call, requestID: requestID),
            idempotencyKey: IdempotencyKey(marketplace: call.marketplaceID?.description ?? "", account: caller.accountID.description, key: requestID),
            fingerprint: RequestFingerprint(fingerprinted.encoded())
        ).account
    }

    func approveRole(_ request: SoukV1.ApproveRoleRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        let fields = try DecisionFields.check(request.accountID, role: request.role, expectedVersion: request.expectedVersion)
        let role = fields.role
        let target = try account(request.accountID, field: "account_id", call)
        let decider = call.caller?.accountID.description ?? ""
        let part = identity.accountParts.part(call.marketplace?.vertical)
        let name = marketplaceName(call)
        let hooks = identity.roleDecisionHooks
        return try await changeAccount(target.id, call, expectedVersion: request.expectedVersion, event: "role approved") { value, transaction in
            guard let index = value.account.roles.firstIndex(where: { $0.role == role && $0.status == .pending }) else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "the \(role.word) role is not pending")
            }
            try Self.checkDecision(hooks, target.id, value, role: role, approving: true, transaction)
            value.account.roles[index].status = .active
            value.account.roles[index].reason = ""
            value.account.roles[index].decidedByAccountID = decider
            value.account.roles[index].decideTime = Timestamp(transaction.now)
            try part?.roleChanged(Self.partView(value, target.id), role: role, request: nil, transaction: transaction)
            return AccountChange(
                from: SoukV1.RoleStatus.pending.protoName, to: SoukV1.RoleStatus.active.protoName, role: role,
                notice: ("Your \(role.word) role at \(name) was approved", "An admin approved your \(role.word) role at \(name)."))
        }
    }

    func rejectRole(_ request: SoukV1.RejectRoleRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        let fields = try DecisionFields.check(
            request.accountID, role: request.role, reason: request.reason, expectedVersion: request.expectedVersion)
        let (role, reason) = (fields.role, fields.reason)
        let target = try account(request.accountID, field: "account_id", call)
        let decider = call.caller?.accountID.description ?? ""
        let name = marketplaceName(call)
        let hooks = identity.roleDecisionHooks
        return try await changeAccount(target.id, call, expectedVersion: request.expectedVersion, event: "role rejected") { value, transaction in
            guard let index = value.account.roles.firstIndex(where: { $0.role == role && $0.status == .pending }) else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "the \(role.word) role is not pending")
            }
            try Self.checkDecision(hooks, target.id, value, role: role, approving: false, transaction)
            value.account.roles[index].status = .rejected
            value.account.roles[index].reason = reason
            value.account.roles[index].decidedByAccountID = decider
            value.account.roles[index].decideTime = Timestamp(transaction.now)
            return AccountChange(
                from: SoukV1.RoleStatus.pending.protoName, to: SoukV1.RoleStatus.rejected.protoName, reason: reason, role: role,
                notice: ("Your \(role.word) role at \(name) was not approved", "An admin did not approve your \(role.word) role: \(reason)"))
        }
    }

    func assignRole(_ request: SoukV1.AssignRoleRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        let fields = try DecisionFields.check(request.accountID, role: request.role, expectedVersion: request.expectedVersion)
        let role = fields.role
        let target = try account(request.accountID, field: "account_id", call)
        let decider = call.caller?.accountID.description ?? ""
        let part = identity.accountParts.part(call.marketplace?.vertical)
        let name = marketplaceName(call)
        return try await changeAccount(target.id, call, expectedVersion: request.expectedVersion, event: "role assigned") { value, transaction in
            let now = Timestamp(transaction.now)
            let grant = SoukV1.RoleGrant(role: role, status: .active, decidedByAccountID: decider, requestTime: now, decideTime: now)
            var from = ""
            if let index = value.account.roles.firstIndex(where: { $0.role == role }) {
                guard value.account.roles[index].status != .active else {
                    throw RPCError.souk(.failedPrecondition, .invalidTransition, "the \(role.word) role is already active")
                }
                from = value.account.roles[index].status.protoName
                value.account.roles[index] = grant
            } else {
                value.account.roles.append(grant)
            }
            try part?.roleChanged(Self.partView(value, target.id), role: role, request: nil, transaction: transaction)
            return AccountChange(
                from: from, to: SoukV1.RoleStatus.active.protoName, role: role,
                notice: ("You have the \(role.word) role at \(name)", "An admin gave you the \(role.word) role at \(name)."))
        }
    }

    func revokeRole(_ request: SoukV1.RevokeRoleRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        let fields = try DecisionFields.check(
            request.accountID, role: request.role, allowCustomer: false, reason: request.reason, expectedVersion: request.expectedVersion)
        let (role, reason) = (fields.role, fields.reason)
        let target = try account(request.accountID, field: "account_id", call)
        if role == .admin, target.id == call.caller?.accountID {
            throw RPCError.souk(.failedPrecondition, .selfAction, "an admin cannot revoke their own admin role")
        }
        let decider = call.caller?.accountID.description ?? ""
        let name = marketplaceName(call)
        return try await changeAccount(target.id, call, expectedVersion: request.expectedVersion, event: "role revoked") { value, transaction in
            guard let index = value.account.roles.firstIndex(where: { $0.role == role && $0.status == .active }) else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "the account does not hold the \(role.word) role")
            }
            value.account.roles[index].status = .revoked
            value.account.roles[index].reason = reason
            value.account.roles[index].decidedByAccountID = decider
            value.account.roles[index].decideTime = Timestamp(transaction.now)
            return AccountChange(
                from: SoukV1.RoleStatus.active.protoName, to: SoukV1.RoleStatus.revoked.protoName, reason: reason, role: role,
                notice: ("Your \(role.word) role at \(name) was revoked", "An admin revoked your \(role.word) role: \(reason)"))
        }
    }

    func blockAccount(_ request: SoukV1.BlockAccountRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        let reason = try DecisionFields.check(request.accountID, reason: request.reason, expectedVersion: request.expectedVersion).reason
        let target = try account(request.accountID, field: "account_id", call)
        guard target.id != call.caller?.accountID else {
            throw RPCError.souk(.failedPrecondition, .selfAction, "an account cannot block itself")
        }
        let name = marketplaceName(call)
        let hooks = identity.blockHooks
        let actor = AuditActor(call)
        return try await changeAccount(target.id, call, expectedVersion: request.expectedVersion, event: "blocked") { value, transaction in
            guard value.account.state == .active else {
                throw RPCError.souk(
                    .failedPrecondition, .invalidTransition,
                    value.account.state == .blocked ? "the account is already blocked" : "the account was deleted",
                    metadata: ["state": value.account.state.protoName])
            }
            value.account.state = .blocked
            value.account.blockReason = reason
            if let marketplaceID = RecordID(value.account.marketplaceID) {
                try hooks.run(AccountBlockSubject(accountID: target.id, marketplaceID: marketplaceID, actor: actor), transaction)
            }
            return AccountChange(
                from: SoukV1.AccountState.active.protoName, to: SoukV1.AccountState.blocked.protoName, reason: reason,
                notice: ("Your \(name) account was blocked", "An admin blocked your \(name) account: \(reason)"),
                revokesSessions: true)
        }
    }

    func unblockAccount(_ request: SoukV1.UnblockAccountRequest, _ call: SoukCall) async throws -> SoukV1.Account {
        _ = try DecisionFields.check(request.accountID, expectedVersion: request.expectedVersion)
        let target = try account(request.accountID, field: "account_id", call)
        let name = marketplaceName(call)
        return try await changeAccount(target.id, call, expectedVersion: request.expectedVersion, event: "unblocked") { value, transaction in
            guard value.account.state == .blocked else {
                throw RPCError.souk(
                    .failedPrecondition, .invalidTransition, "the account is not blocked", metadata: ["state": value.account.state.protoName])
            }
            value.account.state = .active
            value.account.blockReason = ""
            try transaction.update(CredentialTable.table, target.id) { credentials in
                credentials.failedLogins = 0
                credentials.lockedUntil = nil
            }
            return AccountChange(
                from: SoukV1.AccountState.blocked.protoName, to: SoukV1.AccountState.active.protoName,
                notice: ("Your \(name) account was unblocked", "An admin unblocked your \(name) account; you can sign in again."))
        }
    }

    /// FAILED_PRECONDITION when another domain's hook says the decision belongs elsewhere.
    private static func checkDecision(
        _ hooks: RoleDecisionHooks, _ id: RecordID, _ value: AccountRecord, role: SoukV1.Role, approving: Bool, _ transaction: Transaction
    ) throws {
        guard let marketplaceID = RecordID(value.account.marketplaceID) else { return }
        let subject = RoleDecisionSubject(accountID: id, marketplaceID: marketplaceID, role: role, approving: approving)
        if let refusal = try hooks.refusal(subject, transaction) {
            throw RPCError.souk(.failedPrecondition, .invalidTransition, refusal, metadata: ["role": role.protoName])
        }
    }
}

/// The fields of a role decision or a block, checked together so that every wrong one is named
/// at once: the account id, the role (one a marketplace account can hold), the reason
/// (required, at most 500 characters, trimmed) and the expected version.
struct DecisionFields {
    var role: SoukV1.Role = .unspecified
    var reason = ""

    /// `role` and `reason` are checked only when given.
    static func check(
        _ accountID: String, role: SoukV1.Role? = nil, allowCustomer: Bool = true, reason: String? = nil, expectedVersion: Int64
    ) throws -> DecisionFields {
        var checks = FieldChecks()
        var fields = DecisionFields()
        try checks.check { _ = try RequestFields.id(accountID, field: "account_id") }
        if let role {
            switch role {
            case .provider, .courier, .admin: fields.role = role
            case .customer where allowCustomer: fields.role = role
            case .customer: checks.add("role", "the customer role is never taken away")
            case .operator, .pushAdapter: checks.add("role", "\(role.word) is never granted inside a marketplace")
            default: checks.add("role", "must be provider, courier\(allowCustomer ? ", customer" : "") or admin")
            }
        }
        if let reason {
            let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
            checks.require(!trimmed.isEmpty, "reason", "is required")
            checks.require(trimmed.count <= 500, "reason", "must be at most 500 characters")
            fields.reason = trimmed
        }
        try checks.check { _ = try RequestFields.expectedVersion(expectedVersion) }
        try checks.finish()
        return fields
    }
}
