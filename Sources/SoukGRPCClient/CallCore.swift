import Dispatch
import NIOCore
import SoukGRPC
import SoukHTTP2
import Synchronization

/// How a call ended.
enum CallResult: Sendable {
    case ok(trailers: Metadata)
    case failed(RPCError)
}

/// One call: its HTTP/2 stream on the connection's event loop, and what it received, shared with
/// the caller's task.
///
/// The `loop` part (stream, request writes, deframing, the deadline timer) is touched only on the
/// event loop. What the caller reads (response headers, messages, the end) sits behind `shared`;
/// the event loop appends, the caller takes, and whoever must wait parks one continuation there.
/// So a call costs the caller's task and a few hops onto the event loop, no task of its own.
final class CallCore: HTTP2ClientStreamDelegate, @unchecked Sendable {
    /// Received bytes buffered for a caller that does not read before the stream's window stays
    /// shut (the server is held back by flow control rather than filling memory).
    static let bufferLimit = 1 << 20

    let eventLoop: any EventLoop
    let pool: ConnectionPool
    let path: String
    let requestHeaders: [HTTP2Header]
    let waitForReady: Bool
    let deadline: NIODeadline?
    let timeout: Duration?
    let maxReceiveMessageSize: Int
    /// Compresses request messages (on the caller's side, one message at a time).
    let compressor: GzipCompressor?

    // MARK: Event-loop state

    private enum Phase {
        /// Not on a stream yet: waiting for the pool (a connection, or a free stream).
        case waiting
        case open
        case finished
    }
    private var phase = Phase.waiting
    private var stream: HTTP2ClientStream?
    /// The single request of a unary or server-streaming call, sent with END_STREAM.
    private var initialMessage: ByteBuffer?
    /// Writes made before the stream opened.
    private var queuedWrites: [(data: ByteBuffer, promise: EventLoopPromise<Void>)] = []
    private var sendEnded = false
    private var deframer: GRPCMessageDeframer
    private var decompressor: GzipDecompressor?
    private var responseGzip = false
    private var deadlineTimer: Scheduled<Void>?
    /// Received bytes not yet given back to the stream's window (the caller's buffer is full).
    private var withheldBytes = 0
    /// Streams refused by GOAWAY are retried on another connection once, when nothing was sent but
    /// the initial message.
    private var refusedRetries = 1

    // MARK: Shared with the caller

    struct Shared {
        var headers: Metadata?
        var messages: [ByteBuffer] = []
        var nextMessage = 0
        var bufferedBytes = 0
        /// The event loop withholds window updates until the caller drains its buffer.
        var windowWithheld = false
        var result: CallResult?
        var headersWaiter: UnsafeContinuation<Metadata, any Error>?
        var messageWaiter: UnsafeContinuation<ByteBuffer?, any Error>?
        var endWaiter: UnsafeContinuation<Void, Never>?
        /// More tasks waiting for the end (say `trailers()` beside a failed `send`); rare, so apart.
        var moreEndWaiters: [UnsafeContinuation<Void, Never>] = []
        /// A blocked thread's wake-up at the end (`startAndSignalAtEnd`).
        var endSignal: DispatchSemaphore?
    }
    let shared = Mutex(Shared())

    init(
        pool: ConnectionPool, path: String, requestHeaders: [HTTP2Header], initialMessage: ByteBuffer?, waitForReady: Bool,
        timeout: Duration?, maxReceiveMessageSize: Int, compressor: GzipCompressor?
    ) {
        self.pool = pool
        self.eventLoop = pool.eventLoop
        self.path = path
        self.requestHeaders = requestHeaders
        self.initialMessage = initialMessage
        self.sendEnded = initialMessage != nil
        self.waitForReady = waitForReady
        self.timeout = timeout
        self.deadline = timeout.map { .now() + TimeAmount($0) }
        self.maxReceiveMessageSize = maxReceiveMessageSize
        self.compressor = compressor
        self.deframer = GRPCMessageDeframer(maxMessageSize: maxReceiveMessageSize)
    }

