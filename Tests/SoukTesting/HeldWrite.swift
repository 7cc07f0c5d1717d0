import Dispatch
import SoukStore

/// Runs `hold` in a write transaction of `store` and keeps that transaction open (its writer
/// thread and its locks held) while `meanwhile` runs; then lets it commit, and returns both
/// results. The wait for `hold` is awaited, never a blocked thread of Swift's shared pool: two
/// tests that each blocked one left none, on two cores, to start the writes they waited for.
public func whileWriteIsOpen<Held: Sendable, Result>(
    _ store: Store,
    hold: @escaping @Sendable (Transaction) throws -> Held,
    meanwhile: () async throws -> Result
) async throws -> (held: Held, result: Result) {
    let (opened, opening) = AsyncStream<Void>.makeStream()
    let release = DispatchSemaphore(value: 0)
    async let held = store.write { transaction in
        // A `hold` that throws ends the stream, so that the wait below ends too.
        defer { opening.finish() }
        let value = try hold(transaction)
        opening.yield()
        _ = release.wait(timeout: .now() + .seconds(10))
        return value
    }
    var signals = opened.makeAsyncIterator()
    await signals.next()
    let result: Result
    do {
        result = try await meanwhile()
    } catch {
        release.signal()
        _ = try? await held
        throw error
    }
    release.signal()
    return (try await held, result)
}
