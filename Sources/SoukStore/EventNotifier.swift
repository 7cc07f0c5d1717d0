import NIOCore
import Synchronization

/// Wakes followers of an event stream when a commit appended to it, and hands them the
/// committed events from memory.
///
/// Each subscription (`EventSubscription`) hands its follower the stream's newest sequence
/// number and keeps only the latest, so a slow follower is woken once for many commits. It is a
/// small object the notifier resumes directly (no `AsyncStream` per follower: an idle stream
/// holds one continuation).
///
/// While a stream has followers, the last `tailCapacity` events committed to it are kept here
/// (its tail, filled as each commit is announced): a follower woken for them takes them from the
/// tail instead of reading the log, so one commit watched by thousands of followers is read from
/// RocksDB by none of them. The log stays the source of truth: a follower whose next event is not
/// in the tail (it resumed from further back, fell behind by more than the tail, or was woken for
/// a commit announced before an earlier one) reads the log, as before. A stream's tail goes
/// with its last follower.
///
/// A follower without a task (`EventPush`) is handed the committed events themselves, on its
/// event loop: the followers of one commit on one loop all get them in one hop to that loop.
final class EventNotifier: Sendable {
    /// Events kept per followed stream.
    static let tailCapacity = 8

    private struct Followed {
        var subscribers: [UInt64: EventInbox] = [:]
        var pushes: [UInt64: EventPush.Target] = [:]
        var isEmpty: Bool { subscribers.isEmpty && pushes.isEmpty }
        /// The newest committed events, ascending by sequence (commits may be announced out of
        /// order; an event is placed by its sequence).
        var tail: [StoredEvent] = []

        /// Keeps `event` in the tail; false when the tail holds it already (announced twice: by
        /// this store's commit and by the watch of a replicated engine), so it is not handed out again.
        mutating func keep(_ event: StoredEvent) -> Bool {
            var index = tail.endIndex
            while index > tail.startIndex, tail[index - 1].sequence > event.sequence { index -= 1 }
            if index > tail.startIndex, tail[index - 1].sequence == event.sequence { return false }
            // Older than a full tail: every follower had the newer ones, and read the log for the gap.
            if index == tail.startIndex, tail.count >= EventNotifier.tailCapacity { return false }
            tail.insert(event, at: index)
            if tail.count > EventNotifier.tailCapacity { tail.removeFirst(tail.count - EventNotifier.tailCapacity) }
            return true
        }
    }

    private struct State {
        var nextID: UInt64 = 0
        var streams: [String: Followed] = [:]
        var isFinished = false
    }

    private let state = Mutex(State())

    /// A subscription to `stream`'s commits; it unsubscribes when released.
    func subscribe(_ stream: String) -> EventSubscription {
        let subscription: EventSubscription? = state.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.nextID
            state.nextID += 1
            let subscription = EventSubscription(notifier: self, stream: stream, id: id)
            state.streams[stream, default: Followed()].subscribers[id] = subscription.inbox
            return subscription
        }
        guard let subscription else {
            let ended = EventSubscription(notifier: nil, stream: stream, id: 0)
            ended.inbox.finish()
            return ended
        }
        return subscription
    }

    /// Hands `stream`'s committed events to `target` on its event loop until the push is
    /// cancelled. Nil once the store has closed.
    func push(_ stream: String, to target: EventPush.Target) -> EventPush? {
        state.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.streams[stream, default: Followed()].pushes[id] = target
            return EventPush(notifier: self, stream: stream, id: id)
        }
    }

    fileprivate func unsubscribe(_ stream: String, _ id: UInt64) {
        state.withLock { state in
            state.streams[stream]?.subscribers[id] = nil
            state.streams[stream]?.pushes[id] = nil
            if state.streams[stream]?.isEmpty == true { state.streams[stream] = nil }
        }
    }

    /// Announces committed events (in the order their transaction appended them): each followed
    /// stream keeps them in its tail, then its followers are woken with its newest sequence.
    func notify(_ events: [StoredEvent]) {
        let (wake, hops) = state.withLock { state -> ([(EventInbox, UInt64)], [ObjectIdentifier: LoopHop]) in
            var appended: [String: [StoredEvent]] = [:]
            for event in events where state.streams[event.stream] != nil {
                guard state.streams[event.stream]!.keep(event) else { continue }
                appended[event.stream, default: []].append(event)
            }
            var wake: [(EventInbox, UInt64)] = []
            var hops: [ObjectIdentifier: LoopHop] = [:]
            for (stream, var appended) in appended {
                guard let followed = state.streams[stream] else { continue }
                appended.sort { $0.sequence < $1.sequence }
                let newest = appended[appended.endIndex - 1].sequence
                wake.reserveCapacity(wake.count + followed.subscribers.count)
                for subscription in followed.subscribers.values { wake.append((subscription, newest)) }
                for target in followed.pushes.values {
                    hops[ObjectIdentifier(target.eventLoop), default: LoopHop(target.eventLoop)].deliveries.append((target.deliver, appended))
                }
            }
            return (wake, hops)
        }
        for (subscription, sequence) in wake { subscription.yield(sequence) }
        for hop in hops.values {
            let deliveries = hop.deliveries
            hop.eventLoop.execute {
                for (deliver, events) in deliveries { deliver(events) }
            }
        }
    }

    /// The pushes of one commit to the followers on one event loop.
    private struct LoopHop {
        let eventLoop: any EventLoop
        var deliveries: [(@Sendable ([StoredEvent]) -> Void, [StoredEvent])] = []
        init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }
    }

    /// The events of `stream` after `sequence` up to `through`, when the tail holds every one of
    /// them; nil otherwise (read the log).
    func tail(of stream: String, after sequence: UInt64, through last: UInt64) -> [StoredEvent]? {
        guard last > sequence else { return [] }
        return state.withLock { state -> [StoredEvent]? in
            guard let tail = state.streams[stream]?.tail,
                  let start = tail.firstIndex(where: { $0.sequence == sequence + 1 })
            else { return nil }
            let count = Int(last - sequence)
            guard tail.endIndex - start >= count, tail[start + count - 1].sequence == last else { return nil }
            return Array(tail[start..<(start + count)])
        }
    }

    /// Ends every subscription (the store is closing).
    func finishAll() {
        let (all, pushes) = state.withLock { state -> ([EventInbox], [EventPush.Target]) in
            state.isFinished = true
            defer { state.streams = [:] }
            return (state.streams.values.flatMap(\.subscribers.values), state.streams.values.flatMap(\.pushes.values))
        }
        for subscription in all { subscription.finish() }
        for push in pushes { push.eventLoop.execute { push.closed() } }
    }
}