    // MARK: Starting, on the event loop

    var isFinished: Bool { phase == .finished }

    /// Starts the deadline clock; the pool calls it once, when it first sees the call.
    func armDeadline() {
        guard let deadline, deadlineTimer == nil, phase != .finished else { return }
        deadlineTimer = eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) { [self] in
            deadlineTimer = nil
            let waited = timeout.map { " (\($0))" } ?? ""
            cancel(with: RPCError(.deadlineExceeded, "deadline exceeded\(waited) calling \(path)"))
        }
    }

    /// Opens the call's stream on `connection` and sends what waits. A failure (the connection
    /// just went away) ends the call UNAVAILABLE.
    func open(on connection: HTTP2ClientConnection) {
        guard phase == .waiting else { return }
        let stream: HTTP2ClientStream
        do {
            stream = try connection.openStream(headers: requestHeaders, endStream: false, delegate: self)
        } catch {
            finish(.failed(RPCError(.unavailable, "cannot start \(path): \(error)")))
            return
        }
        self.stream = stream
        phase = .open
        if let initialMessage {
            // Kept (a reference, not a copy) until the response starts, for a retry after REFUSED_STREAM.
            stream.sendData(initialMessage, endStream: true, promise: nil)
            return
        }
        let writes = queuedWrites
        queuedWrites = []
        for write in writes {
            stream.sendData(write.data, endStream: false, promise: write.promise)
        }
        if sendEnded { stream.finish() }
    }

    // MARK: Requests, from the caller

    /// Queues one framed message; `promise` completes once it is taken into DATA frames (or
    /// fails when the call has ended first).
    func write(_ framed: ByteBuffer, promise: EventLoopPromise<Void>) {
        eventLoop.execute { [self] in
            switch phase {
            case .finished:
                promise.fail(CallEnded())
            case .waiting:
                if sendEnded { promise.fail(CallEnded()) } else { queuedWrites.append((framed, promise)) }
            case .open:
                refusedRetries = 0
                stream?.sendData(framed, endStream: false, promise: promise)
            }
        }
    }

    /// Ends the request stream (half-close) after the queued messages.
    func finishSending() {
        eventLoop.execute { [self] in
            guard !sendEnded else { return }
            sendEnded = true
            if phase == .open { stream?.finish() }
        }
    }

    /// Cancels the call from any thread (CANCELLED, RST_STREAM CANCEL).
    func cancel() {
        eventLoop.execute { [self] in
            cancel(with: RPCError(.cancelled, "the call was cancelled"))
        }
    }

    /// Ends the call here with `error` and resets its stream. On the event loop.
    func cancel(with error: RPCError) {
        guard phase != .finished else { return }
        stream?.reset(errorCode: 8)
        finish(.failed(error))
    }

    // MARK: HTTP2ClientStreamDelegate

    func receiveResponseHeaders(_ headers: [HTTP2Header], endStream: Bool) {
        guard phase == .open else { return }
        initialMessage = nil
        refusedRetries = 0
        var httpStatus = ""
        var contentType = ""
        var encoding = ""
        for header in headers {
            switch header.name {
            case ":status": httpStatus = header.value
            case "content-type": contentType = header.value
            case "grpc-encoding": encoding = header.value
            default: break
            }
        }
        guard httpStatus == "200" else {
            stream?.reset(errorCode: 8)
            return finish(.failed(ClientStatus.status(httpStatus: httpStatus)))
        }
        guard contentType.hasPrefix("application/grpc") else {
            stream?.reset(errorCode: 8)
            return finish(.failed(RPCError(.unknown, "the response is not gRPC (content-type \"\(contentType)\")")))
        }
        let metadata = ClientStatus.metadata(headers)
        if endStream {
            // Trailers-Only: the status and all metadata in this one block.
            return finish(result(from: headers, metadata: metadata))
        }
        switch encoding {
        case "", "identity": break
        case "gzip": responseGzip = true
        default:
            stream?.reset(errorCode: 8)
            return finish(.failed(RPCError(.internalError, "the response uses unsupported grpc-encoding \"\(encoding)\"")))
        }
        let waiter = shared.withLock { shared -> UnsafeContinuation<Metadata, any Error>? in
            shared.headers = metadata
            defer { shared.headersWaiter = nil }
            return shared.headersWaiter
        }
        waiter?.resume(returning: metadata)
    }

    func receiveData(_ data: ByteBuffer, endStream: Bool) {
        guard phase == .open else { return }
        let byteCount = data.readableBytes
        deframer.append(data)
        do {
            while let framed = try deframer.next() {
                try deliver(framed)
            }
        } catch {
            stream?.reset(errorCode: 8)
            return finish(.failed(error))
        }
        let withhold = shared.withLock { shared -> Bool in
            guard shared.bufferedBytes > Self.bufferLimit else { return false }
            shared.windowWithheld = true
            return true
        }
        if withhold {
            withheldBytes += byteCount
        } else {
            stream?.consumed(byteCount)
        }
        if endStream {
            // END_STREAM on DATA: no trailers, so no status.
            finish(.failed(RPCError(.internalError, "the response ended without trailers")))
        }
    }

    private func deliver(_ framed: GRPCFramedMessage) throws(RPCError) {
        var message = framed.payload
        if framed.compressed {
            guard responseGzip else {
                throw RPCError(.internalError, "a compressed message in a response without grpc-encoding")
            }
            if decompressor == nil { decompressor = try GzipDecompressor() }
            message = try decompressor!.decompress(message, limit: maxReceiveMessageSize)
        }
        let waiter = shared.withLock { shared -> UnsafeContinuation<ByteBuffer?, any Error>? in
            if let waiter = shared.messageWaiter {
                shared.messageWaiter = nil
                return waiter
            }
            shared.messages.append(message)
            shared.bufferedBytes += message.readableBytes
            return nil
        }
        waiter?.resume(returning: message)
    }

    func receiveTrailers(_ trailers: [HTTP2Header]) {
        guard phase == .open else { return }
        if deframer.hasPartialMessage {
            return finish(.failed(RPCError(.internalError, "the response ended in the middle of a message")))
        }
        finish(result(from: trailers, metadata: ClientStatus.metadata(trailers)))
    }

    func streamClosed(_ reason: HTTP2StreamCloseReason) {
        stream = nil
        guard phase == .open else { return }
        if case .resetByPeer(errorCode: 7) = reason, refusedRetries > 0, initialMessage != nil {
            // Refused before the server saw it (GOAWAY, or over its stream limit): try another stream.
            refusedRetries -= 1
            phase = .waiting
            pool.start(self)
            return
        }
        finish(.failed(ClientStatus.status(for: reason)))
    }

    private func result(from block: [HTTP2Header], metadata: Metadata) -> CallResult {
        if let error = ClientStatus.status(from: block, trailers: metadata) { return .failed(error) }
        return .ok(trailers: metadata)
    }

    // MARK: Ending

    /// Records the end and wakes whoever waits. Once; on the event loop.
    func finish(_ result: CallResult) {
        guard phase != .finished else { return }
        phase = .finished
        initialMessage = nil
        deadlineTimer?.cancel()
        deadlineTimer = nil
        for write in queuedWrites { write.promise.fail(CallEnded()) }
        queuedWrites = []
        let (headersWaiter, headers, messageWaiter, endWaiter, moreEndWaiters, endSignal) = shared.withLock { shared in
            shared.result = result
            if shared.headers == nil, case .ok = result {
                // Trailers-Only success: its metadata is trailing; there are no response headers.
                shared.headers = Metadata()
            }
            defer {
                shared.headersWaiter = nil
                shared.messageWaiter = nil
                shared.endWaiter = nil
                shared.moreEndWaiters = []
                shared.endSignal = nil
            }
            return (shared.headersWaiter, shared.headers, shared.messageWaiter, shared.endWaiter, shared.moreEndWaiters, shared.endSignal)
        }
        if let headersWaiter {
            if let headers {
                headersWaiter.resume(returning: headers)
            } else if case .failed(let error) = result {
                headersWaiter.resume(throwing: error)
            }
        }
        if let messageWaiter {
            switch result {
            case .ok: messageWaiter.resume(returning: nil)
            case .failed(let error): messageWaiter.resume(throwing: error)
            }
        }
        endWaiter?.resume()
        for waiter in moreEndWaiters { waiter.resume() }
        endSignal?.signal()
    }

    /// The caller drained its buffer: give the withheld bytes back to the stream's window.
    private func releaseWithheldBytes() {
        eventLoop.execute { [self] in
            guard withheldBytes > 0 else { return }
            stream?.consumed(withheldBytes)
            withheldBytes = 0
        }
    }

    // MARK: For the caller

    /// The response headers, once they arrived (empty for a Trailers-Only answer); throws the
    /// call's error when it failed before any.
    func responseHeaders() async throws -> Metadata {
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Metadata, any Error>) in
            let ready = shared.withLock { shared -> Result<Metadata, any Error>? in
                if let headers = shared.headers { return .success(headers) }
                if case .failed(let error) = shared.result { return .failure(error) }
                shared.headersWaiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// The next response message, nil at a successful end; throws the call's error.
    func nextMessage() async throws -> ByteBuffer? {
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<ByteBuffer?, any Error>) in
            var release = false
            let ready = shared.withLock { shared -> Result<ByteBuffer?, any Error>? in
                if shared.nextMessage < shared.messages.count {
                    let message = shared.messages[shared.nextMessage]
                    shared.nextMessage += 1
                    if shared.nextMessage == shared.messages.count {
                        shared.messages.removeAll(keepingCapacity: true)
                        shared.nextMessage = 0
                    }
                    shared.bufferedBytes -= message.readableBytes
                    if shared.windowWithheld, shared.bufferedBytes <= Self.bufferLimit / 2 {
                        shared.windowWithheld = false
                        release = true
                    }
                    return .success(message)
                }
                switch shared.result {
                case .ok: return .success(nil)
                case .failed(let error): return .failure(error)
                case nil:
                    shared.messageWaiter = continuation
                    return nil
                }
            }
            if release { releaseWithheldBytes() }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Waits for the end of the call.
    func result() async -> CallResult {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let ended = shared.withLock { shared -> Bool in
                if shared.result != nil { return true }
                if shared.endWaiter == nil {
                    shared.endWaiter = continuation
                } else {
                    shared.moreEndWaiters.append(continuation)
                }
                return false
            }
            if ended { continuation.resume() }
        }
        return shared.withLock { $0.result! }
    }

    /// Starts the call and waits for its end (unary calls), parking the continuation first so the
    /// end can never be missed.
    func startAndWaitForEnd() async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            shared.withLock { $0.endWaiter = continuation }
            eventLoop.execute { [self] in pool.start(self) }
        }
    }

    /// Starts the call and signals `done` at its end, from the event loop: a thread outside Swift
    /// concurrency waits for a unary call without a task to resume.
    func startAndSignalAtEnd(_ done: DispatchSemaphore) {
        shared.withLock { $0.endSignal = done }
        eventLoop.execute { [self] in pool.start(self) }
    }

    /// Starts the call on the event loop.
    func start() {
        eventLoop.execute { [self] in pool.start(self) }
    }

    /// The single response of a unary or client-streaming call that has ended.
    func singleResponse() throws -> ClientResponse<ByteBuffer> {
        try shared.withLock { shared in
            switch shared.result {
            case .failed(let error)?:
                throw error
            case .ok(let trailers)?:
                let count = shared.messages.count - shared.nextMessage
                guard count == 1 else {
                    throw RPCError(.internalError, "the server sent \(count) response messages where one was expected")
                }
                let headers = shared.headers ?? Metadata()
                return ClientResponse(message: shared.messages[shared.nextMessage], headers: headers, trailers: trailers)
            case nil:
                throw RPCError(.internalError, "the call has not ended")
            }
        }
    }
}

/// A write made after the call ended; the caller then reports the call's own status.
struct CallEnded: Error {}
