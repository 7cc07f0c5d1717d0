import CNGHTTP2
import Logging
import NIOCore

/// Runs one nghttp2 server session for one connection, only on the channel's event loop.
///
/// Bytes read from the channel go to `nghttp2_session_mem_recv`; nghttp2's callbacks (in
/// `NGHTTP2Callbacks.swift`) turn frames into calls on `HTTP2StreamRouter` and `HTTP2StreamHandler`.
/// Whatever nghttp2 has to send is pulled with `nghttp2_session_mem_send` in `flush()`: once per read
/// batch (in `channelReadComplete`), during a batch that has answered `answersPerEarlyFlush` requests
/// (a callback pauses `mem_recv`), and once per event-loop tick when handlers answer outside a read.
/// The handler owns the session and deletes it exactly once, in `tearDown()`.
///
/// Receive windows reopen only for request bytes consumed: by the stream's handler (`consume`),
/// here for bytes no handler will read, and at stream close for whatever the handler left.
/// nghttp2 consumes padding and the DATA of streams it no longer knows.
final class HTTP2ConnectionHandler: ChannelInboundHandler, ServedConnection {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Payloads at least this large are written to the channel as they are (a slice of the caller's
    /// buffer) instead of being copied next to their frame header.
    private static let zeroCopyThreshold = 4096
    /// Initial size of the buffer frames are gathered in before a write. It grows with the traffic
    /// and keeps its size; an idle connection keeps only this much.
    private static let outboundCapacity = 1024
    /// Bytes produced by one `flush()` before it yields the event loop to other work.
    private static let maxBytesPerFlush = 1 << 20
    /// PING payload that marks the round trip of a graceful shutdown.
    private static let drainPingPayload: [UInt8] = Array("soukdrn!".utf8)
    /// How long a graceful shutdown waits for that PING's answer before sending the final GOAWAY.
    private static let drainPingTimeout = TimeAmount.seconds(1)
    /// How long a connection may take to write its last frames (GOAWAY) before it is closed anyway.
    private static let closeTimeout = TimeAmount.seconds(5)

    let eventLoop: any EventLoop
    private(set) var remoteAddress: SocketAddress?
    private let configuration: HTTP2ServerConfiguration
    private let router: any HTTP2StreamRouter
    private let logger: Logger
    private let metrics: HTTP2ServerMetrics

    /// The nghttp2 session; created when the channel becomes active, deleted in `tearDown()`.
    private var session: OpaquePointer?
    private var context: ChannelHandlerContext?
    private var streams = StreamTable<HTTP2ServerStream>()
    /// Streams holding a write back until the client opens its window (`waitForWindow`).
    private var windowWaiters: [Int32] = []
    /// A `let` rather than made on first use: reading a lazy property retains the object on every
    /// response. It allocates its buffers with the first response (idle connections are most).
    private let headerBlock = NGHTTP2HeaderBlock()
    /// The header block being received. HTTP/2 sends a block's frames back to back, never
    /// interleaved with another stream's (RFC 9113 §4.3), so one block is received at a time; its
    /// stream is kept as an ID, so that each field costs a compare and no retain.
    private var receivedBlock: HeaderBlockCollector

    private enum State {
        /// Serving.
        case open
        /// Graceful shutdown: GOAWAY sent or being sent; in-flight streams finish.
        case draining
        /// Waiting for the last bytes to be written, then closing.
        case closing
        /// The session is gone.
        case closed
    }
    private var state = State.open

    // Reading.
    /// The buffer `nghttp2_session_mem_recv` is reading, so DATA payloads can be sliced out of it.
    private var inbound: ByteBuffer?
    private var inboundBase: UnsafeRawPointer?
    private var isReading = false
    /// Responses submitted since the last flush.
    private var answersWaiting = 0
    /// A callback returned `NGHTTP2_ERR_PAUSE` so that `channelRead` flushes before reading on.
    private var pausedForFlush = false
    /// The reads of every HTTP/2 connection on this event loop, counted.
    private let loopReads: EventLoopReads
    /// `loopReads` at this connection's last read.
    private var lastLoopRead: UInt64 = 0
    /// Another connection on the event loop read since this one last did: the loop has their
    /// work to do while this client reads its answers, so the batch is answered in one write.
    private var loopIsShared = false

    // Writing.
    private var outbound: ByteBuffer
    /// Promises of writes nghttp2 took into frames during the current flush; succeeded after it.
    private var completedWrites: [EventLoopPromise<Void>] = []
    private var isFlushing = false
    /// Bytes produced by the current flush, and whether it stopped early (see `flush()`).
    private var flushedBytes = 0
    private var flushPaused = false
    private var flushScheduled = false
    private var waitingForWritability = false

    // Timers and limits.
    private var prefaceReceived = false
    private var handshakeTimer: Scheduled<Void>?
    private var idleTimer: Scheduled<Void>?
    /// When the last stream closed; nil while streams are open.
    private var idleSince: NIODeadline?
    private var drainTimer: Scheduled<Void>?
    private var closeTimer: Scheduled<Void>?
    private var resetBudget: StreamResetBudget

    init(
        configuration: HTTP2ServerConfiguration,
        router: any HTTP2StreamRouter,
        logger: Logger,
        metrics: HTTP2ServerMetrics,
        channel: any Channel,
        loopReads: EventLoopReads = EventLoopReads()
    ) {
        self.loopReads = loopReads
        lastLoopRead = loopReads.count
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.metrics = metrics
        self.eventLoop = channel.eventLoop
        self.outbound = channel.allocator.buffer(capacity: Self.outboundCapacity)
        self.receivedBlock = HeaderBlockCollector(maxListSize: configuration.maxHeaderListSize)
        self.resetBudget = StreamResetBudget(
            limit: configuration.maxStreamResets,
            window: TimeAmount(configuration.streamResetWindow),
            now: .now()
        )
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive {
            start(context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        tearDown()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        tearDown()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("HTTP/2 connection error", metadata: ["remote": "\(remoteDescription)", "error": "\(error)"])
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session, state == .open || state == .draining else { return }
        isReading = true
        let read = loopReads.count &+ 1
        loopReads.count = read
        loopIsShared = read &- lastLoopRead > 1
        lastLoopRead = read
        let buffer = unwrapInboundIn(data)
        let result = buffer.withUnsafeReadableBytes { bytes -> Int in
            guard let base = bytes.baseAddress else { return 0 }
            inbound = buffer
            inboundBase = base
            defer {
                inbound = nil
                inboundBase = nil
            }
            var session = session
            var offset = 0
            while true {
                let count = nghttp2_session_mem_recv(
                    session, base.assumingMemoryBound(to: UInt8.self) + offset, bytes.count - offset)
                guard count >= 0 else {
                    pausedForFlush = false
                    return count
                }
                offset += count
                // Paused by a callback with answers waiting: send them, then read on. nghttp2 finishes
                // the frame it paused in on the next call, even one with no bytes left.
                guard pausedForFlush else { return offset }
                pausedForFlush = false
                flush()
                guard let live = self.session, state == .open || state == .draining else { return offset }
                session = live
            }
        }
        if result < 0 {
            failConnection(NGHTTP2Error("nghttp2_session_mem_recv", code: Int32(result)))
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        isReading = false
        flush()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, waitingForWritability {
            waitingForWritability = false
            // Not `flush()` directly: this event may fire from inside a flush.
            scheduleFlush()
        }
        context.fireChannelWritabilityChanged()
    }

    // MARK: Lifecycle

    private var remoteDescription: String { remoteAddress.map { "\($0)" } ?? "unknown" }

    private func start(context: ChannelHandlerContext) {
        guard session == nil, state == .open else { return }
        remoteAddress = context.channel.remoteAddress
        do {
            session = try NGHTTP2Callbacks.makeServerSession(userData: Unmanaged.passUnretained(self).toOpaque())
            try submitInitialSettings()
        } catch {
            logger.error("cannot start HTTP/2 session", metadata: ["error": "\(error)"])
            closeNow()
            return
        }
        metrics.openConnections.increment()
        logger.debug("HTTP/2 connection opened", metadata: ["remote": "\(remoteDescription)"])

        let loop = eventLoop.assumeIsolatedUnsafeUnchecked()
        handshakeTimer = loop.scheduleTask(in: TimeAmount(configuration.handshakeTimeout)) { [self] in
            handshakeTimedOut()
        }
        idleSince = .now()
        armIdleTimer(in: TimeAmount(configuration.idleTimeout))
        flush()
    }

    private func submitInitialSettings() throws {
        let windowLimit = Int(Int32.max)
        let entries: [(nghttp2_settings_id, Int)] = [
            (NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, configuration.maxConcurrentStreams),
            (NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, min(configuration.initialStreamWindowSize, windowLimit)),
            (NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, configuration.maxHeaderListSize),
            // RFC 9218: no RFC 7540 priority tree, which also spares nghttp2 keeping closed streams.
            (NGHTTP2_SETTINGS_NO_RFC7540_PRIORITIES, 1),
        ]
        try NGHTTP2Callbacks.submitInitialSettings(session, entries, connectionWindowSize: configuration.connectionWindowSize)
    }

    /// Frees the session and closes every open stream with `.connectionClosed`. Runs once.
    private func tearDown() {
        guard state != .closed else { return }
        state = .closed
        for timer in [handshakeTimer, idleTimer, drainTimer, closeTimer] {
            timer?.cancel()
        }
        handshakeTimer = nil
        idleTimer = nil
        drainTimer = nil
        closeTimer = nil

        let open = streams.removeAll()
        receivedBlock.stop()
        for stream in open {
            metrics.activeStreams.decrement()
            stream.close(.connectionClosed)
        }
        // These bytes were taken into frames already; their writers may go on.
        completeWrites()

        if let session {
            nghttp2_session_del(session)
            self.session = nil
            metrics.openConnections.decrement()
            logger.debug("HTTP/2 connection closed", metadata: ["remote": "\(remoteDescription)"])
        }
    }

    private func handshakeTimedOut() {
        handshakeTimer = nil
        guard !prefaceReceived, state != .closed else { return }
        logger.debug("HTTP/2 client preface not received in time; closing", metadata: ["remote": "\(remoteDescription)"])
        closeNow()
    }

    private func armIdleTimer(in delay: TimeAmount) {
        idleTimer = eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: delay) { [self] in
            idleTimerFired()
        }
    }

    /// Checks idleness lazily, so opening and closing streams never touches the timer.
    private func idleTimerFired() {
        idleTimer = nil
        guard state == .open || state == .draining else { return }
        let timeout = TimeAmount(configuration.idleTimeout)
        guard let idleSince, streams.isEmpty else {
            armIdleTimer(in: timeout)
            return
        }
        let idleFor = NIODeadline.now() - idleSince
        if idleFor >= timeout {
            logger.debug("HTTP/2 connection idle; closing", metadata: ["remote": "\(remoteDescription)"])
            terminate(errorCode: NGHTTP2_NO_ERROR.rawValue)
        } else {
            armIdleTimer(in: timeout - idleFor)
        }
    }

    /// Graceful shutdown: announce GOAWAY, let in-flight streams finish, then close.
    ///
    /// Sends a shutdown notice (GOAWAY with the largest stream ID) and a PING; once the PING comes back
    /// (or after `drainPingTimeout`) the final GOAWAY names the last stream that will be served.
    /// The connection closes when nghttp2 wants neither to read nor to write (every stream done).
    func beginGracefulShutdown() {
        guard state == .open else { return }
        state = .draining
        guard let session, prefaceReceived else {
            // Nothing was asked on this connection yet.
            closeNow()
            return
        }
        nghttp2_submit_shutdown_notice(session)
        Self.drainPingPayload.withUnsafeBufferPointer { payload in
            _ = nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), payload.baseAddress)
        }
        drainTimer = eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: Self.drainPingTimeout) { [self] in
            sendFinalGoAway()
        }
        scheduleFlush()
    }

