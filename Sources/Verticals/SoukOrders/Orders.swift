import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The orders as the verticals reach them, inside the caller's transaction (or read from the
/// store): the table is the shared orders' own (`OrderTable`, internal), so the shops and food
/// delivery read an order, change the fields that are not its state, and find a restaurant's
/// orders through here; transitions go through the lifecycle (`fire` below).
package enum Orders {
    /// Order `id`, read (and locked, in a transaction) from `reader`; nil when there is none.
    package static func get(_ id: RecordID, _ reader: any RecordLookup) throws -> StoredRecord<OrderRecord>? {
        try reader.get(OrderTable.table, id)
    }

    /// Order `id` of `marketplaceID`, read (and locked, in a transaction) from `reader`;
    /// NOT_FOUND otherwise, so another marketplace's orders look like unknown ones.
    package static func require(_ id: RecordID, in marketplaceID: RecordID, _ reader: any RecordLookup) throws -> StoredRecord<OrderRecord> {
        guard let record = try get(id, reader), record.value.marketplaceID == marketplaceID.description else {
            throw RPCError.notFound("order", id.description)
        }
        return record
    }

    /// Changes order `id` with `change` (not its state: that is a transition's) and returns it;
    /// the caller records the change (`recordChange`).
    @discardableResult
    package static func update(_ id: RecordID, _ transaction: Transaction, _ change: (inout OrderRecord) throws -> Void) throws
        -> StoredRecord<OrderRecord>
    {
        try transaction.update(OrderTable.table, id, change)
    }

    /// Changes server-maintained fields of order `id` (a payment status it keeps), without
    /// changing the version clients edit with.
    @discardableResult
    package static func updateMaintainedFields(_ id: RecordID, _ transaction: Transaction, _ change: (inout OrderRecord) throws -> Void)
        throws -> StoredRecord<OrderRecord>
    {
        try transaction.updateMaintainedFields(OrderTable.table, id, change)
    }

    /// The first order of restaurant `restaurantID` in `status`, read and locked; nil when none.
    package static func first(ofRestaurant restaurantID: RecordID, marketplaceID: String, status: SoukV1.OrderStatus, _ transaction: Transaction)
        throws -> StoredRecord<OrderRecord>?
    {
        let range = IndexRange.starting(with: [.string(marketplaceID), .string(restaurantID.description), .enumCase(status)])
        return try transaction.first(OrderTable.table, OrderTable.byRestaurantStatus, range)
    }
}

/// The order lifecycles (`OrderLifecycles`) run on the shared orders' own table: the verticals
/// create, move and record orders through these, without naming the table.
extension StateMachine where Subject == SoukStoreV1.Order {
    /// Stores a new order (`StateMachine.create(_:in:id:by:reason:transaction:)`).
    @discardableResult
    package func create(_ value: OrderRecord, id: RecordID? = nil, by actor: AuditActor, reason: String = "", transaction: Transaction) throws
        -> StoredRecord<OrderRecord>
    {
        var value = value
        try OrderReports.stamp(&value, transaction: transaction)
        let record = try create(value, in: OrderTable.table, id: id, by: actor, reason: reason, transaction: transaction)
        try OrderReports.placed(record, transaction: transaction)
        return record
    }

    /// Fires transition `name` on order `id` (`StateMachine.fire(_:on:in:marketplaceID:...)`).
    @discardableResult
    package func fire(
        _ name: Name, on id: RecordID, marketplaceID: String, by actor: AuditActor, to target: State? = nil, expectedVersion: UInt64? = nil,
        reason: String = "", maintained: Bool = false, carried: Bool = false, transaction: Transaction,
        change: (inout OrderRecord) throws -> Void = { _ in }
    ) throws -> StoredRecord<OrderRecord> {
        let before = try transaction.get(OrderTable.table, id)?.value.subject.status ?? .unspecified
        let record = try fire(
            name, on: id, in: OrderTable.table, marketplaceID: marketplaceID, by: actor, to: target, expectedVersion: expectedVersion,
            reason: reason, maintained: maintained, carried: carried, transaction: transaction, change: change)
        // The dashboards' counters move with the order, in this transaction.
        try OrderReports.moved(from: before, record, transaction: transaction)
        return record
    }

    /// Records a change of `record` that is not a transition (`StateMachine.recordChange`).
    package func recordChange(_ record: StoredRecord<OrderRecord>, by actor: AuditActor, reason: String = "", transaction: Transaction) throws {
        try recordChange(record, in: OrderTable.table, by: actor, reason: reason, transaction: transaction)
    }
}
