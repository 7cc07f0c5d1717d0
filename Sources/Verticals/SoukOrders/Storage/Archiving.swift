import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A stored catalog record that is archived rather than deleted, and can be restored. Each
/// owner declares its records' conformance beside their table.
package protocol ArchivableRecord: ProtoMessage, Hashable, Sendable {
    var archived: Bool { get set }
    var archiveTime: Timestamp? { get set }
}

extension Store {
    /// Archives (`archived` true) or restores record `id` of `table`, recording ACTIVE ↔ ARCHIVED
    /// in the audit log. The version is checked first, so a retried call says ABORTED; then
    /// FAILED_PRECONDITION when it is already archived (or not archived); then, when archiving,
    /// `mayArchive` (which throws what stands in the way).
    package func setArchived<Record: ArchivableRecord>(
        _ archived: Bool, _ table: Table<MarketRecord<Record>>, id text: String, field: String, expectedVersion: Int64, noun: String,
        resource: SoukV1.ResourceType, call: SoukCall,
        mayArchive: @escaping @Sendable (StoredRecord<MarketRecord<Record>>, Transaction) throws -> Void = { _, _ in }
    ) async throws -> StoredRecord<MarketRecord<Record>> {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(text, field: field)
        let expected = try RequestFields.expectedVersion(expectedVersion)
        let actor = AuditActor(call)
        return try await write { transaction in
            let current = try transaction.require(table, id, in: marketplaceID, noun)
            if let expected, expected != current.version {
                throw RPCError.staleVersion(noun, id.description, expected: expected, actual: current.version)
            }
            guard current.value.subject.archived != archived else {
                throw RPCError.souk(
                    .failedPrecondition, .invalidTransition, archived ? "the \(noun) is already archived" : "the \(noun) is not archived")
            }
            if archived { try mayArchive(current, transaction) }
            let updated = try transaction.update(table, id) { record in
                record.subject.archived = archived
                record.subject.archiveTime = archived ? Timestamp(transaction.now) : nil
            }
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: resource, id: id.description),
                actor: actor, from: archived ? "ACTIVE" : "ARCHIVED", to: archived ? "ARCHIVED" : "ACTIVE", resourceVersion: updated.version)
            return updated
        }
    }
}
