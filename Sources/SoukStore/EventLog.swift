import Synchronization

/// One event of a stream, as stored.
public struct StoredEvent: Sendable, Equatable {
    public let stream: String
    /// 1, 2, 3, … within the stream, without gaps.
    public let sequence: UInt64
    public let time: StoreTime
    public let payload: [UInt8]
    /// What a follower made of this event for its client (see `rendered(_:)`), shared by every
    /// follower handed the same event from the notifier's tail.
    let rendering = Rendering()

    public init(stream: String, sequence: UInt64, time: StoreTime, payload: [UInt8]) {
        self.stream = stream
        self.sequence = sequence
        self.time = time
        self.payload = payload
    }

    public static func == (lhs: StoredEvent, rhs: StoredEvent) -> Bool {
        lhs.stream == rhs.stream && lhs.sequence == rhs.sequence && lhs.time == rhs.time && lhs.payload == rhs.payload
    }

    /// The event rendered for a client by `make` (for example the response message encoded
    /// with its sequence set), made once and shared: thousands of followers of one stream woken
    /// for one commit take the same event from the tail, and the first of them renders it for
    /// all. `make` must depend on the event alone (not on the follower), and each caller must
    /// ask for one type `T` per event.
    public func rendered<T: Sendable>(_ make: () throws -> T) rethrows -> T {
        if let made = rendering.value.withLock({ $0 }) as? T { return made }
        let made = try make()
        rendering.value.withLock { $0 = made }
        return made
    }

    final class Rendering: Sendable {
        let value = Mutex<(any Sendable)?>(nil)
    }
}

/// Event logs: per stream, an ordered sequence of events appended in the same transaction as the
/// change they describe, so a follower that resumes after sequence N sees every later change
/// exactly once. Events older than `configuration.eventRetention` are removed by
/// `purgeExpiredEvents` (run by the server's scheduler); resuming from before the oldest kept event
/// fails with `.eventsExpired` rather than silently skipping.
enum EventKeys {
    static func head(_ stream: String) -> [UInt8] { KeySpace.prefix(KeySpace.streamHead, stream) }

    static func eventPrefix(_ stream: String) -> [UInt8] { KeySpace.prefix(KeySpace.event, stream, extraCapacity: 8) }

    static func event(_ stream: String, _ sequence: UInt64) -> [UInt8] {
        var key = eventPrefix(stream)
        KeySpace.appendUInt64(sequence, to: &key)
        return key
    }

    /// `T | time | event key`: lets retention find old events without visiting every stream.
    static func byTime(_ time: StoreTime, eventKey: [UInt8]) -> [UInt8] {
        var key = [KeySpace.eventTime]
        key.reserveCapacity(9 + eventKey.count)
        KeyPart.time(time).encode(into: &key)
        key.append(contentsOf: eventKey)
        return key
    }

    static func value(time: StoreTime, payload: [UInt8]) -> [UInt8] {
        var value: [UInt8] = [1]
        value.reserveCapacity(9 + payload.count)
        KeySpace.appendUInt64(UInt64(bitPattern: time.microsecondsSinceEpoch), to: &value)
        value.append(contentsOf: payload)
        return value
    }

