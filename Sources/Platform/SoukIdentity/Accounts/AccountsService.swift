import Logging
import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukStore

/// `souk.v1.Accounts`: sign-up, sessions, profiles, passwords, roles, blocking and saved
/// addresses. Who may call each RPC is the contract's Access line (checked before any body
/// runs); the ownership rules are declared here, once per RPC.
public struct AccountsService: RPCService {
    public let serviceName = "souk.v1.Accounts"
    let identity: Identity
    let build: SoukMethodBuilder

    public init(identity: Identity, rules: AccessRules) {
        self.identity = identity
        build = SoukMethodBuilder(service: serviceName, rules: rules, marketplaces: identity.marketplaces, logger: identity.logger)
    }

    var store: Store { identity.store }
    var logger: Logger { identity.logger }

    public var methods: [RPCMethod] { declaration.methods(build) }

    /// Every RPC of the service with its handler and ownership rule.
    var declaration: SoukV1Services.Accounts {
        SoukV1Services.Accounts(
            // Sessions and passwords.
            signUp: .handler(signUp),
            login: .handler(scope: .marketplaceOrPlatform, login),
            refresh: .handler(scope: .marketplaceOrPlatform, refresh),
            logout: .handler(scope: .marketplaceOrPlatform, logout),
            // The caller's own account.
            getMe: .handler(scope: .marketplaceOrPlatform, getMe),
            updateProfile: .handler(owner: .account { $0.account?.id ?? "" }, updateProfile),
            changePassword: .handler(scope: .marketplaceOrPlatform, changePassword),
            requestPasswordReset: .handler(requestPasswordReset),
            confirmPasswordReset: .handler(confirmPasswordReset),
            deleteAccount: .handler(owner: .caller, deleteAccount),
            requestRole: .handler(owner: .caller, requestRole),
            getAccount: .handler(owner: .account { $0.accountID }, getAccount),
            getPublicProfile: .handler(getPublicProfile),
            // Administration.
            listAccounts: .handler(listAccounts),
            createAccount: .handler(scope: .marketplaceOrPlatform, createAccount),
            approveRole: .handler(approveRole),
            rejectRole: .handler(rejectRole),
            assignRole: .handler(assignRole),
            revokeRole: .handler(revokeRole),
            blockAccount: .handler(scope: .marketplaceOrPlatform, blockAccount),
            unblockAccount: .handler(scope: .marketplaceOrPlatform, unblockAccount),
            // Saved addresses.
            createAddress: .handler(createAddress),
            getAddress: .handler(owner: addressOwner { $0.addressID }, getAddress),
            listAddresses: .handler(owner: .account { $0.accountID }, listAddresses),
            updateAddress: .handler(owner: addressOwner { $0.savedAddress?.id ?? "" }, updateAddress),
            archiveAddress: .handler(owner: addressOwner { $0.addressID }) { request, call in
                try await setAddressArchived(true, request.addressID, request.expectedVersion, call)
            },
            restoreAddress: .handler(owner: addressOwner { $0.addressID }) { request, call in
                try await setAddressArchived(false, request.addressID, request.expectedVersion, call)
            },
            // Proving the e-mail address.
            sendVerificationCode: .handler(sendVerificationCode),
            verifyEmail: .handler(verifyEmail))
    }

    // MARK: Shared

    /// The marketplace id as accounts store it ("" for platform operators).
    static func scopeKey(_ call: SoukCall) -> String {
        call.marketplaceID?.description ?? ""
    }

    /// The account an id names, in the call's marketplace; NOT_FOUND for accounts elsewhere.
    func account(_ text: String, field: String, _ call: SoukCall) throws -> StoredRecord<AccountRecord> {
        let id = try RequestFields.id(text, field: field)
        guard let record = try store.get(AccountTable.table, id), record.value.account.marketplaceID == Self.scopeKey(call) else {
            throw RPCError.notFound("account", text)
        }
        return record
    }

