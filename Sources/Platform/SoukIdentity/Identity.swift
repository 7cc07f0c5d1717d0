import Logging
import SoukAccess
import SoukKit
import SoukGRPC
import SoukMessages
import SoukReports
import SoukStore

/// The identity layer in one place: marketplaces, accounts, sessions and passwords over one
/// store. The server mounts it as a domain, and other domains use it to find marketplaces and
/// accounts and to hook into account deletion.
public final class Identity: SoukDomain {
    public let store: Store
    public let configuration: IdentityConfiguration
    public let marketplaces: MarketplaceRegistry
    public let sessions: SessionManager
    public let passwords: PasswordHasher
    /// The streaming calls open now, which sessions ending end.
    public let openStreams: OpenStreams
    /// Checks and cleanups other domains add to account deletion.
    public let deletionHooks = AccountDeletionHooks()
    /// Checks other domains add to role approvals and rejections.
    public let roleDecisionHooks = RoleDecisionHooks()
    /// What other domains withdraw when an account is blocked (a driver's availability).
    public let blockHooks = AccountBlockHooks()
    /// Each vertical's part of its accounts (profiles, ratings), kept in the vertical's tables.
    public let accountParts: AccountParts
    /// The contract's view of accounts, with their vertical's part.
    let views: AccountViews
    /// Counts sign-ins, sign-ups, password resets and verification calls per address and per
    /// account (AccountSettings.rate_limits), in memory.
    let rateLimiter: RateLimiter
    let logger: Logger

    /// Every table identity keeps (the audit log and mail outbox are the kit's, `KitTables`).
    public static let tables: [AnyTable] = [
        MarketplaceTable.table.erased, AccountTable.table.erased, CredentialTable.table.erased, SessionTable.table.erased,
        PasswordResetTable.table.erased, AddressTable.table.erased, EmailVerificationTable.table.erased,
    ]

    /// Starts the password hashing pool; throws when the hashing cost is out of libsodium's range.
    public init(store: Store, configuration: IdentityConfiguration, openStreams: OpenStreams = OpenStreams()) throws {
        self.store = store
        self.configuration = configuration
        self.openStreams = openStreams
        logger = configuration.logger
        marketplaces = MarketplaceRegistry(store: store, logger: configuration.logger)
        let accountParts = AccountParts()
        self.accountParts = accountParts
        views = AccountViews(parts: accountParts, marketplaces: marketplaces)
        sessions = SessionManager(
            store: store, logger: configuration.logger, openStreams: openStreams, views: views,
            cacheCapacity: configuration.authenticationCacheCapacity)
        rateLimiter = RateLimiter(clock: store.configuration.clock)
        passwords = try PasswordHasher(memoryKiB: configuration.passwordHashMemoryKiB, threads: configuration.passwordHashThreads)
    }

