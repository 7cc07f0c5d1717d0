import SoukMessages
import SoukStore

/// One page of a resource's recorded transitions.
public struct TransitionPage: Sendable {
    /// Oldest first: the creation, then each transition fired.
    public var entries: [SoukV1.AuditEntry]
    /// Nil on the last page.
    public var nextPageToken: String?
}

extension Store {
    /// The transitions recorded for resource `id` of `marketplaceID`, oldest first, for the
    /// domains' history RPCs. Reads the audit log's transition index, so entries that are not
    /// state changes (a reschedule, an update) are left out; events expire, the audit log does not.
    public func transitions(of id: RecordID, marketplaceID: String, page: PageRequest) throws -> TransitionPage {
        let result = try list(
            AuditTable.table, AuditTable.transitionsByResource, .starting(with: [.string(marketplaceID), .string(id.description)]),
            page: page)
        return TransitionPage(entries: result.items.map(AuditProjection.entry), nextPageToken: result.nextPageToken)
    }
}
