import Logging
import NIOCore
import SoukHTTP2
import SoukTracing
import Synchronization

/// Runs one gRPC call on one HTTP/2 stream: reads the request messages, runs the method's
/// handler between the interceptors' hooks, and sends the response and the status. An async
/// handler runs in a task of its own; a synchronous unary handler runs on the event loop.
///
/// Flow control: received bytes are reported to the transport as consumed at once, except those of
/// streamed request messages the handler has not taken yet (see `RequestMessages` and `releaseWindow`).
///
/// Thread safety: the properties under "Event loop state" are touched only on `eventLoop` (the
/// transport calls the `HTTP2StreamHandler` methods there, and the call's task hops there to
/// send and to report taken request messages). The task itself reads only constants, `ending`
/// and `compressor`, both locked; it takes request messages from its `RequestMessages` (locked).
final class GRPCStreamHandler: HTTP2StreamHandler, @unchecked Sendable {
    private let core: RouterCore
    private let method: RegisteredMethod
    private let context: ServerContext
    let eventLoop: any EventLoop
    private let timeout: GRPCTimeout?
    private let requestEncoding: CompressionAlgorithm?
    private let responseEncoding: CompressionAlgorithm?

    /// What the event loop and the call's task both decide: whether the call ended on the loop
    /// before the handler handed it over (`detach`), or after.
    private struct Ending {
        /// The status the call already ended with on the event loop (deadline, client reset, a
        /// bad request message) while its task may still be running. Set before the task is
        /// cancelled; it is the call's outcome whatever the handler then does.
        var status: RPCError?
        /// The handler handed the call over to a `DetachedCall`: its end is the loop's to report.
        var detached = false
    }
    private let ending = Mutex(Ending())
    /// Created on the first compressed response message.
    private let compressor = Mutex<GzipCompressor?>(nil)

    private enum Phase {
        /// Waiting for the request of a unary or server-streaming call.
        case receiving
        /// The handler's task runs.
        case running
        /// The status is sent (or the stream closed); nothing more goes out.
        case finished
    }

    // Event loop state.
    private var stream: (any HTTP2ResponseStream)?
    private var phase = Phase.receiving
    private var deframer: GRPCMessageDeframer
    private var decompressor: GzipDecompressor?
    private var lastMessageWasCompressed = false
    private var requestEnded = false
    private var headersSent = false
    /// The request of a unary or server-streaming call, kept until the client half-closes.
    private var singleRequest: ByteBuffer?
    private var receivedMessages = 0
    /// Feeds the RPCReader of a client- or bidirectional-streaming call, until the call ends.
    private var requests: RequestMessages?
    /// Received request bytes not yet reported to the transport as consumed.
    private var unconsumedBytes = 0
    /// Wire bytes of the messages waiting in `requests` for the handler to take them.
    private var heldBytes = 0
    private var task: Task<Void, Never>?
    private var deadlineTimer: Scheduled<Void>?
    /// Response messages handed to the transport so far.
    private var messagesSent = 0
    /// A queued write went over its limit (`queueMessage`): the status goes out at once, ahead of
    /// the dropped messages.
    private var queueOverflowed = false
    /// Run when a detached call ends (`DetachedCall.onEnd`), then emptied.
    private var endObservers: [@Sendable (RPCError?) -> Void] = []
    /// The status a detached call ended with.
    private var detachedStatus: RPCError?
    /// The call holds a place of the admission control (given back by `leaveAdmission`).
    private var admitted = false

    init(core: RouterCore, stream: any HTTP2ResponseStream, head: RequestHead, call: AcceptedCall) {
        self.core = core
        self.method = call.method
        self.eventLoop = stream.eventLoop
        self.stream = stream
        self.timeout = head.timeout
        self.requestEncoding = call.requestEncoding
        self.responseEncoding = call.responseEncoding
        self.deframer = GRPCMessageDeframer(maxMessageSize: core.configuration.maxReceiveMessageSize)
        let now = ContinuousClock.now
        self.context = ServerContext(
            method: call.method.descriptor,
            requestMetadata: head.metadata,
            remoteAddress: stream.remoteAddress,
            deadline: head.timeout.map { now.advanced(by: $0.duration) },
            started: now,
            previousAttempts: head.previousAttempts
        )
        if call.method.handler.kind != .unary {
            let loop = eventLoop
            context.setEnder { [weak self] status in
                loop.execute { self?.fail(status) }
            }
        }
    }