    /// The contract services identity implements: Marketplaces, Accounts, and the mail outbox
    /// and audit log of Admin.
    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [
            MarketplacesService(registry: marketplaces, rules: kit.rules),
            AccountsService(identity: self, rules: kit.rules),
            // Admin is also served by the content module (announcements, policies,
            // advertisements): declared, so that `ServiceAssembly` joins the two.
            AdminRecordsService(identity: self, rules: kit.rules).declaration.rpcService(kit),
        ]
    }

    /// The same, built with the contract's `rules`.
    public func services(rules: AccessRules) -> [any RPCService] {
        [
            MarketplacesService(registry: marketplaces, rules: rules),
            AccountsService(identity: self, rules: rules),
            AdminRecordsService(identity: self, rules: rules),
        ]
    }

    /// The account rules of a marketplace ("" for the platform's operators).
    func accountRules(_ marketplaceID: String) throws -> AccountRules {
        guard let id = RecordID(marketplaceID), let marketplace = try marketplaces.marketplace(id) else {
            return AccountRules(nil, server: configuration)
        }
        return AccountRules(marketplace.settings?.accounts, server: configuration)
    }

    // MARK: Accounts

    /// The account with this e-mail (any case) in a marketplace (nil: among operators).
    public func account(email: String, marketplaceID: RecordID?) throws -> SoukV1.Account? {
        try store.get(
            AccountTable.table, unique: AccountTable.byEmail,
            [.string(marketplaceID?.description ?? ""), .string(EmailAddress.key(email))]
        ).map(present)
    }

    /// The contract's view of a stored account, with its sign-in fields and its vertical's part.
    func present(_ record: StoredRecord<AccountRecord>) throws -> SoukV1.Account {
        try views.view(record, try store.get(CredentialTable.table, record.id)?.value, store)
    }

    /// The contract's view of stored accounts (their credentials read in one batch).
    func present(_ records: [StoredRecord<AccountRecord>]) throws -> [SoukV1.Account] {
        let credentials = try store.get(CredentialTable.table, ids: records.map(\.id))
        return try zip(records, credentials).map { try views.view($0, $1?.value, store) }
    }

    /// Account `id` as its owner sees it (`Accounts.GetMe`): with its vertical's part, without
    /// the sign-in fields; nil when missing. For a vertical returning an account it changed.
    public func account(_ id: RecordID, _ reader: any RecordLookup) throws -> SoukV1.Account? {
        try reader.get(AccountTable.table, id).map { try views.view($0, nil, reader) }
    }

    /// Records what is wrong with the fields of a new account: identity's own, then those of the
    /// marketplace's vertical (`AccountPart.checkNew`).
    func check(_ new: NewAccount, in marketplace: SoukV1.Marketplace?, fields: NewAccount.FieldNames, into checks: inout FieldChecks) throws {
        try new.validate(in: marketplace, rules: try accountRules(marketplace?.id ?? ""), fields: fields, into: &checks)
        try accountParts.part(marketplace?.vertical)?.checkNew(new, fields: fields, into: &checks)
    }

    /// Creates an account after checking every field (INVALID_ARGUMENT naming it), hashing the
    /// password off the event loop; ALREADY_EXISTS (EMAIL_TAKEN) when the e-mail is used in the
    /// marketplace. With `sessionDevice` the account is also signed in. With an idempotency key
    /// a retry returns the first account (and, signing in, a new session).
    public func createAccount(
        _ new: NewAccount, in marketplace: SoukV1.Marketplace?, fields: NewAccount.FieldNames = .signUp, actor: AuditActor,
        idempotencyKey: IdempotencyKey? = nil, fingerprint: RequestFingerprint = RequestFingerprint([]),
        sessionDevice: String? = nil
    ) async throws -> (account: SoukV1.Account, session: SoukV1.Session?) {
        let rules = try accountRules(marketplace?.id ?? "")
        let part = accountParts.part(marketplace?.vertical)
        var checks = FieldChecks()
        try check(new, in: marketplace, fields: fields, into: &checks)
        try checks.finish()
        let hash = try await passwords.hash(new.password)
        let sessions = self.sessions
        let views = self.views
        let result = try await mappingEmailTaken {
            try await store.write(idempotencyKey: idempotencyKey, fingerprint: fingerprint, responseCodec: AccountOnlyCodec()) {
                transaction in
                let record = try transaction.insert(
                    AccountTable.table, new.record(in: marketplace, now: transaction.now, decidedBy: actor.accountID, emailVerified: !fields.isSignUp))
                // The dashboards count it in the marketplace's day of its creation.
                try IdentityReports.accountCreated(record, transaction: transaction)
                // The vertical's part of the account (a laundry student's dorm) is stored by its vertical.
                try part?.create(new, fields: fields, account: AccountProjection.account(record, nil), transaction: transaction)
                let credentials = try transaction.insert(CredentialTable.table, CredentialRecord(passwordHash: hash), id: record.id)
                try AuditLog.record(
                    in: transaction, marketplaceID: record.value.account.marketplaceID,
                    resource: .init(type: .account, id: record.id.description), actor: actor,
                    to: SoukV1.AccountState.active.protoName, resourceVersion: record.version)
                let account = try views.view(record, credentials.value, transaction)
                let session = try sessionDevice.map { try sessions.open(in: transaction, account: account, rules: rules, deviceName: $0) }
                return SoukV1.SignUpResponse(account: account, session: session)
            }
        }
        guard let account = result.value.account else { throw RPCError(.internalError, "stored sign-up without an account") }
        if result.replayed {
            guard let sessionDevice, let id = RecordID(account.id) else { return (account, nil) }
            let session = try await store.write { transaction in
                let record = try transaction.require(AccountTable.table, id)
                let account = try views.view(record, try transaction.get(CredentialTable.table, id)?.value, transaction)
                return try sessions.open(in: transaction, account: account, rules: rules, deviceName: sessionDevice)
            }
            return (account, session)
        }
        logger.info("account created", metadata: [
            "account_id": "\(account.id)", "marketplace_id": "\(account.marketplaceID)",
            "roles": "\(account.roles.map { "\($0.role.protoName)=\($0.status.protoName)" }.joined(separator: ","))",
            "actor_account_id": "\(actor.accountID)",
        ])
        return (account, result.value.session)
    }

    /// Creates the platform operator from the command line's e-mail and the password from the
    /// environment, unless an operator exists already. Returns whether one was created.
    public func bootstrapOperator(email: String, password: String) async throws -> Bool {
        guard try !hasOperator() else { return false }
        let new = NewAccount(email: email, password: password, givenName: "Platform operator", activeRoles: [.operator])
        do {
            _ = try await createAccount(new, in: nil, actor: .system("BootstrapOperator"))
        } catch let error as RPCError {
            throw IdentitySetupError("cannot create the platform operator: \(error.message)")
        }
        return true
    }

    /// Whether a platform operator account exists.
    public func hasOperator() throws -> Bool {
        let existing = try store.list(
            AccountTable.table, AccountTable.byRoleStatus,
            IndexRange.starting(with: [.string(""), .enumCase(SoukV1.Role.operator), .enumCase(SoukV1.RoleStatus.active)]),
            page: PageRequest(size: 1))
        return !existing.items.isEmpty
    }

    func mappingEmailTaken<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch StoreError.uniqueViolation(let index, _) where index == AccountTable.byEmail.name {
            throw RPCError.souk(.alreadyExists, .emailTaken, "the e-mail is already used by another account in this marketplace")
        }
    }
}

