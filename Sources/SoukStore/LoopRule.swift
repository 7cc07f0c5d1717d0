import NIOPosix

/// The rule that no event loop waits for the store: a read may miss the block cache and wait for
/// the disk, a write waits for locks and fsync, and while an event loop's thread waits, every
/// stream of every connection on that loop waits too. Handlers run on `HandlerThreads` (SoukGRPC)
/// and transactions on the store's writer threads.
///
/// Debug builds (and so the tests) check it on every store call, as SwiftNIO checks its own
/// loop rules; release builds do not (`assert`).
public enum LoopRule {
    /// Whether the calling thread may wait for the disk or a lock: false on the thread of a
    /// SwiftNIO event loop.
    public static var currentThreadMayBlock: Bool {
        MultiThreadedEventLoopGroup.currentEventLoop == nil
    }

    /// Stops a debug build when called on an event loop's thread.
    @inline(__always)
    static func assertMayBlock(_ function: StaticString = #function) {
        assert(currentThreadMayBlock, "Store.\(function) called on an event loop's thread: run handlers on HandlerThreads (LoopRule)")
    }
}
