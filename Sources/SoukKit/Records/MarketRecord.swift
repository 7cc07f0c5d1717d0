import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore

/// A contract message that names itself: the store's envelope holds its id, version and times,
/// which `MarketRecord.api` copies back in.
public protocol StampedMessage: ProtoMessage, Sendable {
    var id: String { get set }
    var version: Int64 { get set }
    var createTime: Timestamp? { get set }
    var updateTime: Timestamp? { get set }
}

/// A domain record: one contract message of one marketplace, stored as the message itself
/// (without its id, version and times, which the envelope holds). Lifecycles move its status.
public struct MarketRecord<Message: StampedMessage>: LifecycleRecord, Sendable, Equatable {
    public var marketplaceID: String
    public var subject: Message

    public init(marketplaceID: String, _ subject: Message) {
        self.marketplaceID = marketplaceID
        self.subject = subject
    }

    /// The codec every table of such records uses.
    static var codec: FieldCodec<MarketRecord> {
        FieldCodec.marketplaceMessage(Message.self, split: { ($0.marketplaceID, $0.subject) }, make: MarketRecord.init)
    }
}

extension StoredRecord {
    /// The contract's view of a record: its message with the envelope's id, version and
    /// times.
    public func api<Message>() -> Message where Value == MarketRecord<Message> {
        var message = value.subject
        message.id = id.description
        message.version = Int64(version)
        message.createTime = Timestamp(createdAt)
        message.updateTime = Timestamp(updatedAt)
        return message
    }
}

/// A table of `Message` records.
public func marketTable<Message>(
    _ name: String, _ type: Message.Type, indexes: [Index<MarketRecord<Message>>] = [],
    sameIndexEntries: (@Sendable (MarketRecord<Message>, MarketRecord<Message>) -> Bool)? = nil
) -> Table<MarketRecord<Message>> {
    Table(name, codec: MarketRecord<Message>.codec, indexes: indexes, sameIndexEntries: sameIndexEntries)
}

/// `record` if it belongs to `marketplaceID`; NOT_FOUND (naming `noun`) otherwise, so another
/// marketplace's ids look like unknown ones.
private func inMarketplace<Message>(_ record: StoredRecord<MarketRecord<Message>>?, _ id: RecordID, _ marketplaceID: RecordID, _ noun: String)
    throws -> StoredRecord<MarketRecord<Message>>
{
    guard let record, record.value.marketplaceID == marketplaceID.description else { throw RPCError.notFound(noun, id.description) }
    return record
}

extension Transaction {
    /// The record `id` of `table` in `marketplaceID`, read and locked; NOT_FOUND otherwise.
    public func require<Message>(_ table: Table<MarketRecord<Message>>, _ id: RecordID, in marketplaceID: RecordID, _ noun: String) throws
        -> StoredRecord<MarketRecord<Message>>
    {
        try inMarketplace(get(table, id), id, marketplaceID, noun)
    }
}

extension Store {
    /// The record `id` of `table` in `marketplaceID`, read without locking; NOT_FOUND otherwise.
    public func require<Message>(_ table: Table<MarketRecord<Message>>, _ id: RecordID, in marketplaceID: RecordID, _ noun: String) throws
        -> StoredRecord<MarketRecord<Message>>
    {
        try inMarketplace(get(table, id), id, marketplaceID, noun)
    }
}

extension Store {
    /// Stores `value` once per idempotency key (the caller's `requestID` in the marketplace) and
    /// records its creation in the audit log as reaching `state`; a retry with the same request
    /// gets the first answer; `inserted` writes what goes with the record (its picture references).
    /// Catalog, dorm and quiz creates use it.
    public func createOnce<Message, Response: ProtoMessage>(
        _ table: Table<MarketRecord<Message>>, _ value: Message, resource: SoukV1.ResourceType, state: String,
        request: some ProtoMessage, requestID: String, call: SoukCall,
        inserted: @escaping @Sendable (StoredRecord<MarketRecord<Message>>, Transaction) throws -> Void = { _, _ in },
        view: @escaping @Sendable (StoredRecord<MarketRecord<Message>>) -> Response
    ) async throws -> Response {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let actor = AuditActor(call, requestID: requestID)
        return try await write(
            idempotencyKey: IdempotencyKey(marketplace: marketplaceID.description, account: caller.accountID.description, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<Response>()
        ) { transaction in
            let record = try transaction.insert(table, MarketRecord(marketplaceID: marketplaceID.description, value))
            try inserted(record, transaction)
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: resource, id: record.id.description),
                actor: actor, to: state, resourceVersion: record.version)
            return view(record)
        }.value
    }
}

extension Transaction {
    /// The record `id` of `table` in `marketplaceID`, read and locked, at `expectedVersion` when
    /// given: NOT_FOUND otherwise, ABORTED when it changed since the caller read it.
    public func require<Message>(
        _ table: Table<MarketRecord<Message>>, _ id: RecordID, in marketplaceID: RecordID, _ noun: String, expectedVersion: UInt64?
    ) throws -> StoredRecord<MarketRecord<Message>> {
        let current = try require(table, id, in: marketplaceID, noun)
        if let expectedVersion, expectedVersion != current.version {
            throw RPCError.staleVersion(noun, id.description, expected: expectedVersion, actual: current.version)
        }
        return current
    }
}

extension Store {
    /// Changes the fields `paths` of record `id` with `change`, in one transaction: the record
    /// must be in `marketplaceID` at `expectedVersion` (when given) and pass `check`; `written`
    /// then checks or writes what goes with the new record (its pictures), and the change is
    /// recorded in the audit log ("updated: <paths>").
    public func updateFields<Message>(
        _ table: Table<MarketRecord<Message>>, _ id: RecordID, in marketplaceID: RecordID, _ noun: String, resource: SoukV1.ResourceType,
        paths: [String], expectedVersion: UInt64?, actor: AuditActor,
        check: @escaping @Sendable (StoredRecord<MarketRecord<Message>>, Transaction) throws -> Void = { _, _ in },
        change: @escaping @Sendable (inout MarketRecord<Message>) -> Void,
        written: @escaping @Sendable (_ old: StoredRecord<MarketRecord<Message>>, _ new: StoredRecord<MarketRecord<Message>>, Transaction) throws -> Void = { _, _, _ in }
    ) async throws -> StoredRecord<MarketRecord<Message>> {
        try await write { transaction in
            let current = try transaction.require(table, id, in: marketplaceID, noun, expectedVersion: expectedVersion)
            try check(current, transaction)
            let updated = try transaction.update(table, id) { change(&$0) }
            try written(current, updated, transaction)
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: resource, id: id.description),
                actor: actor, reason: "updated: " + paths.joined(separator: ", "), resourceVersion: updated.version)
            return updated
        }
    }
}