/// A follower without a task: the notifier hands it each commit's events of its stream on its
/// event loop (see `Store.push`). Cancel it (or release it) to stop.
public final class EventPush: Sendable {
    /// Where and how the events are handed over.
    public struct Target: Sendable {
        public let eventLoop: any EventLoop
        /// Takes the events one commit appended to the stream, ascending by sequence (commits
        /// may be announced out of order: a gap means read the log).
        public let deliver: @Sendable ([StoredEvent]) -> Void
        /// The store closed: no more events come.
        public let closed: @Sendable () -> Void

        public init(
            eventLoop: any EventLoop, deliver: @escaping @Sendable ([StoredEvent]) -> Void, closed: @escaping @Sendable () -> Void
        ) {
            self.eventLoop = eventLoop
            self.deliver = deliver
            self.closed = closed
        }
    }

    private let notifier: EventNotifier
    private let stream: String
    private let id: UInt64

    fileprivate init(notifier: EventNotifier, stream: String, id: UInt64) {
        self.notifier = notifier
        self.stream = stream
        self.id = id
    }

    deinit {
        cancel()
    }

    /// Stops the deliveries (one already on its way to the event loop may still arrive).
    public func cancel() {
        notifier.unsubscribe(stream, id)
    }
}

/// One follower's wake-ups (see `EventNotifier`): `next()` returns the newest sequence announced
/// since the last call (at once when one is pending), nil once the store closes or the waiting
/// task is cancelled. Released, it leaves the notifier.
public final class EventSubscription: Sendable {
    fileprivate let inbox: EventInbox
    private let notifier: EventNotifier?
    private let stream: String
    private let id: UInt64

    fileprivate init(notifier: EventNotifier?, stream: String, id: UInt64) {
        self.inbox = EventInbox()
        self.notifier = notifier
        self.stream = stream
        self.id = id
    }

    deinit {
        notifier?.unsubscribe(stream, id)
    }

    /// The newest sequence announced since the last call; waits for one. Nil: ended (the store
    /// closed or the task was cancelled), and so are all later calls.
    public func next() async -> UInt64? {
        await inbox.next()
    }
}

/// What the notifier holds of a subscription: the newest sequence not taken yet, or the
/// follower waiting for one.
final class EventInbox: Sendable {
    private struct State {
        var newest: UInt64?
        var waiter: UnsafeContinuation<UInt64?, Never>?
        var ended = false
    }

    private let state = Mutex(State())

    func yield(_ sequence: UInt64) {
        let waiter = state.withLock { state -> UnsafeContinuation<UInt64?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if !state.ended { state.newest = max(state.newest ?? 0, sequence) }
            return nil
        }
        waiter?.resume(returning: sequence)
    }

    func finish() {
        let waiter = state.withLock { state -> UnsafeContinuation<UInt64?, Never>? in
            state.ended = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    func next() async -> UInt64? {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<UInt64?, Never>) in
                let now = state.withLock { state -> UInt64?? in
                    if let newest = state.newest {
                        state.newest = nil
                        return .some(newest)
                    }
                    if state.ended { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            finish()
        }
    }
}
