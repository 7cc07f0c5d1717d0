import Logging
import NIOCore
import SoukGRPC
import SoukMessages
import SoukStore

extension RPCWriter where Element: SequencedEvent & ProtoMessage {
    /// Sends the response headers, then every event of `stream` after `sequence` and each one
    /// committed later, as `event` makes it for the client (it must depend on the stored event
    /// alone: one rendering is shared by every stream handed the same event), until the call
    /// ends. The headers tell the client that whatever commits from then on reaches it.
    ///
    /// A call its transport can hand over (`detach`) is followed by a `ParkedWatch`, without a
    /// task; otherwise this follows the log in the caller's task and returns when the store
    /// closes.
    public func follow(
        _ stream: String, in store: Store, after sequence: UInt64, logger: Logger? = nil,
        as event: @escaping @Sendable (StoredEvent) throws -> Element
    ) async throws {
        let render: @Sendable (StoredEvent) throws -> ByteBuffer = { stored in
            try stored.rendered { RPCWriter<ByteBuffer>.encode(try event(stored)) }
        }
        if let call = detach() {
            try await ParkedWatch.start(call, store: store, stream: stream, after: sequence, logger: logger, render: render) {
                try await sendHeaders()
            }
            return
        }
        var events = store.follow(stream, after: sequence).makeAsyncIterator()
        try await sendHeaders()
        while let stored = try await events.next() {
            try await write(encoded: try render(stored), sequence: Int64(stored.sequence)) { try event(stored) }
        }
    }
}

/// A Watch stream that holds no task between events: the store hands it each commit's events on
/// its call's event loop (`Store.push`), where it queues them on the call (`DetachedCall`), so
/// that one commit reaches every stream of a loop in one hop, and an idle stream costs its call
/// and this object only. What is not in the commits it is handed (the events before it
/// started, a gap left by commits announced out of order) it reads from the log in a short task.
///
/// Like every Watch writer (`WatchDelivery`), it ends a stream whose client leaves more than
/// the call's queue limit unread with READER_TOO_SLOW and the last sequence delivered.
///
/// State is touched only on the call's event loop.
final class ParkedWatch: @unchecked Sendable {
    private let call: DetachedCall
    private let store: Store
    private let stream: String
    private let logger: Logger?
    private let render: @Sendable (StoredEvent) throws -> ByteBuffer

    /// The newest sequence taken: queued, or waiting in `backlog`.
    private var horizon: UInt64
    /// Events taken and not queued yet, ascending (see `drain`).
    private var backlog: [StoredEvent] = []
    /// A log read is under way: announced events wait for it.
    private var reading = true
    /// The log holds events after `horizon` that were not taken: read it once `backlog` is empty.
    private var needsRead = false
    /// The newest sequence announced while the log had to be read.
    private var announced: UInt64 = 0
    private var drainScheduled = false
    private var sequences = DeliveredSequences()
    private var ended = false
    private var push: EventPush?

    /// Events read from the log at a time.
    static let batch = 100

    private init(
        _ call: DetachedCall, store: Store, stream: String, after sequence: UInt64, logger: Logger?,
        render: @escaping @Sendable (StoredEvent) throws -> ByteBuffer
    ) {
        self.call = call
        self.store = store
        self.stream = stream
        self.horizon = sequence
        self.logger = logger
        self.render = render
    }

    /// Starts following `stream` after `sequence` on `call`: subscribes, runs `sendHeaders`,
    /// reads the log once in the caller's task and hands the rest to the event loop.
    static func start(
        _ call: DetachedCall, store: Store, stream: String, after sequence: UInt64, logger: Logger?,
        render: @escaping @Sendable (StoredEvent) throws -> ByteBuffer,
        sendHeaders: () async throws -> Void
    ) async throws {
        let watch = ParkedWatch(call, store: store, stream: stream, after: sequence, logger: logger, render: render)
        // Subscribed before the log is read: nothing commits unseen in between.
        let push = store.push(stream, to: EventPush.Target(
            eventLoop: call.eventLoop,
            deliver: { events in watch.announce(events) },
            closed: { watch.end(RPCError(.unavailable, "the server is shutting down: watch again after the last sequence seen")) }))
        guard let push else { throw RPCError(.unavailable, "the server is shutting down") }
        call.eventLoop.execute {
            if watch.ended { push.cancel() } else { watch.push = push }
        }
        // Whatever ends the call releases the subscription (and with it this object).
        call.onEnd { _ in watch.ended = true; watch.push = nil }
        try await sendHeaders()
        watch.read(after: sequence)
    }

    /// Events one commit appended (on the event loop).
    private func announce(_ events: [StoredEvent]) {
        guard !ended, let last = events.last?.sequence, last > horizon else { return }
        announced = max(announced, last)
        guard !reading, !needsRead else { return }
        for event in events where event.sequence > horizon {
            guard event.sequence == horizon + 1 else {
                // Announced ahead of an earlier commit: the log has what lies between.
                needsRead = true
                break
            }
            backlog.append(event)
            horizon = event.sequence
        }
        drain()
    }

    /// Reads a batch of the log after `horizon` (off the event loop) and hands it to the loop.
    private func read(after horizon: UInt64) {
        let batch = Result { try store.events(in: stream, after: horizon, limit: Self.batch) }
        call.eventLoop.execute { self.logRead(batch) }
    }

    private func logRead(_ batch: Result<[StoredEvent], any Error>) {
        guard !ended else { return }
        reading = false
        switch batch {
        case .failure(let error):
            end(failing: error)
        case .success(let events):
            for event in events where event.sequence > horizon {
                backlog.append(event)
                horizon = event.sequence
            }
            needsRead = events.count == Self.batch || announced > horizon
            drain()
        }
    }

    /// Queues the backlog. A message is queued only when the call's earlier ones have been
    /// offered to the client (the connection flushes once per loop tick): otherwise it waits one
    /// tick, once. The queue limit is for what a client leaves unread, not for a batch read from
    /// the log in one go. An empty backlog reads the log when it holds more.
    private func drain(afterFlush: Bool = false) {
        var afterFlush = afterFlush
        while !ended, !backlog.isEmpty {
            if call.hasQueuedMessages, !afterFlush {
                guard !drainScheduled else { return }
                drainScheduled = true
                call.eventLoop.execute {
                    self.drainScheduled = false
                    self.drain(afterFlush: true)
                }
                return
            }
            afterFlush = false
            guard queue(backlog.removeFirst()) else { return }
        }
        if !ended, needsRead, !reading {
            reading = true
            needsRead = false
            let horizon = horizon
            Task { self.read(after: horizon) }
        }
    }

    /// Queues one event; false when the stream ended.
    private func queue(_ event: StoredEvent) -> Bool {
        let message: ByteBuffer
        do {
            message = try render(event)
        } catch {
            end(failing: error)
            return false
        }
        sequences.queue(Int64(event.sequence))
        switch call.queue(message) {
        case .queued(let delivered):
            sequences.sent(delivered)
            return true
        case .overflow(let delivered):
            sequences.sent(delivered)
            end(WatchDelivery.tooSlow(sequences.delivered))
            return false
        case .ended:
            ended = true
            return false
        }
    }

    /// Ends the stream with the status `error` maps to (as a handler's error would).
    private func end(failing error: any Error) {
        end((rpcError(from: error, logger: logger) as? RPCError) ?? RPCError(.internalError, "internal error"))
    }

    private func end(_ status: RPCError) {
        guard !ended else { return }
        ended = true
        call.finish(status)
    }
}
