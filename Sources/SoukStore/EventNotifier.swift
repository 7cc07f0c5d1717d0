import Synchronization

/// Wakes followers of an event stream when a commit appended to it, and hands them the
/// committed events from memory.
///
/// Each subscription is an `AsyncStream` of the stream's newest sequence number that keeps only
/// the latest value, so a slow follower is woken once for many commits.
///
/// While a stream has followers, the last `tailCapacity` events committed to it are kept here
/// (its tail, filled as each commit is announced): a follower woken for them takes them from the
/// tail instead of reading the log, so one commit watched by thousands of followers is read from
/// RocksDB by none of them. The log stays the source of truth: a follower whose next event is not
/// in the tail (it resumed from further back, fell behind by more than the tail, or was woken for
/// a commit announced before an earlier one) reads the log, as before. A stream's tail goes
/// with its last follower.
final class EventNotifier: Sendable {
    /// Events kept per followed stream.
    static let tailCapacity = 8

    private struct Followed {
        var subscribers: [UInt64: AsyncStream<UInt64>.Continuation] = [:]
        /// The newest committed events, ascending by sequence (commits may be announced out of
        /// order; an event is placed by its sequence).
        var tail: [StoredEvent] = []

        mutating func keep(_ event: StoredEvent) {
            var index = tail.endIndex
            while index > tail.startIndex, tail[index - 1].sequence > event.sequence { index -= 1 }
            if index > tail.startIndex, tail[index - 1].sequence == event.sequence { return }
            tail.insert(event, at: index)
            if tail.count > EventNotifier.tailCapacity { tail.removeFirst(tail.count - EventNotifier.tailCapacity) }
        }
    }

    private struct State {
        var nextID: UInt64 = 0
        var streams: [String: Followed] = [:]
        var isFinished = false
    }

    private let state = Mutex(State())

    func subscribe(_ stream: String) -> AsyncStream<UInt64> {
        let (updates, continuation) = AsyncStream.makeStream(of: UInt64.self, bufferingPolicy: .bufferingNewest(1))
        let id: UInt64? = state.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.streams[stream, default: Followed()].subscribers[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return updates
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.streams[stream]?.subscribers[id] = nil
                if state.streams[stream]?.subscribers.isEmpty == true { state.streams[stream] = nil }
            }
        }
        return updates
    }

    /// Announces committed events (in the order their transaction appended them): each followed
    /// stream keeps them in its tail, then its followers are woken with its newest sequence.
    func notify(_ events: [StoredEvent]) {
        let wake: [(AsyncStream<UInt64>.Continuation, UInt64)] = state.withLock { state in
            var newest: [String: UInt64] = [:]
            for event in events where state.streams[event.stream] != nil {
                state.streams[event.stream]!.keep(event)
                newest[event.stream] = max(newest[event.stream] ?? 0, event.sequence)
            }
            var wake: [(AsyncStream<UInt64>.Continuation, UInt64)] = []
            for (stream, sequence) in newest {
                guard let subscribers = state.streams[stream]?.subscribers else { continue }
                wake.reserveCapacity(wake.count + subscribers.count)
                for continuation in subscribers.values { wake.append((continuation, sequence)) }
            }
            return wake
        }
        for (continuation, sequence) in wake { continuation.yield(sequence) }
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
        let all = state.withLock { state -> [AsyncStream<UInt64>.Continuation] in
            state.isFinished = true
            defer { state.streams = [:] }
            return state.streams.values.flatMap(\.subscribers.values)
        }
        for continuation in all { continuation.finish() }
    }
}
