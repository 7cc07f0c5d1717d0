import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore

/// One audit entry as stored: its own record (`souk.store.v1.AuditEntry`, without the id and
/// time, which the envelope holds) and its marketplace ("" for platform resources). Lists answer
/// with `AuditProjection`.
package typealias AuditRecord = MarketRecord<SoukStoreV1.AuditEntry>

package enum AuditTable {
    package static let byMarketplace = Index<AuditRecord>.nonUnique("audit.marketplace") { [.string($0.marketplaceID)] }
    package static let byResource = Index<AuditRecord>.nonUnique("audit.resource") {
        [.string($0.marketplaceID), .string($0.subject.resource?.id ?? "")]
    }
    package static let byResourceType = Index<AuditRecord>.nonUnique("audit.resource_type") {
        [.string($0.marketplaceID), .enumCase($0.subject.resource?.type ?? .unspecified)]
    }
    package static let byActor = Index<AuditRecord>.nonUnique("audit.actor") {
        $0.subject.actorAccountID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.actorAccountID)]
    }

    /// Only state transitions (entries with a target state), oldest first: a resource's history.
    package static let transitionsByResource = Index<AuditRecord>.nonUnique("audit.transitions") {
        $0.subject.toState.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.resource?.id ?? "")]
    }

    package static let table = marketTable(
        "audit_entries", SoukStoreV1.AuditEntry.self, indexes: [byMarketplace, byResource, byResourceType, byActor, transitionsByResource])
}

/// Who made a change, as the audit log records it.
public struct AuditActor: Sendable {
    /// Empty when the server acted on its own.
    public var accountID: String
    public var role: SoukV1.Role
    /// The RPC ("souk.v1.Accounts/BlockAccount") or server action ("system/Bootstrap").
    public var action: String
    /// The call's idempotency key, if any.
    public var requestID: String
    /// True only for `system(_:)`: a guest also has no account and no role, but is not the server.
    public private(set) var isServer = false

    public init(accountID: String, role: SoukV1.Role, action: String, requestID: String = "") {
        self.accountID = accountID
        self.role = role
        self.action = action
        self.requestID = requestID
    }

    /// The caller of a contract call, in the role they act in.
    public init(_ call: SoukCall, requestID: String = "") {
        self.init(
            accountID: call.caller?.accountID.description ?? "", role: call.actorRole,
            action: call.context.method.description, requestID: requestID)
    }

    /// The server itself (demo loading, operator bootstrap, timeouts).
    public static func system(_ action: String) -> AuditActor {
        var actor = AuditActor(accountID: "", role: .unspecified, action: "system/\(action)")
        actor.isServer = true
        return actor
    }
}

/// Platform decision 16: every state transition records who did it and when, in the same
/// transaction as the change. Listed by `Admin.ListAuditEntries`.
public enum AuditLog {
    /// Records one transition of `resource` in `marketplaceID` ("" for platform resources) and
    /// returns the entry as `Admin.ListAuditEntries` shows it.
    @discardableResult
    public static func record(
        in transaction: Transaction, marketplaceID: String, resource: SoukV1.ResourceRef, actor: AuditActor,
        from fromState: String = "", to toState: String = "", reason: String = "", resourceVersion: UInt64
    ) throws -> SoukV1.AuditEntry {
        let entry = SoukStoreV1.AuditEntry(
            resource: resource, actorAccountID: actor.accountID, actorRole: actor.role, action: actor.action,
            fromState: fromState, toState: toState, reason: reason, resourceVersion: Int64(resourceVersion),
            requestID: actor.requestID)
        return AuditProjection.entry(try transaction.insert(AuditTable.table, AuditRecord(marketplaceID: marketplaceID, entry)))
    }
}

/// What admins and transition histories see of a stored audit entry: the contract's
/// `AuditEntry`, built field by field (an allow-list: a field added to the stored record reaches
/// no caller until a line here names it).
package enum AuditProjection {
    package static func entry(_ record: StoredRecord<AuditRecord>) -> SoukV1.AuditEntry {
        let stored = record.value.subject
        var entry = SoukV1.AuditEntry()
        entry.id = record.id.description
        entry.createTime = Timestamp(record.createdAt)
        entry.resource = stored.resource
        entry.actorAccountID = stored.actorAccountID
        entry.actorRole = stored.actorRole
        entry.action = stored.action
        entry.fromState = stored.fromState
        entry.toState = stored.toState
        entry.reason = stored.reason
        entry.resourceVersion = stored.resourceVersion
        entry.requestID = stored.requestID
        return entry
    }
}