    private func sendFinalGoAway() {
        drainTimer?.cancel()
        drainTimer = nil
        guard state == .draining, let session else { return }
        let lastStreamID = nghttp2_session_get_last_proc_stream_id(session)
        nghttp2_submit_goaway(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), lastStreamID, NGHTTP2_NO_ERROR.rawValue, nil, 0)
        scheduleFlush()
    }

    /// Sends GOAWAY with `errorCode` and closes once it is written.
    private func terminate(errorCode: UInt32) {
        guard let session, state == .open || state == .draining else { return }
        nghttp2_session_terminate_session(session, errorCode)
        scheduleFlush()
    }

    /// nghttp2 reported a fatal error: answer GOAWAY if the session still can, then close.
    private func failConnection(_ error: NGHTTP2Error) {
        logger.debug("HTTP/2 session failed", metadata: ["remote": "\(remoteDescription)", "error": "\(error)"])
        guard let session, state == .open || state == .draining else { return }
        let code: nghttp2_error_code
        switch error.code {
        case NGHTTP2_ERR_FLOODED.rawValue: code = NGHTTP2_ENHANCE_YOUR_CALM
        case NGHTTP2_ERR_CALLBACK_FAILURE.rawValue, NGHTTP2_ERR_NOMEM.rawValue: code = NGHTTP2_INTERNAL_ERROR
        default: code = NGHTTP2_PROTOCOL_ERROR
        }
        nghttp2_session_terminate_session(session, code.rawValue)
        flush()
        closeAfterWrites()
    }

    /// Closes once everything written so far has reached the socket (bounded by `closeTimeout`).
    private func closeAfterWrites() {
        guard let context, state != .closing, state != .closed else { return }
        state = .closing
        let channel = context.channel
        let written = eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer()), promise: written)
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        closeTimer = eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: Self.closeTimeout) {
            channel.close(promise: nil)
        }
    }

    private func closeNow() {
        guard let context, state != .closed else { return }
        state = .closing
        context.close(promise: nil)
    }

    // MARK: Writing

    /// Makes sure `flush()` runs soon: after the current read batch, or on the next event-loop tick.
    func scheduleFlush() {
        guard !isReading, !isFlushing, !flushScheduled else { return }
        flushScheduled = true
        eventLoop.assumeIsolatedUnsafeUnchecked().execute { [self] in
            flushScheduled = false
            flush()
        }
    }

    /// Moves everything nghttp2 has to send into the channel, with one flush.
    ///
    /// Stops early when the channel's write buffer is full (resumed by `channelWritabilityChanged`) or
    /// after `maxBytesPerFlush` (resumed on the next tick), so one busy stream cannot hog the loop and
    /// response bodies wait in their streams, where `sendData` promises hold their writers back.
    private func flush() {
        guard let session, let context, !isFlushing, state != .closing, state != .closed else { return }
        guard context.channel.isWritable else {
            waitingForWritability = true
            return
        }
        if outbound.readableBytes == 0 {
            outbound.clear()
        }
        isFlushing = true
        answersWaiting = 0
        flushedBytes = 0
        flushPaused = false
        while !flushPaused {
            var chunk: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &chunk)
            if count < 0 {
                // The session cannot produce frames any more, so not even a GOAWAY: just close.
                isFlushing = false
                logger.debug("HTTP/2 session failed", metadata: [
                    "remote": "\(remoteDescription)",
                    "error": "\(NGHTTP2Error("nghttp2_session_mem_send", code: Int32(count)))",
                ])
                closeNow()
                return
            }
            if count == 0 { break }
            outbound.writeBytes(UnsafeRawBufferPointer(start: chunk, count: count))
            flushedBytes += count
            checkFlushBudget()
        }
        isFlushing = false
        writeOutbound(context)
        context.flush()
        completeWrites()

        // Flushing may have failed and closed the channel, which frees the session: look again.
        guard let liveSession = self.session, state == .open || state == .draining else { return }
        if nghttp2_session_want_read(liveSession) == 0, nghttp2_session_want_write(liveSession) == 0 {
            closeAfterWrites()
        } else if flushPaused, !waitingForWritability {
            scheduleFlush()
        }
    }

    /// Pauses the current flush once it wrote `maxBytesPerFlush`.
    private func checkFlushBudget() {
        if flushedBytes >= Self.maxBytesPerFlush {
            flushPaused = true
        }
    }

    /// Pauses the current flush when a write left the channel unwritable. Only writes change that,
    /// so it is asked after each write rather than for every frame.
    private func checkWritability(_ context: ChannelHandlerContext) {
        if !context.channel.isWritable {
            waitingForWritability = true
            flushPaused = true
        }
    }

    private func writeOutbound(_ context: ChannelHandlerContext) {
        guard outbound.readableBytes > 0 else { return }
        context.write(wrapOutboundOut(outbound), promise: nil)
        // The next flush clears (and so reuses) the buffer once the channel has let go of it.
        outbound.moveReaderIndex(to: outbound.writerIndex)
    }

    private func completeWrites() {
        guard !completedWrites.isEmpty else { return }
        let promises = completedWrites
        completedWrites.removeAll(keepingCapacity: true)
        for promise in promises {
            promise.succeed()
        }
    }

    // MARK: Submitting, for HTTP2ServerStream

    func submitResponse(streamID: Int32, headers: [HTTP2Header], hasBody: Bool) {
        guard let session, state != .closed else { return }
        let rv = headerBlock.withNameValues(headers) { fields, count -> Int32 in
            guard hasBody else {
                return nghttp2_submit_response(session, streamID, fields, count, nil)
            }
            var provider = nghttp2_data_provider(
                source: nghttp2_data_source(ptr: nil),
                read_callback: NGHTTP2Callbacks.readData
            )
            return nghttp2_submit_response(session, streamID, fields, count, &provider)
        }
        if rv != 0 {
            logger.debug("cannot submit response", metadata: ["error": "\(NGHTTP2Error("nghttp2_submit_response", code: rv))"])
        }
        answersWaiting += 1
        scheduleFlush()
    }

    /// Called from nghttp2's data read callback; nghttp2 sends the trailers after the last DATA frame.
    func submitTrailers(streamID: Int32, trailers: [HTTP2Header]) {
        guard let session, state != .closed else { return }
        let rv = headerBlock.withNameValues(trailers) { fields, count in
            nghttp2_submit_trailer(session, streamID, fields, count)
        }
        if rv != 0 {
            logger.debug("cannot submit trailers", metadata: ["error": "\(NGHTTP2Error("nghttp2_submit_trailer", code: rv))"])
        }
    }

    func submitReset(streamID: Int32, errorCode: UInt32) {
        guard let session, state != .closed else { return }
        nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, errorCode)
        scheduleFlush()
    }

    /// The handler is done with `byteCount` received bytes of the stream: reopen the stream's and the
    /// connection's windows by that much (nghttp2 queues a WINDOW_UPDATE once half a window is back).
    func consume(streamID: Int32, byteCount: Int) {
        guard let session, state != .closed else { return }
        let rv = nghttp2_session_consume(session, streamID, byteCount)
        if rv != 0 {
            logger.debug("cannot consume", metadata: ["error": "\(NGHTTP2Error("nghttp2_session_consume", code: rv))"])
        }
        scheduleFlush()
    }

    func resumeData(streamID: Int32) {
        guard let session, state != .closed else { return }
        nghttp2_session_resume_data(session, streamID)
        scheduleFlush()
    }

    // MARK: nghttp2 callbacks (see NGHTTP2Callbacks)

    func beginHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        guard frame.pointee.hd.type == NGHTTP2Callbacks.headersFrame else { return 0 }
        let streamID = frame.pointee.hd.stream_id
        if frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
            let stream = HTTP2ServerStream(streamID: streamID, connection: self)
            streams.insert(stream)
            receivedBlock.start(streamID: streamID)
            metrics.activeStreams.increment()
            idleSince = nil
        } else {
            // Trailers: collected unless the request was refused (it has nobody to hand them to).
            receivedBlock.start(streamID: streams[streamID].map { $0.requestRefused ? 0 : streamID } ?? 0)
        }
        return 0
    }

    func receiveHeader(
        _ frame: UnsafePointer<nghttp2_frame>,
        name: UnsafePointer<UInt8>, nameLength: Int,
        value: UnsafePointer<UInt8>, valueLength: Int
    ) -> Int32 {
        let streamID = frame.pointee.hd.stream_id
        switch receivedBlock.add(
            streamID: streamID, name: name, nameLength: nameLength, value: value, valueLength: valueLength)
        {
        case .ignored: return 0
        case .added: return pauseForFlushIfDue()
        case .tooLarge: break  // The block will never be delivered.
        }
        if frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
            // Answered with 431 once the block is complete; the router never sees it.
            streams[streamID]?.requestRefused = true
            return 0
        }
        nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
        return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue
    }

    func receiveDataChunk(streamID: Int32, data: UnsafePointer<UInt8>, length: Int) -> Int32 {
        guard let stream = streams[streamID], stream.handler != nil else {
            // Nobody will read these bytes (a refused request): give the window back at once.
            nghttp2_session_consume(session, streamID, length)
            return 0
        }
        stream.appendData(inboundSlice(of: inbound, base: inboundBase, data, length: length))
        return pauseForFlushIfDue()
    }

    /// `NGHTTP2_ERR_PAUSE` once `configuration.answersPerEarlyFlush` answers wait during a read, else
    /// 0. Only from the header and data-chunk callbacks, after they took their bytes (nghttp2 counts
    /// them read). Not while other connections share the event loop (`loopIsShared`): early writes
    /// keep a lone client busy, but with others to serve they only multiply the writes (16 answers
    /// a write instead of a batch's 50 made the kernel a quarter of a cached media GET's cost).
    private func pauseForFlushIfDue() -> Int32 {
        guard isReading, !loopIsShared, answersWaiting >= max(1, configuration.answersPerEarlyFlush) else { return 0 }
        pausedForFlush = true
        return NGHTTP2_ERR_PAUSE.rawValue
    }

    func receiveFrame(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        switch header.type {
        case NGHTTP2Callbacks.dataFrame:
            if let stream = streams[header.stream_id], stream.handler != nil {
                stream.deliverData(endStream: header.flags & NGHTTP2Callbacks.endStreamFlag != 0)
            }
        case NGHTTP2Callbacks.headersFrame:
            defer { receivedBlock.stop() }
            guard let stream = streams[header.stream_id] else { break }
            let endStream = header.flags & NGHTTP2Callbacks.endStreamFlag != 0
            if frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
                if stream.requestRefused {
                    stream.sendHeaders([HTTP2Header(":status", "431")], endStream: true)
                } else {
                    stream.handler = router.openStream(stream, headers: receivedBlock.fields, endStream: endStream)
                }
            } else if let handler = stream.handler {
                handler.receiveTrailers(receivedBlock.fields)
            }
        case NGHTTP2Callbacks.rstStreamFrame:
            if let stream = streams[header.stream_id] {
                stream.peerResetCode = frame.pointee.rst_stream.error_code
                // Only streams reset before their response started count: a rapid-reset flood
                // cancels requests the server is still working on, while a client that closes a
                // watch it has been reading (a screen left, a stream's deadline) is ordinary use,
                // and a busy client does that far more often than the budget allows.
                if !stream.responseStarted, !resetBudget.recordReset(now: .now()) {
                    logger.debug("too many stream resets; closing", metadata: ["remote": "\(remoteDescription)"])
                    terminate(errorCode: NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
                }
            }
        case NGHTTP2Callbacks.settingsFrame:
            if header.flags & NGHTTP2Callbacks.ackFlag == 0, !prefaceReceived {
                prefaceReceived = true
                handshakeTimer?.cancel()
                handshakeTimer = nil
            }
            if header.flags & NGHTTP2Callbacks.ackFlag == 0 { resumeWindowWaiters() }
        case NGHTTP2Callbacks.windowUpdateFrame:
            resumeWindowWaiters()
        case NGHTTP2Callbacks.pingFrame:
            if header.flags & NGHTTP2Callbacks.ackFlag != 0, state == .draining {
                let isDrainPing = withUnsafeBytes(of: frame.pointee.ping.opaque_data) {
                    $0.elementsEqual(Self.drainPingPayload)
                }
                if isDrainPing { sendFinalGoAway() }
            }
        default:
            break
        }
        return 0
    }

    func frameSent(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        guard header.flags & NGHTTP2Callbacks.endStreamFlag != 0,
              header.type == NGHTTP2Callbacks.dataFrame || header.type == NGHTTP2Callbacks.headersFrame,
              let session
        else { return 0 }
        // The response is complete but the client is still sending: RST_STREAM(NO_ERROR) tells it to stop
        // (RFC 9113 §8.1) and frees the stream at once.
        if nghttp2_session_get_stream_remote_close(session, header.stream_id) == 0 {
            nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), header.stream_id, NGHTTP2_NO_ERROR.rawValue)
        }
        return 0
    }

    func streamClosed(streamID: Int32, errorCode: UInt32) -> Int32 {
        guard let stream = streams.removeValue(forStreamID: streamID) else { return 0 }
        receivedBlock.forget(streamID)
        metrics.activeStreams.decrement()
        let unconsumed = stream.takeUnconsumedBytes()
        if unconsumed > 0, let session {
            // The stream's own window is gone with it; the connection's must not leak.
            nghttp2_session_consume_connection(session, unconsumed)
        }
        if streams.isEmpty {
            idleSince = .now()
        }
        let reason: HTTP2StreamCloseReason
        if let peerCode = stream.peerResetCode {
            reason = .resetByPeer(errorCode: peerCode)
        } else if errorCode == NGHTTP2_NO_ERROR.rawValue {
            reason = .completed
        } else {
            reason = .resetByPeer(errorCode: errorCode)
        }
        stream.close(reason)
        return 0
    }

    /// Whether stream `streamID` should hold back a write of `bytes` until the client opens its
    /// window (true: it is registered, and resumed by the next WINDOW_UPDATE or SETTINGS).
    ///
    /// Only when the window is what holds it back, the write fits in a window the client can
    /// grant, and the client has at least half a window unacknowledged: clients acknowledge once
    /// half a window is read, so this never waits on a client that waits for more data first.
    func waitForWindow(streamID: Int32, bytes: Int) -> Bool {
        guard let session else { return false }
        let initial = Int(nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE))
        let streamWindow = Int(nghttp2_session_get_stream_remote_window_size(session, streamID))
        let connectionWindow = Int(nghttp2_session_get_remote_window_size(session))
        let streamHolds = streamWindow < bytes && bytes <= initial && streamWindow <= initial / 2
        let connectionHolds = connectionWindow < bytes && bytes <= Self.defaultWindow && connectionWindow <= Self.defaultWindow / 2
        guard streamHolds || connectionHolds else { return false }
        windowWaiters.append(streamID)
        return true
    }

    /// The initial window of every connection (RFC 9113 §6.9.2).
    private static let defaultWindow = 65_535

    private func resumeWindowWaiters() {
        guard !windowWaiters.isEmpty, let session else { return }
        let waiting = windowWaiters
        windowWaiters.removeAll()
        for streamID in waiting where streams[streamID] != nil {
            nghttp2_session_resume_data(session, streamID)
        }
        scheduleFlush()
    }

    func nextFrameLength(streamID: Int32, maxLength: Int, flags: inout UInt32) -> Int {
        guard let stream = streams[streamID] else {
            return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
        }
        return stream.nextFrameLength(maxLength: maxLength, flags: &flags)
    }

    /// Writes one DATA frame whose payload nghttp2 left to us (NGHTTP2_DATA_FLAG_NO_COPY).
    func sendDataFrame(_ frame: UnsafePointer<nghttp2_frame>, frameHeader: UnsafePointer<UInt8>, length: Int) -> Int32 {
        guard let stream = streams[frame.pointee.hd.stream_id], let context else {
            return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue
        }
        outbound.writeBytes(UnsafeRawBufferPointer(start: frameHeader, count: 9))
        let padding = frame.pointee.data.padlen
        if padding > 0 {
            outbound.writeInteger(UInt8(padding - 1))
        }
        stream.takeFramePayload(length: length, emit: { payload in
            if payload.readableBytes < Self.zeroCopyThreshold {
                outbound.writeImmutableBuffer(payload)
            } else {
                writeOutbound(context)
                outbound.clear()
                context.write(wrapOutboundOut(payload), promise: nil)
                checkWritability(context)
            }
        }, completed: &completedWrites)
        if padding > 1 {
            outbound.writeRepeatingByte(0, count: padding - 1)
        }
        flushedBytes += 9 + length + padding
        checkFlushBudget()
        // nghttp2 would go on with the next DATA frame inside this same mem_send call; pause it.
        return flushPaused ? NGHTTP2_ERR_PAUSE.rawValue : 0
    }
}

/// Counts the reads of the HTTP/2 connections of one event loop, so that a connection knows
/// whether others read between two of its reads. One per event loop; touched only on it.
final class EventLoopReads: @unchecked Sendable {
    var count: UInt64 = 0
}
