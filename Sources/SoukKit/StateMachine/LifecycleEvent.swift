import SoukMessages
import SoukStore

/// One event of a resource's stream (`lifecycleStream`): the audit entry of the change and the
/// resource's stored bytes right after it, so a Watch RPC sends each event, live or replayed,
/// with the resource as it was then.
///
/// Payload: the format byte 0, the entry, the record's snapshot (`Table.snapshot`), and the
/// snapshot of a related record (the bill a booking's event concerns), empty for none. Events
/// written before held the encoded audit entry alone; a protobuf message never starts with 0
/// (no field is numbered 0), which tells the two apart.
public struct LifecycleEvent: Sendable {
    public var entry: SoukV1.AuditEntry
    /// The streamed record right after the change; nil in an event of the older format.
    public var record: [UInt8]?
    /// The related record right after the change, when the change concerns one.
    public var related: [UInt8]?

    static let format: UInt8 = 0

    public init(entry: SoukV1.AuditEntry, record: [UInt8]?, related: [UInt8]? = nil) {
        self.entry = entry
        self.record = record
        self.related = related
    }

    /// Reads an event of either format.
    public init(decoding payload: [UInt8]) throws {
        guard payload.first == Self.format else {
            self.init(entry: try SoukV1.AuditEntry(decoding: payload), record: nil)
            return
        }
        let (entry, record, related) = try payload.withUnsafeBytes { bytes in
            var reader = try RecordReader(bytes)
            return (try reader.message(SoukV1.AuditEntry.self), try reader.bytesValue(), try reader.bytesValue())
        }
        self.init(entry: entry, record: record.isEmpty ? nil : record, related: related.isEmpty ? nil : related)
    }

    public func encoded() -> [UInt8] {
        var bytes = [UInt8]()
        var writer = RecordWriter(taking: &bytes, format: Self.format)
        writer.message(entry)
        writer.data(record ?? [])
        writer.data(related ?? [])
        writer.finish(into: &bytes)
        return bytes
    }

    /// The resource `id` of `table` as it was right after the event; for an event of the older
    /// format, as it is now (`current`).
    public func record<Value>(
        of table: Table<Value>, id: RecordID, orCurrent current: () throws -> StoredRecord<Value>
    ) throws -> StoredRecord<Value> {
        guard let record else { return try current() }
        return try table.record(id: id, snapshot: record)
    }
}

extension Transaction {
    /// Appends `entry` to the stream of resource `id` with `record` (and `related`) as they are
    /// now: the one way a change reaches a Watch RPC. When it is the transaction's last event of
    /// the record, it gets the record as the transaction leaves it, with the fields the server
    /// keeps changed after it (a payment status).
    public func appendLifecycleEvent<Value>(
        _ entry: SoukV1.AuditEntry, of resource: SoukV1.ResourceType, record: StoredRecord<Value>, in table: Table<Value>,
        related: [UInt8]? = nil
    ) throws {
        let stream = lifecycleStream(resource, record.id)
        let event = LifecycleEvent(entry: entry, record: try table.snapshot(record), related: related)
        let sequence = try appendEvent(to: stream, event.encoded())
        beforeCommit { transaction in
            guard transaction.lastAppendedSequence(of: stream) == sequence, let final = try transaction.get(table, record.id) else { return }
            var latest = event
            latest.record = try table.snapshot(final)
            if latest.record != event.record { try transaction.replaceAppendedEvent(in: stream, sequence: sequence, latest.encoded()) }
        }
    }
}