/// The identity layer could not be set up (bad operator credentials, hashing cost).
public struct IdentitySetupError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Stores only the account of a sign-up response for idempotent replays: session tokens are
/// never stored in the clear, so a replay signs in anew.
struct AccountOnlyCodec: RecordCodec {
    func encode(_ value: SoukV1.SignUpResponse, into bytes: inout [UInt8]) throws {
        SoukV1.SignUpResponse(account: value.account).withEncodedBytes { bytes.append(contentsOf: $0) }
    }

    func decode(_ bytes: UnsafeRawBufferPointer) throws -> SoukV1.SignUpResponse {
        try SoukV1.SignUpResponse(decoding: bytes)
    }
}

extension Identity {
    /// Mounted by the server with the `IdentityConfiguration` and `OpenStreams` it provides; the
    /// accounts stored before the dashboards' totals are counted when those are rebuilt.
    public convenience init(mounting context: DomainContext) throws {
        try self.init(
            store: context.store, configuration: context.optional(IdentityConfiguration.self) ?? IdentityConfiguration(),
            openStreams: context.optional(OpenStreams.self) ?? OpenStreams())
        context.shared { ReportSources() }.register(IdentityReports.source)
    }

    /// New accounts and sign-ins add to the dashboards' totals (`SoukReports`).
    public static var dependencies: [any SoukDomain.Type] { [Reports.self] }
}

/// What identity tells the dashboards' totals, in its own transactions: an account created
/// (new, on its marketplace's day), a session opened (the account is active that day).
enum IdentityReports {
    /// The time zone of marketplace `id` ("" when unknown: UTC).
    static func timeZone(_ marketplaceID: String, _ reader: any RecordLookup) throws -> String {
        guard let id = RecordID(marketplaceID) else { return "" }
        return try IdentityRecords.marketplaceRecord(id, reader)?.value.timeZone ?? ""
    }

    static func accountCreated(_ record: StoredRecord<AccountRecord>, transaction: Transaction) throws {
        let marketplaceID = record.value.account.marketplaceID
        guard !marketplaceID.isEmpty else { return }
        let day = ReportTotals.day(record.createdAt, timeZone: try timeZone(marketplaceID, transaction))
        try ReportTotals.accountCreated(record.id.description, day: day, marketplaceID: marketplaceID, transaction: transaction)
    }

    static func signedIn(_ accountID: RecordID, marketplaceID: String, transaction: Transaction) throws {
        guard !marketplaceID.isEmpty else { return }
        let day = ReportTotals.day(transaction.now, timeZone: try timeZone(marketplaceID, transaction))
        try ReportTotals.active(accountID.description, as: .account, day: day, marketplaceID: marketplaceID, transaction: transaction)
    }

    /// The accounts already stored, each new on its creation day (sign-ins before the totals
    /// existed are not known: only the sessions still stored count, on the day they opened).
    static let source = ReportSource("accounts") { store in
        try await store.eachPage(AccountTable.table, AccountTable.byMarketplace) { records in
            try await store.write { transaction in
                for record in records { try accountCreated(record, transaction: transaction) }
            }
        }
    }
}

extension Identity {
    /// The language tag account `accountID` chose (`Account.locale`, set to its marketplace's
    /// default when it was created); "" when the account is unknown. Read in the caller's
    /// transaction, so that what is written for the account (a notification) is in its language.
    public static func locale(of accountID: RecordID, _ reader: any RecordLookup) throws -> String {
        try reader.get(AccountTable.table, accountID)?.value.account.locale ?? ""
    }
}
