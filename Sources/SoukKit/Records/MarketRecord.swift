import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore

/// A contract message that names itself: a projection copies the store's envelope (its id,
/// version and times) into it with `StoredRecord.stamped`.
public protocol StampedMessage: ProtoMessage, Sendable {
    var id: String { get set }
    var version: Int64 { get set }
    var createTime: Timestamp? { get set }
    var updateTime: Timestamp? { get set }
}

/// A domain record: one stored message of one marketplace (without its id, version and times,
/// which the envelope holds). Lifecycles move its status.
///
/// `Subject` is the table's own record type, a message of `souk.store.v1`
/// (`Proto/souk/store/v1`), which RPCs never send: each answers with a projection that names
/// the fields it copies (see the storage part of ADDING-A-SERVICE.md). Tables not converted yet
/// still store their contract message (a `StampedMessage`, read back with `api()`).
public struct MarketRecord<Subject: ProtoMessage & Hashable>: LifecycleRecord, Sendable, Equatable {
    public var marketplaceID: String
    public var subject: Subject

    public init(marketplaceID: String, _ subject: Subject) {
        self.marketplaceID = marketplaceID
        self.subject = subject
    }

    /// The codec every table of such records uses: a format byte, the marketplace id, then the
    /// message's bytes. A stored message keeps the field numbers of the message the table stored
    /// before it, so records written by an older format read as the newer one.
    static var codec: FieldCodec<MarketRecord> {
        FieldCodec.marketplaceMessage(Subject.self, split: { ($0.marketplaceID, $0.subject) }, make: MarketRecord.init)
    }
}

extension StoredRecord {
    /// `message` with the envelope's id, version and times: the start of every projection.
    public func stamped<Message: StampedMessage>(_ message: Message) -> Message {
        var message = message
        message.id = id.description
        message.version = Int64(version)
        message.createTime = Timestamp(createdAt)
        message.updateTime = Timestamp(updatedAt)
        return message
    }

    /// The contract's view of a record of a table that still stores its contract message: the
    /// message with the envelope's id, version and times.
    public func api<Message>() -> Message where Value == MarketRecord<Message>, Message: StampedMessage {
        stamped(value.subject)
    }
}

/// A table of `Subject` records.
public func marketTable<Subject>(
    _ name: String, _ type: Subject.Type, indexes: [Index<MarketRecord<Subject>>] = [],
    sameIndexEntries: (@Sendable (MarketRecord<Subject>, MarketRecord<Subject>) -> Bool)? = nil
) -> Table<MarketRecord<Subject>> {
    Table(name, codec: MarketRecord<Subject>.codec, indexes: indexes, sameIndexEntries: sameIndexEntries)
}

/// `record` if it belongs to `marketplaceID`; NOT_FOUND (naming `noun`) otherwise, so another
/// marketplace's ids look like unknown ones.
private func inMarketplace<Subject>(_ record: StoredRecord<MarketRecord<Subject>>?, _ id: RecordID, _ marketplaceID: RecordID, _ noun: String)
    throws -> StoredRecord<MarketRecord<Subject>>
{
    guard let record, record.value.marketplaceID == marketplaceID.description else { throw RPCError.notFound(noun, id.description) }
    return record
}

extension Transaction {
    /// The record `id` of `table` in `marketplaceID`, read and locked; NOT_FOUND otherwise.
    public func require<Subject>(_ table: Table<MarketRecord<Subject>>, _ id: RecordID, in marketplaceID: RecordID, _ noun: String) throws
        -> StoredRecord<MarketRecord<Subject>>
    {
        try inMarketplace(get(table, id), id, marketplaceID, noun)
    }

    /// The record `id` of `table` in `marketplaceID`, read without locking (`Transaction.read`); NOT_FOUND otherwise.
    public func reference<Subject>(_ table: Table<MarketRecord<Subject>>, _ id: RecordID, in marketplaceID: RecordID, _ noun: String) throws
        -> StoredRecord<MarketRecord<Subject>>
    {
        try inMarketplace(read(table, id), id, marketplaceID, noun)
    }
}

extension Store {
    /// The record `id` of `table` in `marketplaceID`, read without locking; NOT_FOUND otherwise.
    public func require<Subject>(_ table: Table<MarketRecord<Subject>>, _ id: RecordID, in marketplaceID: RecordID, _ noun: String) throws
        -> StoredRecord<MarketRecord<Subject>>
    {
        try inMarketplace(get(table, id), id, marketplaceID, noun)
    }
}

extension Store {
    /// Stores `value` once per idempotency key (the caller's `requestID` in the marketplace) and
    /// records its creation in the audit log as reaching `state`; a retry with the same request
    /// gets the first answer; `inserted` writes what goes with the record (its picture references).
    /// Catalog, dorm and quiz creates use it.
    public func createOnce<Subject, Response: ProtoMessage>(
        _ table: Table<MarketRecord<Subject>>, _ value: Subject, resource: SoukV1.ResourceType, state: String,
        request: some ProtoMessage, requestID: String, call: SoukCall,
        inserted: @escaping @Sendable (StoredRecord<MarketRecord<Subject>>, Transaction) throws -> Void = { _, _ in },
        view: @escaping @Sendable (StoredRecord<MarketRecord<Subject>>) -> Response
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
    public func require<Subject>(
        _ table: Table<MarketRecord<Subject>>, _ id: RecordID, in marketplaceID: RecordID, _ noun: String, expectedVersion: UInt64?
    ) throws -> StoredRecord<MarketRecord<Subject>> {
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
    public func updateFields<Subject>(
        _ table: Table<MarketRecord<Subject>>, _ id: RecordID, in marketplaceID: RecordID, _ noun: String, resource: SoukV1.ResourceType,
        paths: [String], expectedVersion: UInt64?, actor: AuditActor,
        check: @escaping @Sendable (StoredRecord<MarketRecord<Subject>>, Transaction) throws -> Void = { _, _ in },
        change: @escaping @Sendable (inout MarketRecord<Subject>) -> Void,
        written: @escaping @Sendable (_ old: StoredRecord<MarketRecord<Subject>>, _ new: StoredRecord<MarketRecord<Subject>>, Transaction) throws -> Void = { _, _, _ in }
    ) async throws -> StoredRecord<MarketRecord<Subject>> {
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
