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
    /// transaction: an audit entry, appended to the resource's event stream as well. Then the
    /// transition's effects run and the machine's timers are armed or cancelled as the record
    /// now says, all in the same transaction. A `maintained` move is one the server makes to
    /// follow another record (a listing rented by its booking): it keeps the version clients
    /// edit with (DOMAIN decision 9). A `carried` move is carried by a transition of another
    /// resource that `actor` made (an order's cancellation cancels its delivery): only
    /// transitions the server may fire are considered, and the move is recorded as `actor`'s.
    @discardableResult
    public func fire<Record: LifecycleRecord>(
        _ name: Name, on id: RecordID, in table: Table<Record>, marketplaceID: String, by actor: AuditActor,
        to target: State? = nil, expectedVersion: UInt64? = nil, reason: String = "", maintained: Bool = false, carried: Bool = false,
        transaction: Transaction, change: (inout Record) throws -> Void = { _ in }
    ) throws -> StoredRecord<Record> where Record.Subject == Subject {
        guard let current = try transaction.get(table, id), current.value.marketplaceID == marketplaceID else {
            throw RPCError.notFound(noun, id.description)
        }
        if let expectedVersion, expectedVersion != current.version {
            throw RPCError.staleVersion(noun, id.description, expected: expectedVersion, actual: current.version)
        }
        let from = current.value.subject[keyPath: state]
        let decider = carried ? AuditActor.system(actor.action) : actor
        let transition = try self.transition(name, on: current.value.subject, id: id.description, by: decider, to: target)
        let move: (inout Record) throws -> Void = { value in
            value.subject[keyPath: state] = transition.to
            try change(&value)
        }
        let record = maintained ? try transaction.updateMaintainedFields(table, id, move) : try transaction.update(table, id, move)
        guard record.value.subject[keyPath: state] == transition.to else {
            throw RPCError(.internalError, "the change made with \(name.rawValue) moved the \(noun) off \(transition.to.protoName)")
        }
        try recordMove(of: record, in: table, from: from.protoName, to: transition.to.protoName, actor: actor, reason: reason, transaction: transaction)
        let done = LifecycleMove(
            id: id, marketplaceID: marketplaceID, before: current.value.subject, after: record.value.subject, version: record.version,
            actor: actor, reason: reason)
        for effect in transition.effects { try effect.run(done, transaction) }
        try syncTimers(id, marketplaceID: marketplaceID, record.value.subject, transaction: transaction)
        // An effect may have changed the record again (a payment status it keeps).
        return transition.effects.isEmpty ? record : try transaction.get(table, id) ?? record
    }

    /// Stores a new record in one of the initial states and records its creation like a
    /// transition from nothing, so that a resource's history and stream start with it; the
    /// timers the new record calls for are armed.
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
        try recordMove(of: record, in: table, from: "", to: start.protoName, actor: actor, reason: reason, transaction: transaction)
        try syncTimers(record.id, marketplaceID: value.marketplaceID, value.subject, transaction: transaction)
        return record
    }

    /// Records a change of `record` that is not a transition (an offer made or withdrawn, a
    /// reschedule, a deposit returned): the audit entry without a state, on the resource's event
    /// stream too when it is streamed, so a Watch RPC sees every change; and the timers armed or
    /// cancelled as the record now says.
    public func recordChange<Record: LifecycleRecord>(
        _ record: StoredRecord<Record>, in table: Table<Record>, by actor: AuditActor, reason: String = "", transaction: Transaction
    ) throws where Record.Subject == Subject {
        try recordMove(of: record, in: table, from: "", to: "", actor: actor, reason: reason, transaction: transaction)
        try syncTimers(record.id, marketplaceID: record.value.marketplaceID, record.value.subject, transaction: transaction)
    }

    /// Decision 16: the audit entry, and for a streamed resource the same entry as the next
    /// event of its stream, with the record as the move left it.
    private func recordMove<Record: LifecycleRecord>(
        of record: StoredRecord<Record>, in table: Table<Record>, from: String, to: String, actor: AuditActor, reason: String,
        transaction: Transaction
    ) throws where Record.Subject == Subject {
        let entry = try AuditLog.record(
            in: transaction, marketplaceID: record.value.marketplaceID, resource: SoukV1.ResourceRef(type: resource, id: record.id.description),
            actor: actor, from: from, to: to, reason: reason, resourceVersion: record.version)
        if streamed { try transaction.appendLifecycleEvent(entry, of: resource, record: record, in: table) }
    }
}