    static func decode(stream: String, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws -> StoredEvent {
        guard key.count >= 8, value.count >= 9, value[0] == 1 else {
            throw StoreError.corruptValue(what: "event of \(stream)", reason: "malformed (\(value.count) bytes)")
        }
        return StoredEvent(
            stream: stream,
            sequence: KeySpace.readUInt64(key, at: key.count - 8),
            time: StoreTime(microsecondsSinceEpoch: Int64(bitPattern: KeySpace.readUInt64(value, at: 1))),
            payload: Array(value[9...]))
    }

    static func sequence(_ value: UnsafeRawBufferPointer?) -> UInt64 {
        guard let value, value.count == 8 else { return 0 }
        return KeySpace.readUInt64(value, at: 0)
    }
}

extension Transaction {
    /// Appends an event to `stream` as part of this transaction and returns its sequence number.
    ///
    /// Appends to one stream are serialized (the stream's head is locked until commit), so
    /// sequence numbers have no gaps and commit in order. Followers are woken after the commit.
    @discardableResult
    public func appendEvent(to stream: String, _ payload: [UInt8]) throws -> UInt64 {
        let headKey = EventKeys.head(stream)
        let sequence = try engine.getForUpdate(headKey) { EventKeys.sequence($0) } + 1
        var head = [UInt8]()
        KeySpace.appendUInt64(sequence, to: &head)
        try engine.put(headKey, head)
        // The event's keys hold its sequence number, which the head's lock makes this
        // transaction's alone: they need no lock of their own.
        let eventKey = EventKeys.event(stream, sequence)
        try engine.put(eventKey, EventKeys.value(time: now, payload: payload), locking: false)
        try engine.put(EventKeys.byTime(now, eventKey: eventKey), [], locking: false)
        appendedEvents[stream] = sequence
        appendedPayloads.append(StoredEvent(stream: stream, sequence: sequence, time: now, payload: payload))
        return sequence
    }
}

extension Transaction {
    /// The sequence number of the last event this transaction appended to `stream`, if any.
    public func lastAppendedSequence(of stream: String) -> UInt64? {
        appendedEvents[stream]
    }

    /// Replaces the payload of event `sequence` of `stream`, the last this transaction appended
    /// (an earlier one may be another transaction's, committed already).
    public func replaceAppendedEvent(in stream: String, sequence: UInt64, _ payload: [UInt8]) throws {
        guard appendedEvents[stream] == sequence else {
            throw StoreError.encodingFailed(table: "events", reason: "event \(sequence) of \(stream) was not appended by this transaction")
        }
        try engine.put(EventKeys.event(stream, sequence), EventKeys.value(time: now, payload: payload), locking: false)
        if let index = appendedPayloads.lastIndex(where: { $0.stream == stream && $0.sequence == sequence }) {
            appendedPayloads[index] = StoredEvent(stream: stream, sequence: sequence, time: now, payload: payload)
        }
    }
}

extension Store {
    /// The sequence number of the newest event of `stream` (0 when it has none).
    public func lastSequence(of stream: String) throws -> UInt64 {
        try guarded { try engine.read(EventKeys.head(stream), in: nil) { EventKeys.sequence($0) } }
    }

    /// Up to `limit` events of `stream` with sequence numbers after `sequence`, oldest first.
    /// Throws `.eventsExpired` when retention already removed the event right after `sequence`.
    public func events(in stream: String, after sequence: UInt64, limit: Int = 100) throws -> [StoredEvent] {
        try guarded {
            let snapshot = engine.snapshot()
            let last = try engine.read(EventKeys.head(stream), in: snapshot) { EventKeys.sequence($0) }
            guard sequence < last else { return [] }
            let prefix = EventKeys.eventPrefix(stream)
            let iterator = engine.iterator(
                lower: EventKeys.event(stream, sequence + 1), upper: KeySpace.upperBound(ofPrefix: prefix), in: snapshot)
            var events = [StoredEvent]()
            iterator.seekToFirst()
            while iterator.isValid && events.count < max(1, limit) {
                events.append(try EventKeys.decode(stream: stream, key: iterator.keyBuffer, value: iterator.valueBuffer))
                iterator.next()
            }
            try iterator.checkError()
            let oldest = events.first?.sequence ?? last + 1
            if oldest != sequence + 1 {
                throw StoreError.eventsExpired(stream: stream, oldestAvailable: oldest)
            }
            return events
        }
    }

    /// Wakes the caller with the newest sequence number of `stream` after each commit that
    /// appended to it (only the latest is kept when the caller is slow). Ends when the store closes.
    public func eventUpdates(of stream: String) -> AsyncStream<UInt64> {
        let subscription = notifier.subscribe(stream)
        return AsyncStream(unfolding: { await subscription.next() })
    }

    /// Hands the events each commit appends to `stream` to `target` on its event loop, from
    /// now until the returned push is cancelled or released; nil when the store has closed.
    /// The caller reads what committed before (`events(in:after:limit:)`) itself.
    public func push(_ stream: String, to target: EventPush.Target) -> EventPush? {
        notifier.push(stream, to: target)
    }