    /// Arms the deadline and, for calls that stream requests, starts the handler at once.
    func start(endStream: Bool) {
        if let timeout {
            guard timeout.amount > 0 else {
                // Already expired: answer at once rather than racing the handler against the timer.
                if endStream { requestEnded = true }
                fail(RPCError(.deadlineExceeded, "deadline exceeded"))
                return
            }
            // NIO deadlines are 64-bit nanoseconds from boot; keep far-away deadlines in range.
            let delay = min(timeout.nanoseconds, Int64.max / 4)
            deadlineTimer = eventLoop.scheduleTask(in: .nanoseconds(delay)) { [self] in
                fail(RPCError(.deadlineExceeded, "deadline exceeded"))
            }
        }
        switch method.handler {
        case .unary, .synchronousUnary, .serverStreaming:
            if endStream { requestBodyEnded() }
        case .clientStreaming(let body):
            let reader = openRequestStream(endStream: endStream)
            startTask { [self] in
                await runWithResponse { [self] in try await body(reader, context) }
            }
        case .bidirectionalStreaming(let body):
            let reader = openRequestStream(endStream: endStream)
            let writer = makeWriter()
            startTask { [self] in
                await runWithoutResponse { [self] in try await body(reader, writer, context) }
            }
        }
    }

    // MARK: HTTP2StreamHandler

    func receiveData(_ data: ByteBuffer, endStream: Bool) {
        unconsumedBytes += data.readableBytes
        defer { releaseWindow() }
        guard phase != .finished else { return }
        if endStream { requestEnded = true }
        deframer.append(data)
        deliverMessages()
        if endStream, phase != .finished { requestBodyEnded() }
    }

    func receiveTrailers(_ trailers: [HTTP2Header]) {
        guard phase != .finished, !requestEnded else { return }
        requestBodyEnded()
    }

    func streamClosed(_ reason: HTTP2StreamCloseReason) {
        deadlineTimer?.cancel()
        deadlineTimer = nil
        stream = nil
        leaveAdmission()
        guard phase != .finished else { return }
        // The client reset the stream or the connection went away: stop the handler, send nothing.
        phase = .finished
        let status =
            reason == .connectionClosed
            ? RPCError(.cancelled, "the connection closed") : RPCError(.cancelled, "the client cancelled the call")
        let detached = ending.withLock { $0.status = status; return $0.detached }
        requests?.fail(status)
        requests = nil
        task?.cancel()
        if detached { detachedCallEnded(status) }
    }

    // MARK: Request side (event loop)

    private func openRequestStream(endStream: Bool) -> RPCReader<ByteBuffer> {
        let messages = RequestMessages { [self] in
            eventLoop.execute { self.messagesTaken() }
        }
        phase = .running
        requests = messages
        if endStream {
            requestEnded = true
            messages.finish()
        }
        return messages.reader()
    }

    /// The handler took buffered messages: their bytes may come again.
    private func messagesTaken() {
        guard let requests else { return }
        heldBytes -= requests.takeTakenBytes()
        releaseWindow()
    }

    /// Reports to the transport every received byte that no buffered message holds: bytes of
    /// unary requests, of messages the handler took, of a message still incomplete, and every byte
    /// once the call ended. Held bytes keep the stream's window shut until the handler reads.
    ///
    /// Bytes of an incomplete message are held too when they are not more than the buffered messages'
    /// size, which bounds a stream that is never read to about two windows plus one message.
    private func releaseWindow() {
        let excess = unconsumedBytes - heldBytes
        guard excess > 0 else { return }
        unconsumedBytes -= excess
        stream?.consumed(excess)
    }

    private func deliverMessages() {
        while phase != .finished {
            let payload: ByteBuffer
            let wireSize: Int
            do throws(RPCError) {
                guard let message = try deframer.next() else { return }
                wireSize = GRPCFraming.prefixLength + message.payload.readableBytes
                payload = try unpack(message)
            } catch {
                fail(error)
                return
            }
            switch method.handler {
            case .unary, .synchronousUnary, .serverStreaming:
                receivedMessages += 1
                guard receivedMessages == 1 else {
                    fail(RPCError(.internalError, "expected one request message, received more"))
                    return
                }
                singleRequest = payload
            case .clientStreaming, .bidirectionalStreaming:
                if requests?.append(payload, size: wireSize) == true {
                    heldBytes += wireSize
                }
            }
        }
    }

