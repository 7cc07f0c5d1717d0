import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Waits for SIGTERM or SIGINT, the signals that start a graceful shutdown.
enum ShutdownSignal {
    /// Returns the name of the first of the two signals to arrive.
    static func wait() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let queue = DispatchQueue(label: "souk.signals")
            let once = Once()
            var sources: [any DispatchSourceSignal] = []
            for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
                // The default action would end the process at once; the source delivers it instead.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    guard once.claim() else { return }
                    sources.forEach { $0.cancel() }
                    continuation.resume(returning: name)
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}

/// True exactly once; used on one serial queue.
private final class Once: @unchecked Sendable {
    private var claimed = false

    func claim() -> Bool {
        defer { claimed = true }
        return !claimed
    }
}
