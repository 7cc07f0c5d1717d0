import NIOCore
import Synchronization

/// The request messages of a client- or bidirectional-streaming call on their way from the event
/// loop, which adds them as they arrive, to the handler's task, which takes them through its `RPCReader`.
///
/// Backpressure: the call holds back (does not report to the transport as consumed) the bytes of the
/// messages waiting here, so a handler that reads slowly keeps the stream's receive window shut and the
/// client waits, instead of messages piling up. Takes are reported back to the event loop in batches:
/// the first take after a report calls `onTaken` once, and the event loop then collects every take
/// since with `takeTakenBytes()`.
final class RequestMessages: Sendable {
    /// What a reader gets.
    private enum Taken {
        case message(ByteBuffer, report: Bool)
        case finished
        case failed(any Error)
    }

    private struct State {
        var messages = CircularBuffer<(message: ByteBuffer, size: Int)>(initialCapacity: 4)
        var end: Result<Void, any Error>?
        /// The reader waiting for a message (one at a time).
        var waiter: CheckedContinuation<Taken, Never>?
        /// Wire bytes of the messages taken from the buffer since the last `takeTakenBytes()`.
        var takenBytes = 0
        var reportScheduled = false
    }

    private let state = Mutex(State())
    /// Called, from the reader's task, when a take needs reporting; it must hop to the event loop.
    private let onTaken: @Sendable () -> Void

    init(onTaken: @escaping @Sendable () -> Void) {
        self.onTaken = onTaken
    }

    /// A reader over these messages.
    func reader() -> RPCReader<ByteBuffer> {
        RPCReader { RPCReader.AsyncIterator { try await self.next() } }
    }

    // MARK: Event loop side

    /// Adds one message of `size` bytes on the wire. Returns true when the message waits in the
    /// buffer (its bytes stay held until taken), false when a waiting reader took it at once or the
    /// messages have ended.
    func append(_ message: ByteBuffer, size: Int) -> Bool {
        enum Outcome {
            case buffered, dropped
            case handedOver(CheckedContinuation<Taken, Never>)
        }
        let outcome: Outcome = state.withLock { state in
            guard state.end == nil else { return .dropped }
            if let waiter = state.waiter {
                state.waiter = nil
                return .handedOver(waiter)
            }
            state.messages.append((message, size))
            return .buffered
        }
        switch outcome {
        case .buffered:
            return true
        case .dropped:
            return false
        case .handedOver(let waiter):
            waiter.resume(returning: .message(message, report: false))
            return false
        }
    }

    /// The client half-closed: the reader gets the buffered messages, then the end.
    func finish() {
        end(.success(()))
    }

    /// The call failed: the buffered messages are dropped and the reader throws `error`.
    func fail(_ error: any Error) {
        end(.failure(error))
    }

    private func end(_ result: Result<Void, any Error>) {
        let waiter: CheckedContinuation<Taken, Never>? = state.withLock { state in
            guard state.end == nil else { return nil }
            state.end = result
            if case .failure = result { state.messages.removeAll() }
            defer { state.waiter = nil }
            return state.waiter
        }
        switch result {
        case .success: waiter?.resume(returning: .finished)
        case .failure(let error): waiter?.resume(returning: .failed(error))
        }
    }

    /// The wire bytes of the messages taken since the last call.
    func takeTakenBytes() -> Int {
        state.withLock { state in
            defer {
                state.takenBytes = 0
                state.reportScheduled = false
            }
            return state.takenBytes
        }
    }

    // MARK: Reader side

    /// The next message; nil once the client half-closed and every message was taken. Throws the
    /// call's error when it failed, and CancellationError when the task is cancelled while waiting.
    func next() async throws -> ByteBuffer? {
        if let taken = state.withLock({ Self.take(&$0) }) {
            return try deliver(taken)
        }
        let taken = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Taken, Never>) in
                let now: Taken? = state.withLock { state in
                    if let taken = Self.take(&state) { return taken }
                    if Task.isCancelled { return .failed(CancellationError()) }
                    if state.waiter != nil {
                        return .failed(RPCError(.internalError, "the request messages were read by two tasks at once"))
                    }
                    state.waiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: .failed(CancellationError()))
        }
        return try deliver(taken)
    }

    private static func take(_ state: inout State) -> Taken? {
        if let first = state.messages.popFirst() {
            state.takenBytes += first.size
            let report = !state.reportScheduled
            state.reportScheduled = true
            return .message(first.message, report: report)
        }
        switch state.end {
        case .success: return .finished
        case .failure(let error): return .failed(error)
        case nil: return nil
        }
    }

    private func deliver(_ taken: Taken) throws -> ByteBuffer? {
        switch taken {
        case .message(let message, let report):
            if report { onTaken() }
            return message
        case .finished:
            return nil
        case .failed(let error):
            throw error
        }
    }
}
