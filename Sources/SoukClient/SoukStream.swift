import SoukGRPC

/// A Watch RPC's events: a `SoukStream` that resumes after the last event it delivered when the
/// stream breaks (see the module's doc); `EVENTS_EXPIRED` ends it with `SoukError.mustReload`.
public typealias SoukWatch<Event: Sendable> = SoukStream<Event>

/// A server stream's responses as an `AsyncSequence`. The call starts when iteration does, runs
/// in a task of its own, reads one response ahead of the consumer at most (the transport's flow
/// control holds the server back beyond that), and is cancelled when iteration stops or the
/// consuming task is cancelled. Errors are `SoukError`s. Each iteration makes its own call.
public struct SoukStream<Element: Sendable>: AsyncSequence, Sendable {
    let produce: @Sendable (SoukStreamFeed<Element>) async throws -> Void

    init(_ produce: @escaping @Sendable (SoukStreamFeed<Element>) async throws -> Void) {
        self.produce = produce
    }

    public func makeAsyncIterator() -> AsyncIterator {
        let (output, outputContinuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let (demand, demandContinuation) = AsyncStream<Void>.makeStream()
        let produce = self.produce
        let task = Task {
            let feed = SoukStreamFeed<Element>(demand: demand, output: outputContinuation)
            do {
                try await produce(feed)
                outputContinuation.finish()
            } catch let error as RPCError {
                outputContinuation.finish(throwing: SoukError(error))
            } catch is CancellationError {
                outputContinuation.finish()
            } catch {
                outputContinuation.finish(throwing: error)
            }
        }
        outputContinuation.onTermination = { _ in
            task.cancel()
            demandContinuation.finish()
        }
        return AsyncIterator(output: output.makeAsyncIterator(), demand: demandContinuation)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var output: AsyncThrowingStream<Element, any Error>.AsyncIterator
        let demand: AsyncStream<Void>.Continuation

        public mutating func next() async throws -> Element? {
            // One response asked for: the producer delivers the next one.
            demand.yield(())
            return try await output.next()
        }
    }
}

/// The producing side of a `SoukStream`, used by its task only.
final class SoukStreamFeed<Element: Sendable> {
    private var demand: AsyncStream<Void>.AsyncIterator
    private let output: AsyncThrowingStream<Element, any Error>.Continuation

    init(demand: AsyncStream<Void>, output: AsyncThrowingStream<Element, any Error>.Continuation) {
        self.demand = demand.makeAsyncIterator()
        self.output = output
    }

    /// Hands `element` to the consumer once it asks for one; false when it stopped listening.
    func deliver(_ element: Element) async -> Bool {
        guard await demand.next() != nil else { return false }
        if case .terminated = output.yield(element) { return false }
        return true
    }
}
