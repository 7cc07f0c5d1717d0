import NIOCore

/// A streaming call its handler has handed over (`RPCWriter.detach()`) and returned from: the
/// call stays open without a task, and its holder queues response messages and ends it from the
/// call's event loop. This is how a stream that mostly waits (a Watch RPC between events) costs
/// no task, and how one commit reaches thousands of streams in one hop per event loop.
///
/// Every method but `onEnd` must be called on `eventLoop`.
public struct DetachedCall: Sendable {
    let handler: GRPCStreamHandler
    /// Bytes of messages a client that does not read may leave queued (see `queue(_:)`);
    /// nil: no bound.
    public var queueLimit: Int?

    /// What became of a queued message.
    public enum Queued: Sendable {
        /// Queued; `delivered` of the call's messages have gone out so far.
        case queued(delivered: Int)
        /// The client does not read: earlier messages wait and this one would take the queue
        /// over `queueLimit`. The messages no byte of which went out are dropped, this one is
        /// not queued, and the call must end now (`finish`): `delivered` of its messages reach
        /// the client.
        case overflow(delivered: Int)
        /// The call has ended; nothing goes out.
        case ended
    }

    /// The loop the call's stream lives on.
    public var eventLoop: any EventLoop { handler.eventLoop }

    /// Queues one response message encoded already (best made by `RPCWriter.encode`, whose
    /// buffer framing leaves as it is), without waiting for the client.
    public func queue(_ message: ByteBuffer) -> Queued {
        handler.queueDetached(message, limit: queueLimit)
    }

    /// Whether messages queued earlier wait in the call's stream, not yet handed to the
    /// connection (it hands them over once per loop tick, as far as the client's window allows).
    public var hasQueuedMessages: Bool {
        handler.queuedMessageCount > 0
    }

    /// Ends the call with `status` (nil: OK) after the messages queued so far.
    public func finish(_ status: RPCError?) {
        handler.finishDetached(status)
    }

    /// Runs `body` on the event loop once the call has ended, for whatever reason (the holder
    /// finished it, the client went away, the deadline passed, `ServerContext.end`), with the
    /// status it ended with (nil: OK). From any thread; at once (on the loop) when it has ended.
    public func onEnd(_ body: @escaping @Sendable (RPCError?) -> Void) {
        handler.onDetachedEnd(body)
    }
}
