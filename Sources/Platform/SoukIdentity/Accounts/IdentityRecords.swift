import SoukKit
import SoukMessages
import SoukStore

/// What other domains read of identity's records. Identity's tables are its own (no other
/// module sees them); others read through here and change accounts through `AccountRoles`.
public enum IdentityRecords {
    /// Account `id` as other domains see it: the stored account with its id, version and times,
    /// without the sign-in fields and without any vertical's part (each vertical reads its own).
    public static func account(_ id: RecordID, _ reader: any RecordLookup) throws -> SoukV1.Account? {
        try reader.get(AccountTable.table, id).map { AccountProjection.account($0, nil) }
    }

    /// Account `id` when it belongs to marketplace `marketplaceID`; nil otherwise.
    public static func account(_ id: RecordID, marketplaceID: String, _ reader: any RecordLookup) throws -> SoukV1.Account? {
        try account(id, reader).flatMap { $0.marketplaceID == marketplaceID ? $0 : nil }
    }

    /// Marketplace `id` with its id, version and times (`marketplaceRecord`).
    public static func marketplace(_ id: RecordID, _ reader: any RecordLookup) throws -> SoukV1.Marketplace? {
        try marketplaceRecord(id, reader).map(MarketplaceProjection.marketplace)
    }

    /// Marketplace `id`'s stored record, read without a lock inside a transaction: the marketplace
    /// is the configuration (time zone, settings) that every write of its orders, jobs, leases and
    /// payments refers to. Locked, it made them all queue on one record, and deadlock with those
    /// that had locked a product first (a checkout against a cancellation).
    static func marketplaceRecord(_ id: RecordID, _ reader: any RecordLookup) throws -> StoredRecord<SoukStoreV1.Marketplace>? {
        try reader.read(MarketplaceTable.table, id)
    }

    /// One page of the accounts of marketplace `marketplaceID`, in the order they were created,
    /// as `account(_:_:)` shows them; `token` is the previous page's (nil for the first). For a
    /// domain that tells every account something, a page per transaction (content's audience).
    public static func accountPage(marketplaceID: String, token: String?, size: Int, store: Store) throws
        -> (accounts: [SoukV1.Account], nextToken: String?)
    {
        let page = try store.list(
            AccountTable.table, AccountTable.byMarketplace, .starting(with: [.string(marketplaceID)]), page: PageRequest(size: size, token: token))
        return (page.items.map { AccountProjection.account($0, nil) }, page.nextPageToken)
    }

    /// Saved address `id` (of any account: the caller checks whose it is).
    public static func address(_ id: RecordID, _ reader: any RecordLookup) throws -> StoredRecord<AddressRecord>? {
        try reader.get(AddressTable.table, id)
    }

    /// The default saved address of an account, read (and locked) in `transaction`.
    public static func defaultAddress(of accountID: RecordID, marketplaceID: RecordID, _ transaction: Transaction) throws -> StoredRecord<AddressRecord>? {
        try transaction.first(
            AddressTable.table, AddressTable.defaultOfAccount, .starting(with: [.string(marketplaceID.description), .string(accountID.description)]))
    }
}

/// The role changes other domains make as part of their own journeys (a restaurant decided with
/// its owner's provider role, the Dasher quiz granting the courier role), inside the caller's
/// transaction. The account's audit entry and notice mail are written here, as identity's own
/// RPCs write them. Vertical parts are not called: the calling domain updates its own records.
public enum AccountRoles {
    /// Sets `role` of account `id` to `status` (PENDING asks for it anew; ACTIVE, REJECTED and
    /// REVOKED decide it, keeping when a pending request was made), changing the account's
    /// version. `reason` is stored on the grant; `auditReason` goes to the audit entry. Throws
    /// `StoreError.notFound` when the account does not exist. Returns the account as
    /// `IdentityRecords.account` shows it.
    @discardableResult
    public static func set(
        _ role: SoukV1.Role, of id: RecordID, to status: SoukV1.RoleStatus, reason: String = "", decidedBy: String,
        actor: AuditActor, auditReason: String, notice: (subject: String, body: String)? = nil, transaction: Transaction
    ) throws -> SoukV1.Account {
        let now = Timestamp(transaction.now)
        var from = ""
        let updated = try transaction.update(AccountTable.table, id) { record in
            let index = record.account.roles.firstIndex { $0.role == role }
            let old = index.map { record.account.roles[$0] }
            from = old?.status.protoName ?? ""
            var grant = SoukV1.RoleGrant(role: role, status: status, reason: reason, requestTime: now)
            if status != .pending {
                grant.decidedByAccountID = decidedBy
                grant.decideTime = now
                if let old, old.status == .pending { grant.requestTime = old.requestTime }
            }
            if let index { record.account.roles[index] = grant } else { record.account.roles.append(grant) }
        }
        let account = updated.value.account
        try AuditLog.record(
            in: transaction, marketplaceID: account.marketplaceID, resource: SoukV1.ResourceRef(type: .account, id: id.description),
            actor: actor, from: from, to: status.protoName, reason: auditReason, resourceVersion: updated.version)
        if let notice, !account.email.isEmpty {
            try MailOutbox.enqueue(
                in: transaction, marketplaceID: account.marketplaceID, kind: .accountNotice, to: account.email, accountID: id.description,
                subject: notice.subject, body: notice.body)
        }
        return AccountProjection.account(updated, nil)
    }
}