    /// The message bytes, decompressed when the flag says so.
    private func unpack(_ message: GRPCFramedMessage) throws(RPCError) -> ByteBuffer {
        if message.compressed || lastMessageWasCompressed {
            lastMessageWasCompressed = message.compressed
            context.requestWasCompressed = message.compressed
        }
        guard message.compressed else { return message.payload }
        guard requestEncoding == .gzip else {
            throw RPCError(.internalError, "a message has the compressed flag but the request has no grpc-encoding")
        }
        if decompressor == nil { decompressor = try GzipDecompressor() }
        return try decompressor!.decompress(message.payload, limit: core.configuration.maxReceiveMessageSize)
    }

    private func requestBodyEnded() {
        requestEnded = true
        do throws(RPCError) {
            try deframer.finish()
        } catch {
            fail(error)
            return
        }
        switch method.handler {
        case .unary(let body):
            guard let request = takeSingleRequest() else { return }
            startTask { [self] in
                await runWithResponse { [self] in try await body(request, context) }
            }
        case .synchronousUnary(let body):
            // Runs here and now, on the event loop: no task.
            guard let request = takeSingleRequest(), startInterceptors() else { return }
            do {
                finish(response: try body(request, context), error: nil)
            } catch {
                finish(response: nil, error: error)
            }
        case .serverStreaming(let body):
            guard let request = takeSingleRequest() else { return }
            let writer = makeWriter()
            startTask { [self] in
                await runWithoutResponse { [self] in try await body(request, writer, context) }
            }
        case .clientStreaming, .bidirectionalStreaming:
            // Kept until the call ends: the handler's takes are still reported.
            requests?.finish()
        }
    }

    private func takeSingleRequest() -> ByteBuffer? {
        guard phase == .receiving else { return nil }
        guard let request = singleRequest else {
            fail(RPCError(.internalError, "the request has no message"))
            return nil
        }
        singleRequest = nil
        phase = .running
        return request
    }

    /// Ends the call from the event loop with `status`: sends it, then stops the handler.
    private func fail(_ status: RPCError) {
        guard phase != .finished else { return }
        ending.withLock { $0.status = status }
        requests?.fail(status)
        requests = nil
        complete(response: nil, status: status)
        task?.cancel()
    }

    // MARK: Running the handler (the call's task)

