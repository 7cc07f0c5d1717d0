import CNGHTTP2
import NIOCore
import NIOTLS

/// Runs one nghttp2 client session for one connection, only on the channel's event loop: the
/// client side of what `HTTP2ConnectionHandler` is to the server, sharing its header conversion
/// (`NGHTTP2HeaderBlock`, `HeaderStringCache`), its stream table and its zero-copy DATA writes.
///
/// Requests submitted during one event-loop tick go out in one write (`scheduleFlush`); bytes read
/// go to `nghttp2_session_mem_recv`, whose callbacks reach the streams' delegates.
final class HTTP2ClientSession: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Payloads at least this large are written as slices of the caller's buffer.
    private static let zeroCopyThreshold = 4096
    private static let keepAlivePayload: [UInt8] = Array("soukkpal".utf8)

    let eventLoop: any EventLoop
    private let configuration: HTTP2ClientConfiguration
    /// TLS is in the pipeline: the handshake must settle on ALPN `h2`.
    private let requiresALPN: Bool
    weak var delegate: (any HTTP2ClientConnectionDelegate)?
    /// Succeeded with `connection` once the server's first SETTINGS arrived; both are dropped then.
    var readyPromise: EventLoopPromise<HTTP2ClientConnection>?
    var connection: HTTP2ClientConnection?

    private var session: OpaquePointer?
    private var context: ChannelHandlerContext?
    private var streams = StreamTable<HTTP2ClientStream>()
    private let headerBlock = NGHTTP2HeaderBlock()
    /// The header block being received (one at a time, as on the server).
    private var receivedBlock: HeaderBlockCollector

    private var goAwayReceived = false
    private var closingGracefully = false
    private var isClosed = false
    /// Why the connection failed, reported to the ready promise and the delegate.
    private var failure: (any Error)?

    // Reading.
    private var inbound: ByteBuffer?
    private var inboundBase: UnsafeRawPointer?
    private var isReading = false
    /// A call into nghttp2 is running: the session must not be deleted before it returns.
    private var isInsideNGHTTP2 = false

    // Writing.
    private var outbound: ByteBuffer
    private var completedWrites: [EventLoopPromise<Void>] = []
    private var isFlushing = false
    private var flushScheduled = false
    private var waitingForWritability = false

    // Timers.
    private var connectTimer: Scheduled<Void>?
    private var keepAliveTimer: Scheduled<Void>?
    private var pingTimeoutTimer: Scheduled<Void>?
    private var lastFrameReceived = NIODeadline.now()

    init(configuration: HTTP2ClientConfiguration, requiresALPN: Bool, channel: any Channel) {
        self.configuration = configuration
        self.requiresALPN = requiresALPN
        self.eventLoop = channel.eventLoop
        self.outbound = channel.allocator.buffer(capacity: 1024)
        self.receivedBlock = HeaderBlockCollector(maxListSize: configuration.maxHeaderListSize)
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let loop = eventLoop.assumeIsolatedUnsafeUnchecked()
        connectTimer = loop.scheduleTask(in: TimeAmount(configuration.connectTimeout)) { [self] in
            connectTimer = nil
            fail(HTTP2ClientError(.connectFailed, "no HTTP/2 SETTINGS from the server within \(configuration.connectTimeout)"))
        }
        if context.channel.isActive { start() }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        tearDown()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        start()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        tearDown()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if requiresALPN, case .handshakeCompleted(let negotiated) = event as? TLSUserEvent, negotiated != "h2" {
            fail(HTTP2ClientError(.connectFailed, "the server did not negotiate HTTP/2 (ALPN \(negotiated ?? "none"))"))
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session, !isClosed else { return }
        isReading = true
        lastFrameReceived = .now()
        let buffer = unwrapInboundIn(data)
        let result = buffer.withUnsafeReadableBytes { bytes -> Int in
            guard let base = bytes.baseAddress else { return 0 }
            inbound = buffer
            inboundBase = base
            defer {
                inbound = nil
                inboundBase = nil
            }
            isInsideNGHTTP2 = true
            defer { isInsideNGHTTP2 = false }
            return nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        if isClosed {
            deleteSessionAfterTearDown()
            return
        }
        if result < 0 {
            fail(HTTP2ClientError(.protocolError, NGHTTP2Error("nghttp2_session_mem_recv", code: Int32(result)).description))
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
            scheduleFlush()
        }
        context.fireChannelWritabilityChanged()
    }

    // MARK: Lifecycle

    private func start() {
        guard session == nil, !isClosed else { return }
        do {
            session = try NGHTTP2Callbacks.makeClientSession(userData: Unmanaged.passUnretained(self).toOpaque())
            try submitInitialSettings()
        } catch {
            fail(error)
            return
        }
        armKeepAlive()
        flush()
    }

    private func submitInitialSettings() throws {
        let entries: [(nghttp2_settings_id, Int)] = [
            (NGHTTP2_SETTINGS_ENABLE_PUSH, 0),
            (NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, min(configuration.initialStreamWindowSize, Int(Int32.max))),
            (NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, configuration.maxHeaderListSize),
            (NGHTTP2_SETTINGS_NO_RFC7540_PRIORITIES, 1),
        ]
        try NGHTTP2Callbacks.submitInitialSettings(session, entries, connectionWindowSize: configuration.connectionWindowSize)
    }

    /// Records why the connection failed (the first reason wins) and closes it.
    private func fail(_ error: any Error) {
        if failure == nil { failure = error }
        context?.close(promise: nil)
    }

    /// Frees the session, closes every stream with `.connectionClosed` and tells the delegate. Once.
    private func tearDown() {
        guard !isClosed else { return }
        isClosed = true
        for timer in [connectTimer, keepAliveTimer, pingTimeoutTimer] { timer?.cancel() }
        connectTimer = nil
        keepAliveTimer = nil
        pingTimeoutTimer = nil
        let error = failure ?? HTTP2ClientError(.connectionClosed, "the connection closed")
        if let readyPromise {
            self.readyPromise = nil
            connection = nil
            readyPromise.fail(error is HTTP2ClientError ? error : HTTP2ClientError(.connectFailed, "\(error)"))
        }
        for stream in streams.removeAll() {
            stream.close(.connectionClosed)
        }
        completeWrites()
        // Inside nghttp2 (a callback closed the channel) the session is deleted once nghttp2 returns.
        if !isInsideNGHTTP2, let session {
            nghttp2_session_del(session)
            self.session = nil
        }
        let delegate = self.delegate
        self.delegate = nil
        delegate?.connectionClosed(error: failure)
    }

    /// Deletes the session that `tearDown` left because nghttp2 was running.
    private func deleteSessionAfterTearDown() {
        if let session {
            nghttp2_session_del(session)
            self.session = nil
        }
    }

    func closeGracefully() {
        guard let session, !isClosed, !closingGracefully else { return }
        closingGracefully = true
        nghttp2_session_terminate_session(session, NGHTTP2_NO_ERROR.rawValue)
        scheduleFlush()
    }

    // MARK: Keepalive

    private func armKeepAlive() {
        guard let interval = configuration.keepAliveInterval else { return }
        keepAliveTimer = eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: TimeAmount(interval)) { [self] in
            keepAliveTimer = nil
            keepAliveDue()
        }
    }

    /// Sends a PING unless a frame arrived within the interval; the answer must come in time.
    private func keepAliveDue() {
        guard let session, !isClosed, let interval = configuration.keepAliveInterval else { return }
        let quietFor = NIODeadline.now() - lastFrameReceived
        if quietFor < TimeAmount(interval) {
            keepAliveTimer = eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: TimeAmount(interval) - quietFor) { [self] in
                keepAliveTimer = nil
                keepAliveDue()
            }
            return
        }
        Self.keepAlivePayload.withUnsafeBufferPointer { payload in
            _ = nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), payload.baseAddress)
        }
        scheduleFlush()
        pingTimeoutTimer = eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: TimeAmount(configuration.keepAliveTimeout)) { [self] in
            pingTimeoutTimer = nil
            fail(HTTP2ClientError(.connectionClosed, "keepalive PING not answered within \(configuration.keepAliveTimeout)"))
        }
    }

    // MARK: Streams, for HTTP2ClientConnection and HTTP2ClientStream

    var availableStreams: Int {
        guard let session, isAcceptingStreams else { return 0 }
        let limit = Int(nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS))
        return max(0, limit - streams.count)
    }

    var openStreamCount: Int { streams.count }

    var isAcceptingStreams: Bool { session != nil && !isClosed && !goAwayReceived && !closingGracefully && readyPromise == nil }

    func openStream(
        headers: [HTTP2Header], endStream: Bool, delegate: any HTTP2ClientStreamDelegate
    ) throws(HTTP2ClientError) -> HTTP2ClientStream {
        guard let session, !isClosed, !closingGracefully else {
            throw HTTP2ClientError(.connectionClosed, "the connection is closed")
        }
        guard !goAwayReceived else { throw HTTP2ClientError(.goingAway, "the server is closing the connection (GOAWAY)") }
        guard availableStreams > 0 else {
            throw HTTP2ClientError(.noStreamAvailable, "the server's limit of concurrent streams is reached")
        }
        let stream = HTTP2ClientStream(session: self, delegate: delegate, endStream: endStream)
        let id = headerBlock.withNameValues(headers) { fields, count -> Int32 in
            guard !endStream else { return nghttp2_submit_request(session, nil, fields, count, nil, nil) }
            var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: NGHTTP2Callbacks.Client.readData)
            return nghttp2_submit_request(session, nil, fields, count, &provider, nil)
        }
        guard id > 0 else {
            throw HTTP2ClientError(.protocolError, NGHTTP2Error("nghttp2_submit_request", code: id).description)
        }
        stream.streamID = id
        streams.insert(stream)
        scheduleFlush()
        return stream
    }

    func submitReset(streamID: Int32, errorCode: UInt32) {
        guard let session, !isClosed else { return }
        nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, errorCode)
        scheduleFlush()
    }

    func consume(streamID: Int32, byteCount: Int) {
        guard let session, !isClosed else { return }
        nghttp2_session_consume(session, streamID, byteCount)
        scheduleFlush()
    }

    func resumeData(streamID: Int32) {
        guard let session, !isClosed else { return }
        nghttp2_session_resume_data(session, streamID)
        scheduleFlush()
    }

    // MARK: Writing

    /// Makes sure `flush()` runs soon: after the current read batch, or on the next tick, so that
    /// the requests of one tick share a write.
    func scheduleFlush() {
        guard !isReading, !isFlushing, !flushScheduled else { return }
        flushScheduled = true
        eventLoop.assumeIsolatedUnsafeUnchecked().execute { [self] in
            flushScheduled = false
            flush()
        }
    }

    private func flush() {
        guard let session, let context, !isFlushing, !isClosed else { return }
        guard context.channel.isWritable else {
            waitingForWritability = true
            return
        }
        if outbound.readableBytes == 0 { outbound.clear() }
        isFlushing = true
        while !waitingForWritability {
            var chunk: UnsafePointer<UInt8>?
            isInsideNGHTTP2 = true
            let count = nghttp2_session_mem_send(session, &chunk)
            isInsideNGHTTP2 = false
            if isClosed {
                isFlushing = false
                deleteSessionAfterTearDown()
                return
            }
            if count < 0 {
                isFlushing = false
                fail(HTTP2ClientError(.protocolError, NGHTTP2Error("nghttp2_session_mem_send", code: Int32(count)).description))
                return
            }
            if count == 0 { break }
            outbound.writeBytes(UnsafeRawBufferPointer(start: chunk, count: count))
        }
        isFlushing = false
        writeOutbound(context)
        context.flush()
        completeWrites()
        guard let live = self.session, !isClosed else { return }
        if nghttp2_session_want_read(live) == 0, nghttp2_session_want_write(live) == 0 {
            // GOAWAY both ways and no stream left.
            context.close(promise: nil)
        } else if waitingForWritability, context.channel.isWritable {
            waitingForWritability = false
            scheduleFlush()
        }
    }

    private func writeOutbound(_ context: ChannelHandlerContext) {
        guard outbound.readableBytes > 0 else { return }
        context.write(wrapOutboundOut(outbound), promise: nil)
        outbound.moveReaderIndex(to: outbound.writerIndex)
    }

    private func completeWrites() {
        guard !completedWrites.isEmpty else { return }
        let promises = completedWrites
        completedWrites.removeAll(keepingCapacity: true)
        for promise in promises { promise.succeed() }
    }

    // MARK: nghttp2 callbacks

    func beginHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        guard frame.pointee.hd.type == NGHTTP2Callbacks.headersFrame else { return 0 }
        let streamID = frame.pointee.hd.stream_id
        receivedBlock.start(streamID: streams[streamID] != nil ? streamID : 0)
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
        case .ignored, .added: return 0
        case .tooLarge:
            nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, NGHTTP2_PROTOCOL_ERROR.rawValue)
            return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue
        }
    }

    func receiveDataChunk(streamID: Int32, data: UnsafePointer<UInt8>, length: Int) -> Int32 {
        guard let stream = streams[streamID], stream.delegate != nil else {
            nghttp2_session_consume(session, streamID, length)
            return 0
        }
        stream.appendData(inboundSlice(of: inbound, base: inboundBase, data, length: length))
        return 0
    }

    func receiveFrame(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        switch header.type {
        case NGHTTP2Callbacks.dataFrame:
            streams[header.stream_id]?.deliverData(endStream: header.flags & NGHTTP2Callbacks.endStreamFlag != 0)
        case NGHTTP2Callbacks.headersFrame:
            guard receivedBlock.isCollecting(header.stream_id), let stream = streams[header.stream_id] else { break }
            let endStream = header.flags & NGHTTP2Callbacks.endStreamFlag != 0
            let fields = receivedBlock.fields
            receivedBlock.stop()
            if !stream.receivedResponseHeaders {
                // An informational (1xx) block is followed by the real response.
                if let status = fields.first(where: { $0.name == ":status" }), status.value.utf8.first == UInt8(ascii: "1") {
                    break
                }
                stream.receivedResponseHeaders = true
                stream.delegate?.receiveResponseHeaders(fields, endStream: endStream)
            } else {
                stream.delegate?.receiveTrailers(fields)
            }
        case NGHTTP2Callbacks.rstStreamFrame:
            streams[header.stream_id]?.peerResetCode = frame.pointee.rst_stream.error_code
        case NGHTTP2Callbacks.settingsFrame:
            guard header.flags & NGHTTP2Callbacks.ackFlag == 0 else { break }
            if let readyPromise, let connection {
                self.readyPromise = nil
                self.connection = nil
                connectTimer?.cancel()
                connectTimer = nil
                readyPromise.succeed(connection)
            }
            delegate?.streamCapacityChanged()
        case NGHTTP2Callbacks.pingFrame:
            if header.flags & NGHTTP2Callbacks.ackFlag != 0 {
                let isKeepAlive = withUnsafeBytes(of: frame.pointee.ping.opaque_data) { $0.elementsEqual(Self.keepAlivePayload) }
                if isKeepAlive {
                    pingTimeoutTimer?.cancel()
                    pingTimeoutTimer = nil
                    armKeepAlive()
                }
            }
        case NGHTTP2Callbacks.goAwayFrame:
            if !goAwayReceived {
                goAwayReceived = true
                delegate?.goAwayReceived(errorCode: frame.pointee.goaway.error_code)
            }
        default:
            break
        }
        return 0
    }

    func streamClosed(streamID: Int32, errorCode: UInt32) -> Int32 {
        guard let stream = streams.removeValue(forStreamID: streamID) else { return 0 }
        receivedBlock.forget(streamID)
        let unconsumed = stream.takeUnconsumedBytes()
        if unconsumed > 0, let session {
            nghttp2_session_consume_connection(session, unconsumed)
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
        delegate?.streamCapacityChanged()
        return 0
    }

    func nextFrameLength(streamID: Int32, maxLength: Int, flags: inout UInt32) -> Int {
        guard let stream = streams[streamID] else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        return stream.nextFrameLength(maxLength: maxLength, flags: &flags)
    }

    /// Writes one DATA frame whose payload nghttp2 left to us (NGHTTP2_DATA_FLAG_NO_COPY).
    func sendDataFrame(_ frame: UnsafePointer<nghttp2_frame>, frameHeader: UnsafePointer<UInt8>, length: Int) -> Int32 {
        guard let stream = streams[frame.pointee.hd.stream_id], let context else {
            return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue
        }
        outbound.writeBytes(UnsafeRawBufferPointer(start: frameHeader, count: 9))
        let padding = frame.pointee.data.padlen
        if padding > 0 { outbound.writeInteger(UInt8(padding - 1)) }
        stream.takeFramePayload(length: length, emit: { payload in
            if payload.readableBytes < Self.zeroCopyThreshold {
                outbound.writeImmutableBuffer(payload)
            } else {
                writeOutbound(context)
                outbound.clear()
                context.write(wrapOutboundOut(payload), promise: nil)
                if !context.channel.isWritable { waitingForWritability = true }
            }
        }, completed: &completedWrites)
        if padding > 1 { outbound.writeRepeatingByte(0, count: padding - 1) }
        return waitingForWritability ? NGHTTP2_ERR_PAUSE.rawValue : 0
    }
}
