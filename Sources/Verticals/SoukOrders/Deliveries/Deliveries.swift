import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The deliveries as the verticals reach them, inside the caller's transaction (or read from the
/// store): the table is the shared orders' own (`DeliveryTable`, internal), so water deliveries
/// and food dispatch read a delivery and an order's deliveries through here; transitions go
/// through the lifecycle (`fire` below).
package enum Deliveries {
    /// Delivery `id`, read (and locked, in a transaction) from `reader`; nil when there is none.
    package static func get(_ id: RecordID, _ reader: any RecordLookup) throws -> StoredRecord<DeliveryRecord>? {
        try reader.get(DeliveryTable.table, id)
    }

    /// Delivery `id` of `marketplaceID`, read (and locked, in a transaction) from `reader`;
    /// NOT_FOUND otherwise, so another marketplace's deliveries look like unknown ones.
    package static func require(_ id: RecordID, in marketplaceID: RecordID, _ reader: any RecordLookup) throws
        -> StoredRecord<DeliveryRecord>
    {
        guard let record = try get(id, reader), record.value.marketplaceID == marketplaceID.description else {
            throw RPCError.notFound("delivery", id.description)
        }
        return record
    }

    /// Up to `limit` deliveries of order `orderID` in `marketplaceID`, oldest first, read and locked.
    package static func of(order orderID: RecordID, marketplaceID: String, limit: Int, _ transaction: Transaction) throws
        -> [StoredRecord<DeliveryRecord>]
    {
        try transaction.list(
            DeliveryTable.table, DeliveryTable.byOrder, .starting(with: [.string(marketplaceID), .string(orderID.description)]), limit: limit)
    }
}

/// The delivery lifecycles (`DeliveryLifecycles`) run on the shared orders' own table: the
/// verticals create and move deliveries, and handle their timers, through these, without naming
/// the table.
extension StateMachine where Subject == SoukStoreV1.Delivery {
    /// Stores a new delivery (`StateMachine.create(_:in:id:by:reason:transaction:)`).
    @discardableResult
    package func create(_ value: DeliveryRecord, id: RecordID? = nil, by actor: AuditActor, reason: String = "", transaction: Transaction)
        throws -> StoredRecord<DeliveryRecord>
    {
        try create(value, in: DeliveryTable.table, id: id, by: actor, reason: reason, transaction: transaction)
    }

    /// Fires transition `name` on delivery `id` (`StateMachine.fire(_:on:in:marketplaceID:...)`).
    @discardableResult
    package func fire(
        _ name: Name, on id: RecordID, marketplaceID: String, by actor: AuditActor, to target: State? = nil, expectedVersion: UInt64? = nil,
        reason: String = "", maintained: Bool = false, carried: Bool = false, transaction: Transaction,
        change: (inout DeliveryRecord) throws -> Void = { _ in }
    ) throws -> StoredRecord<DeliveryRecord> {
        try fire(
            name, on: id, in: DeliveryTable.table, marketplaceID: marketplaceID, by: actor, to: target, expectedVersion: expectedVersion,
            reason: reason, maintained: maintained, carried: carried, transaction: transaction, change: change)
    }

    /// What the scheduler runs when timer `name` of a delivery falls due
    /// (`StateMachine.timerHandler(_:in:run:)`).
    package func timerHandler(_ name: String, run: (@Sendable (StoredRecord<DeliveryRecord>, Transaction) throws -> Void)? = nil)
        -> TimerHandler
    {
        timerHandler(name, in: DeliveryTable.table, run: run)
    }
}
