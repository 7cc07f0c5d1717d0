import Synchronization

/// Wakes followers of an event stream when a commit appended to it.
///
/// Each subscription is an `AsyncStream` of the stream's newest sequence number that keeps only
/// the latest value, so a slow follower is woken once for many commits and reads what it missed
/// from the log itself.
final class EventNotifier: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var subscribers: [String: [UInt64: AsyncStream<UInt64>.Continuation]] = [:]
        var isFinished = false
    }

    private let state = Mutex(State())

    func subscribe(_ stream: String) -> AsyncStream<UInt64> {
        let (updates, continuation) = AsyncStream.makeStream(of: UInt64.self, bufferingPolicy: .bufferingNewest(1))
        let id: UInt64? = state.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[stream, default: [:]][id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return updates
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.subscribers[stream]?[id] = nil
                if state.subscribers[stream]?.isEmpty == true { state.subscribers[stream] = nil }
            }
        }
        return updates
    }

    func notify(_ streams: [String: UInt64]) {
        let wake: [(AsyncStream<UInt64>.Continuation, UInt64)] = state.withLock { state in
            streams.flatMap { stream, sequence in
                (state.subscribers[stream]?.values).map { $0.map { ($0, sequence) } } ?? []
            }
        }
        for (continuation, sequence) in wake { continuation.yield(sequence) }
    }

    /// Ends every subscription (the store is closing).
    func finishAll() {
        let all = state.withLock { state -> [AsyncStream<UInt64>.Continuation] in
            state.isFinished = true
            defer { state.subscribers = [:] }
            return state.subscribers.values.flatMap(\.values)
        }
        for continuation in all { continuation.finish() }
    }
}