    /// The password hash of an account ("" when it has none).
    func passwordHash(_ id: RecordID) throws -> String {
        try store.get(CredentialTable.table, id)?.value.passwordHash ?? ""
    }

    /// The caller's own account record.
    func callerAccount(_ call: SoukCall) throws -> (Caller, StoredRecord<AccountRecord>) {
        let caller = try call.requireCaller()
        guard let record = try store.get(AccountTable.table, caller.accountID) else {
            throw SessionManager.unauthenticated("the caller's account no longer exists")
        }
        return (caller, record)
    }

    /// What a change to an account did, for the audit log, the account's mail and its sessions.
    struct AccountChange: Sendable {
        var from = ""
        var to = ""
        /// The reason the actor gave (audited as given).
        var reason = ""
        /// The role a role decision is about (logged; the audit entry's states are its statuses).
        var role: SoukV1.Role?
        /// Subject and body of an ACCOUNT_NOTICE mail to the account.
        var notice: (subject: String, body: String)?
        var revokesSessions = false
    }

    /// Changes an account of the call's marketplace in one transaction: NOT_FOUND outside it,
    /// ABORTED when `expectedVersion` is stale (checked first, so a retried transition that
    /// already happened says ABORTED), then `change` (which throws for invalid transitions),
    /// the audit entry, the notice mail and the session revocation.
    func changeAccount(
        _ id: RecordID, _ call: SoukCall, expectedVersion: Int64, event: String, requestID: String = "",
        _ change: @escaping @Sendable (inout AccountRecord, Transaction) throws -> AccountChange
    ) async throws -> SoukV1.Account {
        let expected = try RequestFields.expectedVersion(expectedVersion)
        let scope = Self.scopeKey(call)
        let actor = AuditActor(call, requestID: requestID)
        let sessions = identity.sessions
        let views = identity.views
        let (record, changed) = try await identity.mappingEmailTaken {
            try await store.write { transaction in
                guard let current = try transaction.get(AccountTable.table, id), current.value.account.marketplaceID == scope else {
                    throw RPCError.notFound("account", id.description)
                }
                if let expected, expected != current.version {
                    throw RPCError.staleVersion("account", id.description, expected: expected, actual: current.version)
                }
                var value = current.value
                let changed = try change(&value, transaction)
                let record = try transaction.update(AccountTable.table, id) { $0 = value }
                try AuditLog.record(
                    in: transaction, marketplaceID: scope, resource: .init(type: .account, id: id.description), actor: actor,
                    from: changed.from, to: changed.to, reason: changed.reason, resourceVersion: record.version)
                if let notice = changed.notice, !current.value.account.email.isEmpty {
                    try MailOutbox.enqueue(
                        in: transaction, marketplaceID: scope, kind: .accountNotice, to: current.value.account.email,
                        accountID: id.description, subject: notice.subject, body: notice.body)
                }
                if changed.revokesSessions { _ = try sessions.revokeAll(in: transaction, accountID: id) }
                return (try views.view(record, try transaction.get(CredentialTable.table, id)?.value, transaction), changed)
            }
        }
        var metadata: Logger.Metadata = [
            "account_id": "\(id)", "marketplace_id": "\(scope)", "actor_account_id": "\(actor.accountID)", "version": "\(record.version)",
        ]
        if !changed.from.isEmpty || !changed.to.isEmpty { metadata["transition"] = "\(changed.from) -> \(changed.to)" }
        if let role = changed.role { metadata["role"] = "\(role.protoName)" }
        logger.info("account \(event)", metadata: metadata)
        return record
    }

    /// The name a marketplace's mail uses.
    func marketplaceName(_ call: SoukCall) -> String {
        call.marketplace?.displayName ?? "Souk"
    }
}

extension SoukV1.Role {
    /// Lower-case word for messages ("provider").
    var word: String {
        switch self {
        case .customer: "customer"
        case .provider: "provider"
        case .courier: "courier"
        case .admin: "admin"
        case .operator: "operator"
        case .pushAdapter: "push_adapter"
        default: "unspecified"
        }
    }
}