    /// Every event of `stream` after `sequence`, then each new one as it commits: no gap, no
    /// duplicate. Ends when the store closes or the consuming task is cancelled; throws
    /// `.eventsExpired` when `sequence` is older than retention.
    public func follow(_ stream: String, after sequence: UInt64) -> EventFeed {
        EventFeed(store: self, stream: stream, after: sequence)
    }

    /// Deletes events written before `configuration.eventRetention` ago; returns how many.
    @discardableResult
    public func purgeExpiredEvents(batchSize: Int = 1_000) async throws -> Int {
        let cutoff = now.adding(.zero - configuration.eventRetention)
        var upper = [KeySpace.eventTime]
        KeyPart.time(cutoff).encode(into: &upper)
        return try await purgeInBatches(lower: [KeySpace.eventTime], upper: upper, batchSize: batchSize) { transaction, key, _ in
            try transaction.delete(Array(key))
            try transaction.delete(Array(key[9...]))  // the event key after `T | time`
        }
    }

    /// Deletes what `remove` deletes for each key in `[lower, upper)`, `batchSize` keys per transaction.
    func purgeInBatches(
        lower: [UInt8], upper: [UInt8], batchSize: Int,
        _ remove: @escaping @Sendable (any EngineTransaction, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void
    ) async throws -> Int {
        // Each key costs two deletes (and a read for update): a batch fits one commit of the engine.
        let batchSize = engine.maxWritesPerCommit.map { min(batchSize, max(1, $0 / 2)) } ?? batchSize
        var total = 0
        while true {
            let removed = try await runOnWriter {
                try self.guarded {
                    let iterator = self.engine.iterator(lower: lower, upper: upper, in: nil)
                    let transaction = self.engine.beginTransaction()
                    var count = 0
                    do {
                        iterator.seekToFirst()
                        while iterator.isValid && count < batchSize {
                            try remove(transaction, iterator.keyBuffer, iterator.valueBuffer)
                            count += 1
                            iterator.next()
                        }
                        try iterator.checkError()
                        try transaction.commit()
                    } catch {
                        transaction.rollback()
                        throw error
                    }
                    return count
                }
            }
            total += removed
            if removed < batchSize { return total }
        }
    }
}

/// The events of one stream from a starting point on, as an async sequence (see `Store.follow`).
///
/// It subscribes to commit notifications before its first read of the log, reads the log until
/// it has caught up, then waits to be woken. A wake names the stream's newest committed
/// sequence: the events up to it come from the notifier's tail in memory when it holds them all,
/// from the log otherwise, so nothing is lost or repeated.
public struct EventFeed: AsyncSequence, Sendable {
    public typealias Element = StoredEvent

    let store: Store
    let stream: String
    let after: UInt64

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(store: store, stream: stream, cursor: after, updates: store.notifier.subscribe(stream))
    }

    /// Reads the log (or the tail) in batches and waits for commits in between.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let store: Store
        let stream: String
        var cursor: UInt64
        let updates: EventSubscription
        var buffer: [StoredEvent] = []
        var position = 0
        /// The log may hold events after `cursor` that no wake will name: read it before waiting.
        var readLog = true

        public mutating func next() async throws -> StoredEvent? {
            while true {
                if position < buffer.count {
                    defer { position += 1 }
                    cursor = buffer[position].sequence
                    return buffer[position]
                }
                buffer = []
                position = 0
                if Task.isCancelled { return nil }
                if readLog {
                    buffer = try store.events(in: stream, after: cursor, limit: 100)
                    // A full batch may have more behind it; an empty one means caught up.
                    readLog = !buffer.isEmpty
                    if readLog { continue }
                }
                // Woken by a commit to this stream (or ended when the store closes / task is cancelled).
                guard let newest = await updates.next() else { return nil }
                guard newest > cursor else { continue }
                if let events = store.notifier.tail(of: stream, after: cursor, through: newest) {
                    buffer = events
                } else {
                    readLog = true
                }
            }
        }
    }
}