    private func startTask(_ operation: nonisolated(nonsending) @escaping @Sendable () async -> Void) {
        if let admission = core.configuration.admission, let holds = method.handler.holdsAdmission {
            // A place first (one atomic operation when free; else wait on the loop or be refused),
            // kept while the call runs only by the shapes that hold it (`AdmissionControl`).
            if !admitted {
                guard admission.tryEnter() else {
                    return admission.wait(on: eventLoop, deadline: context.deadline, isRetry: context.previousAttempts > 0) { [self] entered in
                        guard entered else { return fail(admission.refusal()) }
                        admitted = true
                        if phase == .finished { return leaveAdmission() }
                        startTask(operation)
                    }
                }
                admitted = true
            }
            if !holds { leaveAdmission() }
        }
        switch core.configuration.handlers {
        case .eventLoop:
            if #available(macOS 26, *) {
                task = Task.immediate { await operation() }
            } else {
                task = Task { await operation() }
            }
        case .globalExecutor:
            task = Task { await operation() }
        case .threads(let threads):
            task = Task(executorPreference: threads) { await operation() }
        }
    }

    /// Runs a method that answers with one message (unary, client streaming).
    private nonisolated(nonsending) func runWithResponse(_ produce: nonisolated(nonsending) @Sendable () async throws -> ByteBuffer) async {
        guard startInterceptors() else { return }
        do {
            finish(response: try await traced(produce), error: nil)
        } catch {
            finish(response: nil, error: error)
        }
    }

    /// Runs the handler's work with the call's span as `Tracing.current` when calls are traced.
    private nonisolated(nonsending) func traced<T>(_ work: nonisolated(nonsending) () async throws -> T) async throws -> T {
        guard core.tracesCalls, let call = context[TracedCallKey.self] else { return try await work() }
        return try await Tracing.$current.withValue(call.span) { try await work() }
    }

    /// Runs a method that streams its responses through an `RPCWriter`.
    private nonisolated(nonsending) func runWithoutResponse(_ body: nonisolated(nonsending) @Sendable () async throws -> Void) async {
        guard startInterceptors() else { return }
        do {
            try await traced(body)
            if ending.withLock({ $0.detached }) {
                // The task is done; its handle would keep it allocated as long as the call.
                return onEventLoop { [self] in task = nil }
            }
            finish(response: nil, error: nil)
        } catch {
            guard ending.withLock({ $0.detached }) else { return finish(response: nil, error: error) }
            // Handed over, then failed: the loop ends the call (and reports its end).
            let status = status(for: error)
            onEventLoop { [self] in fail(status) }
        }
    }

    /// Runs the interceptors' `callStarted`; when one refuses the call, completes it and returns false.
    /// (This and `finish` are out of line so that their locals live on the thread's stack, not in
    /// the call's async frame, which the task allocator allocates for every call.)
    @inline(never)
    private func startInterceptors() -> Bool {
        do throws(RPCError) {
            try core.interceptors.start(context)
            return true
        } catch {
            completeOnEventLoop(response: nil, status: ending.withLock { $0.status } ?? error)
            return false
        }
    }

    /// Ends a call whose handler has returned (with `response` for a unary or client-streaming
    /// call) or thrown `error`: frames the response, ends the interceptors with the call's status,
    /// and completes the call.
    @inline(never)
    private func finish(response: consuming ByteBuffer?, error: (any Error)?) {
        var status = error.map { self.status(for: $0) } ?? ending.withLock { $0.status }
        var framed: ByteBuffer?
        if status == nil, let response = response.take() {
            do throws(RPCError) {
                // Consumed, not copied: framing writes the prefix in place only into a buffer nothing else holds.
                framed = try frameResponse(consume response, compress: nil)
            } catch {
                status = error
            }
        }
        core.interceptors.end(context, status: status)
        completeOnEventLoop(response: framed, status: status)
    }

    /// `complete` from the task: at once when the task runs on the event loop (a handler that never
    /// suspended), which also spares the closure a hop would allocate.
    private func completeOnEventLoop(response: ByteBuffer?, status: RPCError?) {
        if eventLoop.inEventLoop {
            complete(response: response, status: status)
        } else {
            eventLoop.execute { [self] in complete(response: response, status: status) }
        }
    }

    /// The status an error ends the call with. A call that already ended keeps its status; an
    /// error that is not an `RPCError` becomes INTERNAL with a generic message (logged, not sent).
    private func status(for error: any Error) -> RPCError {
        if let ended = ending.withLock({ $0.status }) { return ended }
        if let error = error as? RPCError { return error }
        if error is CancellationError { return RPCError(.cancelled, "the call was cancelled") }
        core.logger.error(
            "call failed", metadata: ["method": "\(context.method)", "error": "\(String(reflecting: error))"])
        return RPCError(.internalError, "internal error")
    }

    private func throwIfEnded() throws(RPCError) {
        if let ended = ending.withLock({ $0.status }) { throw ended }
    }

    private func makeWriter() -> RPCWriter<ByteBuffer> {
        RPCWriter(
            send: { [self] message, compress in try await write(message, compress: compress) },
            queue: { [self] message, compress, limit in try await queue(message, compress: compress, limit: limit) },
            headers: { [self] in try await sendHeadersNow() },
            detach: { [self] in detach() })
    }

    /// Hands the call over (`RPCWriter.detach`), unless it has ended on the loop already: the
    /// handler then finds it ended as usual. The shared lock decides which came first, so the
    /// end is reported exactly once, by the task or by the loop.
    private func detach() -> DetachedCall? {
        let detached = ending.withLock { ending -> Bool in
            guard ending.status == nil else { return false }
            ending.detached = true
            return true
        }
        guard detached else { return nil }
        let call = DetachedCall(handler: self, queueLimit: nil)
        context.detachedCall = call
        return call
    }

    /// Sends the response headers now (see `RPCWriter.sendHeaders`).
    private func sendHeadersNow() async throws {
        try throwIfEnded()
        let promise = eventLoop.makePromise(of: Void.self)
        onEventLoop { [self] in
            guard phase == .running, let stream else {
                promise.fail(ending.withLock { $0.status } ?? RPCError(.cancelled, "the call has ended"))
                return
            }
            sendHeadersIfNeeded(stream)
            promise.succeed(())
        }
        try await promise.futureResult.get()
    }

    /// Queues one response message (see `RPCWriter.write(_:queueLimit:)`); returns how many
    /// messages of the call have gone out.
    private func queue(_ message: ByteBuffer, compress: Bool?, limit: Int) async throws -> Int {
        try throwIfEnded()
        try Task.checkCancellation()
        let framed = try frameResponse(message, compress: compress)
        let promise = eventLoop.makePromise(of: Int.self)
        onEventLoop { [self] in queueMessage(framed, limit: limit, promise: promise) }
        return try await promise.futureResult.get()
    }

    /// Sends one response message; returns once the transport has taken it (flow control).
    private func write(_ message: ByteBuffer, compress: Bool?) async throws {
        try throwIfEnded()
        try Task.checkCancellation()
        let framed = try frameResponse(message, compress: compress)
        let promise = eventLoop.makePromise(of: Void.self)
        onEventLoop { [self] in sendMessage(framed, promise: promise) }
        // A call that ends (deadline, reset) must not leave its handler stuck behind flow control;
        // the transport completing the promise later is then a no-op.
        try await withTaskCancellationHandler {
            try await promise.futureResult.get()
        } onCancel: {
            promise.fail(CancellationError())
        }
    }

    /// Compresses (when chosen and the client reads gzip) and frames one response message.
    private func frameResponse(_ message: consuming ByteBuffer, compress: Bool?) throws(RPCError) -> ByteBuffer {
        if let limit = core.configuration.maxSendMessageSize, message.readableBytes > limit {
            throw RPCError(.resourceExhausted, "response message larger than max (\(message.readableBytes) vs. \(limit))")
        }
        if responseEncoding == .gzip, compress ?? context.compressResponse ?? (requestEncoding == .gzip) {
            let compressed = try compressor.withLock { (compressor: inout GzipCompressor?) throws(RPCError) -> ByteBuffer in
                if compressor == nil { compressor = try GzipCompressor() }
                return try compressor!.compress(message)
            }
            return GRPCFraming.frame(compressed, compressed: true)
        }
        return GRPCFraming.frame(consume message, compressed: false)
    }

    private func onEventLoop(_ body: @escaping @Sendable () -> Void) {
        if eventLoop.inEventLoop {
            body()
        } else {
            eventLoop.execute(body)
        }
    }

    // MARK: Response side (event loop)

    private func sendMessage(_ framed: ByteBuffer, promise: EventLoopPromise<Void>) {
        guard phase == .running, !queueOverflowed, let stream else {
            promise.fail(ending.withLock { $0.status } ?? RPCError(.cancelled, "the call has ended"))
            return
        }
        sendHeadersIfNeeded(stream)
        stream.sendData(framed, promise: promise)
        messagesSent += 1
    }

    /// Queues a message without waiting for it to go out, unless the client leaves earlier ones
    /// unread past `limit` bytes: then the unsent ones are dropped and the call is to end.
    private func queueMessage(_ framed: ByteBuffer, limit: Int, promise: EventLoopPromise<Int>) {
        switch enqueue(framed, limit: limit) {
        case .queued(let delivered): promise.succeed(delivered)
        case .overflow(let delivered): promise.fail(ResponseQueueOverflow(deliveredMessages: delivered))
        case .ended: promise.fail(ending.withLock { $0.status } ?? RPCError(.cancelled, "the call has ended"))
        }
    }

    private func enqueue(_ framed: ByteBuffer, limit: Int?) -> DetachedCall.Queued {
        guard phase == .running, !queueOverflowed, let stream else { return .ended }
        if let limit, stream.queuedWriteCount > 0, stream.queuedByteCount + framed.readableBytes > limit {
            queueOverflowed = true
            messagesSent -= stream.dropUnsentWrites()
            return .overflow(delivered: messagesSent)
        }
        sendHeadersIfNeeded(stream)
        stream.sendData(framed, promise: nil)
        messagesSent += 1
        return .queued(delivered: messagesSent - stream.queuedWriteCount)
    }

    // MARK: A detached call (event loop)

    func queueDetached(_ message: ByteBuffer, limit: Int?) -> DetachedCall.Queued {
        guard phase == .running else { return .ended }
        do throws(RPCError) {
            return enqueue(try frameResponse(message, compress: nil), limit: limit)
        } catch {
            fail(error)
            return .ended
        }
    }

    var queuedMessageCount: Int { stream?.queuedWriteCount ?? 0 }

    func finishDetached(_ status: RPCError?) {
        guard phase != .finished else { return }
        if let status { ending.withLock { $0.status = status } }
        complete(response: nil, status: status)
    }

    func onDetachedEnd(_ observer: @escaping @Sendable (RPCError?) -> Void) {
        onEventLoop { [self] in
            if phase == .finished {
                observer(detachedStatus)
            } else {
                endObservers.append(observer)
            }
        }
    }

    /// A detached call ended: what the call's task reports for other calls (the interceptors'
    /// end) is reported here, and the holder's observers learn it.
    private func detachedCallEnded(_ status: RPCError?) {
        detachedStatus = status
        core.interceptors.end(context, status: status)
        context.detachedCall = nil
        let observers = endObservers
        endObservers = []
        for observer in observers { observer(status) }
    }

    private func sendHeadersIfNeeded(_ stream: any HTTP2ResponseStream) {
        guard !headersSent else { return }
        headersSent = true
        leaveAdmission()
        let base = responseEncoding == .gzip ? ResponseHeaders.gzip : ResponseHeaders.plain
        let block = ResponseHeaders.headers(base: base, metadata: context.responseHeaders)
        reportRejected(block.rejectedKeys)
        stream.sendHeaders(block.headers, endStream: false)
    }

    /// Sends the last message (if any) and the status, then ends the stream.
    ///
    /// No RST_STREAM(NO_ERROR) follows a status sent while the client is still sending, although
    /// the spec's "early server closure" suggests one: grpc C-core clients then report INTERNAL
    /// ("Received RST_STREAM with error code 0") instead of the status, and after a body the
    /// transport would queue the reset ahead of the trailers. The client resets the stream itself.
    private func complete(response: ByteBuffer?, status: RPCError?) {
        guard phase != .finished, let stream else { return }
        phase = .finished
        leaveAdmission()
        let detached = ending.withLock { $0.detached }
        let reported = status
        deadlineTimer?.cancel()
        deadlineTimer = nil
        requests?.finish()
        requests = nil
        // Nothing reads the request any more.
        heldBytes = 0
        releaseWindow()

        if let response {
            sendHeadersIfNeeded(stream)
            stream.sendData(response, promise: nil)
        }
        var status = status
        if var error = status, let completer = core.errorStatus {
            completer.complete(&error, context: context)
            status = error
        }
        let trailingMetadata = context.responseTrailers
        if !headersSent, context.responseHeaders.isEmpty {
            let block = ResponseHeaders.trailersOnly(status: status, metadata: trailingMetadata)
            reportRejected(block.rejectedKeys)
            stream.sendHeaders(block.headers, endStream: true)
        } else {
            sendHeadersIfNeeded(stream)
            let block = ResponseHeaders.trailers(status: status, metadata: trailingMetadata)
            reportRejected(block.rejectedKeys)
            if queueOverflowed {
                stream.sendTrailersNow(block.headers)
            } else {
                stream.sendTrailers(block.headers)
            }
        }
        if detached { detachedCallEnded(reported) }
    }

    /// Gives back the call's admission place, if it holds one: its handler has answered or ended.
    private func leaveAdmission() {
        guard admitted else { return }
        admitted = false
        core.configuration.admission?.leave()
    }

    private func reportRejected(_ keys: [String]) {
        guard !keys.isEmpty else { return }
        core.logger.warning(
            "response metadata left out: reserved or invalid keys, or values that are not printable ASCII",
            metadata: ["method": "\(context.method)", "keys": "\(keys.joined(separator: ","))"])
    }
}
