import SoukGRPC
import SoukMessages
import SoukStore

/// A stored record a lifecycle moves: the contract message it holds and its marketplace.
public protocol LifecycleRecord: Sendable {
    associatedtype Subject: Sendable
    /// "" for platform records.
    var marketplaceID: String { get }
    var subject: Subject { get set }
}

/// The event stream of one resource, shared by the lifecycles that append to it and the Watch
/// RPCs that follow it: `order/<uuid>`, `job/<uuid>`.
public func lifecycleStream(_ resource: SoukV1.ResourceType, _ id: RecordID) -> String {
    "\(resource.protoName.dropPrefix("RESOURCE_TYPE_").lowercased())/\(id)"
}

extension StateMachine {
    /// Fires transition `name` on record `id` of `table` inside `transaction`: the record must
    /// exist in `marketplaceID` (NOT_FOUND) at `expectedVersion` when given (ABORTED, checked
    /// first so that a retried transition that already happened says ABORTED), then
    /// `transition(_:on:id:by:to:)` decides. The record gets the target state, then `change`
    /// (the domain's other fields: times, reasons), and the move is recorded in the same
    /// transaction: an audit entry, appended to the resource's event stream as well. A
    /// `maintained` move is one the server makes to follow another record (a listing rented by
    /// its booking): it keeps the version clients edit with (DOMAIN decision 9).
    @discardableResult
    public func fire<Record: LifecycleRecord>(
        _ name: String, on id: RecordID, in table: Table<Record>, marketplaceID: String, by actor: AuditActor,
        to target: State? = nil, expectedVersion: UInt64? = nil, reason: String = "", maintained: Bool = false, transaction: Transaction,
        change: (inout Record) throws -> Void = { _ in }
    ) throws -> StoredRecord<Record> where Record.Subject == Subject {
        guard let current = try transaction.get(table, id), current.value.marketplaceID == marketplaceID else {
            throw RPCError.notFound(noun, id.description)
        }
        if let expectedVersion, expectedVersion != current.version {
            throw RPCError.staleVersion(noun, id.description, expected: expectedVersion, actual: current.version)
        }
        let from = current.value.subject[keyPath: state]
        let transition = try self.transition(name, on: current.value.subject, id: id.description, by: actor, to: target)
        let move: (inout Record) throws -> Void = { value in
            value.subject[keyPath: state] = transition.to
            try change(&value)
        }
        let record = maintained ? try transaction.updateMaintainedFields(table, id, move) : try transaction.update(table, id, move)
        guard record.value.subject[keyPath: state] == transition.to else {
            throw RPCError(.internalError, "the change made with \(name) moved the \(noun) off \(transition.to.protoName)")
        }
        try recordMove(of: record, in: table, marketplaceID: marketplaceID, from: from.protoName, actor: actor, reason: reason, transaction: transaction)
        return record
    }

    /// Stores a new record in one of the initial states and records its creation like a
    /// transition from nothing, so that a resource's history and stream start with it.
    @discardableResult
    public func create<Record: LifecycleRecord>(
        _ value: Record, in table: Table<Record>, id: RecordID? = nil, by actor: AuditActor, reason: String = "",
        transaction: Transaction
    ) throws -> StoredRecord<Record> where Record.Subject == Subject {
        let start = value.subject[keyPath: state]
        guard initial.contains(start) else {
            throw RPCError(.internalError, "a \(noun) cannot start in \(start.protoName)")
        }
        let record = try transaction.insert(table, value, id: id)
        try recordMove(of: record, in: table, marketplaceID: value.marketplaceID, from: "", actor: actor, reason: reason, transaction: transaction)
        return record
    }

    /// Decision 16: the audit entry, and for a streamed resource the same entry as the next
    /// event of its stream, with the record as the move left it.
    private func recordMove<Record: LifecycleRecord>(
        of record: StoredRecord<Record>, in table: Table<Record>, marketplaceID: String, from: String, actor: AuditActor, reason: String,
        transaction: Transaction
    ) throws where Record.Subject == Subject {
        let entry = try AuditLog.record(
            in: transaction, marketplaceID: marketplaceID, resource: SoukV1.ResourceRef(type: resource, id: record.id.description),
            actor: actor, from: from, to: record.value.subject[keyPath: state].protoName, reason: reason,
            resourceVersion: record.version)
        if streamed { try transaction.appendLifecycleEvent(entry, of: resource, record: record, in: table) }
    }
}
