import NIOCore
import NIOPosix
import SoukGRPC
import SoukHTTP2
import SoukMessages

/// One unary RPC sent as fast as the transport allows: the request's header block and its framed
/// message are built once, and every call runs on its connection's event loop from the send to
/// the status (no task, no hop to another thread, no decoding of the answer). This is the path of
/// `souk-load call` for unary methods, in both models.
public struct FastUnaryPlan: Sendable {
    /// The stats name (the method as `Service/Method`).
    public var name: String
    /// The whole request header block, pseudo-headers first.
    public var headers: [HTTP2Header]
    /// The request message with its gRPC prefix.
    public var body: ByteBuffer

    /// Builds the header block a gRPC client sends, with custom metadata and an optional timeout.
    public init(name: String, path: String, authority: String, tls: Bool, message: ByteBuffer, metadata: [(String, String)], timeout: UInt64?) {
        self.name = name
        var headers = [
            HTTP2Header(":method", "POST"), HTTP2Header(":scheme", tls ? "https" : "http"), HTTP2Header(":path", path),
            HTTP2Header(":authority", authority), HTTP2Header("content-type", "application/grpc"), HTTP2Header("te", "trailers"),
            HTTP2Header("user-agent", "souk-load/1"),
        ]
        if let timeout { headers.append(HTTP2Header("grpc-timeout", GRPCTimeout(rounding: .nanoseconds(Int64(timeout))).headerValue)) }
        for (key, value) in metadata { headers.append(HTTP2Header(key, value)) }
        self.headers = headers
        self.body = GRPCFraming.frame(message, compressed: false)
    }
}

/// How a fast run paces its calls.
public enum FastMode: Sendable {
    /// Each connection keeps `streams` calls running until `end` (clock time) or `calls` in all.
    case closed(streams: Int, end: UInt64?, calls: UInt64?)
    /// Calls sent on this loop's share of the schedule; over `maxInFlight` running, dropped.
    case open(schedule: RateSchedule, maxInFlight: Int, lateTolerance: UInt64)
}

/// The runner of one event loop: its connections, its calls and its stats (touched only on the loop).
public final class FastUnaryLoop: HTTP2ClientConnectionDelegate, @unchecked Sendable {
    public let eventLoop: any EventLoop
    let plan: FastUnaryPlan
    let mode: FastMode
    let clock: any LoadClock
    public let progress = ProgressCounters()
    /// The stats of this loop; read after `finished` completed.
    public private(set) var stats = CallStats()
    private var connections: [HTTP2ClientConnection] = []
    /// Idle call slots, reused from call to call (a call's state without an allocation per call).
    private var freeSlots: [FastCallSlot] = []
    private var running = 0
    private var started: UInt64 = 0
    private var stopped = false
    /// Calls started so far (closed model with a call count).
    private var issued: UInt64 = 0
    private var callLimit: UInt64 = .max
    private var pacer: OpenLoopPacer?
    private var timer: Scheduled<Void>?
    private var nextConnection = 0
    private let done: EventLoopPromise<Void>
    /// The clock time of the last call's end.
    public private(set) var lastEnd: UInt64 = 0

    /// Completes when the loop sent all it should and every call ended.
    public var finished: EventLoopFuture<Void> { done.futureResult }

    public init(eventLoop: any EventLoop, plan: FastUnaryPlan, mode: FastMode, clock: any LoadClock = MonotonicClock()) {
        self.eventLoop = eventLoop
        self.plan = plan
        self.mode = mode
        self.clock = clock
        self.done = eventLoop.makePromise()
    }

    /// Connects `count` connections to the target on this loop.
    public func connect(host: String, port: Int, tls: HTTP2ClientTLS?, count: Int) -> EventLoopFuture<Void> {
        let futures = (0..<count).map { _ in HTTP2ClientConnection.connect(host: host, port: port, tls: tls, eventLoop: eventLoop) }
        return EventLoopFuture.whenAllSucceed(futures, on: eventLoop).map { connections in
            self.connections = connections
            for connection in connections { connection.setDelegate(self) }
        }
    }

    /// Starts sending (on the loop); `start` is the common start time of every loop.
    public func start(at start: UInt64) {
        eventLoop.execute { self.begin(start) }
    }

    /// Stops sending new calls; running ones finish.
    public func stop() {
        eventLoop.execute {
            self.stopped = true
            self.timer?.cancel()
            self.finishIfIdle()
        }
    }

    public func close() {
        for connection in connections { connection.close() }
    }

    private func begin(_ start: UInt64) {
        started = start
        switch mode {
        case .closed(let streams, let end, let calls):
            callLimit = calls ?? .max
            if let end {
                let delay = end > clock.now() ? end - clock.now() : 0
                timer = eventLoop.scheduleTask(in: .nanoseconds(Int64(delay))) { self.stopped = true; self.finishIfIdle() }
            }
            for connection in connections {
                for _ in 0..<streams { _ = startCall(on: connection, intended: clock.now(), late: false) }
            }
            finishIfIdle()
        case .open(let schedule, let maxInFlight, let tolerance):
            pacer = OpenLoopPacer(schedule: schedule, start: start, maxInFlight: maxInFlight, lateTolerance: tolerance)
            pace()
        }
    }

    // MARK: Open model

    private func pace() {
        guard var pacer, !stopped else { return }
        let now = clock.now()
        while let (intended, decision) = pacer.nextDue(now: now) {
            switch decision {
            case .drop:
                stats.dropped += 1
                progress.dropped.add(1, ordering: .relaxed)
            case .send(let late):
                if late {
                    stats.late += 1
                    progress.late.add(1, ordering: .relaxed)
                }
                if !startOnAnyConnection(intended: intended, late: late) {
                    // No stream free on any connection: as good as over the bound.
                    _ = pacer.completed(intended: intended, now: now)
                    stats.dropped += 1
                    progress.dropped.add(1, ordering: .relaxed)
                }
            }
        }
        self.pacer = pacer
        guard let next = pacer.nextTime else {
            stopped = true
            finishIfIdle()
            return
        }
        // Wake at the next intended time; at very high rates several calls go per wake-up.
        let delay = max(Int64(next) - Int64(clock.now()), 20_000)
        timer = eventLoop.scheduleTask(in: .nanoseconds(delay)) { self.pace() }
    }

    private func startOnAnyConnection(intended: UInt64, late: Bool) -> Bool {
        for _ in 0..<connections.count {
            let connection = connections[nextConnection]
            nextConnection = (nextConnection + 1) % connections.count
            if connection.isAcceptingStreams, connection.availableStreams > 0 {
                return startCall(on: connection, intended: intended, late: late)
            }
        }
        return false
    }

    // MARK: Calls

    @discardableResult
    private func startCall(on connection: HTTP2ClientConnection, intended: UInt64, late: Bool) -> Bool {
        guard !stopped, issued < callLimit else { return false }
        let slot = freeSlots.popLast() ?? FastCallSlot(loop: self)
        slot.reset(connection: connection, intended: intended)
        do {
            let stream = try connection.openStream(headers: plan.headers, endStream: false, delegate: slot)
            stream.sendData(plan.body, endStream: true, promise: nil)
            slot.stream = stream
        } catch {
            freeSlots.append(slot)
            return false
        }
        issued += 1
        running += 1
        progress.inFlight.store(running, ordering: .relaxed)
        return true
    }

    func finish(_ slot: FastCallSlot) {
        let now = clock.now()
        lastEnd = now
        running -= 1
        let latency: UInt64
        if pacer != nil {
            latency = pacer!.completed(intended: slot.intended, now: now)
        } else {
            latency = now >= slot.intended ? now - slot.intended : 0
        }
        if slot.status == 0 {
            stats.recordOK(latency: latency)
        } else {
            let failure = slot.failure()
            stats.record(latency: latency, status: failure.status, reason: failure.reason, message: failure.message, refused: failure.refused)
            progress.errors.add(1, ordering: .relaxed)
        }
        progress.calls.add(1, ordering: .relaxed)
        progress.inFlight.store(running, ordering: .relaxed)
        let connection = slot.connection
        slot.release()
        freeSlots.append(slot)
        // Closed model: the connection's next call goes at once, in the slot just freed.
        if case .closed = mode, let connection, !stopped {
            if !connection.isAcceptingStreams || !startCall(on: connection, intended: now, late: false) {
                _ = startOnAnyConnection(intended: now, late: false)
            }
        }
        finishIfIdle()
    }

    private func finishIfIdle() {
        if case .closed = mode, issued >= callLimit { stopped = true }
        guard stopped, running == 0 else { return }
        timer?.cancel()
        done.succeed()
    }

    // MARK: HTTP2ClientConnectionDelegate

    public func streamCapacityChanged() {}
    public func goAwayReceived(errorCode: UInt32) {}
    public func connectionClosed(error: (any Error)?) {
        connections.removeAll { !$0.isAcceptingStreams }
        if connections.isEmpty {
            stopped = true
            finishIfIdle()
        }
    }
}

/// One call in flight on a `FastUnaryLoop`: what is needed to tell its outcome.
final class FastCallSlot: HTTP2ClientStreamDelegate {
    /// The loop outlives its slots (it holds the free ones and its streams hold the busy ones).
    unowned(unsafe) let loop: FastUnaryLoop
    var connection: HTTP2ClientConnection?
    var stream: HTTP2ClientStream?
    var intended: UInt64 = 0
    /// The gRPC status code, -1 while unknown, -2 for an HTTP status that is not 200.
    var status = -1
    var httpStatus = ""
    var details: String?
    var message = ""
    var closeReason: HTTP2StreamCloseReason = .completed

    init(loop: FastUnaryLoop) {
        self.loop = loop
    }

    func reset(connection: HTTP2ClientConnection, intended: UInt64) {
        self.connection = connection
        self.intended = intended
        status = -1
        details = nil
        message = ""
    }

    func release() {
        connection = nil
        stream = nil
    }

    func receiveResponseHeaders(_ headers: [HTTP2Header], endStream: Bool) {
        for header in headers where header.name == ":status" && header.value != "200" {
            status = -2
            httpStatus = header.value
        }
        if endStream { readStatus(headers) }
    }

    func receiveData(_ data: ByteBuffer, endStream: Bool) {
        // The answer is not decoded: its bytes are released at once.
        stream?.consumed(data.readableBytes)
    }

    func receiveTrailers(_ trailers: [HTTP2Header]) {
        readStatus(trailers)
    }

    func streamClosed(_ reason: HTTP2StreamCloseReason) {
        closeReason = reason
        loop.finish(self)
    }

    private func readStatus(_ block: [HTTP2Header]) {
        guard status != -2 else { return }
        for header in block {
            switch header.name {
            case "grpc-status": status = Int(header.value) ?? 2
            case "grpc-message": message = header.value
            case "grpc-status-details-bin": details = header.value
            default: break
            }
        }
    }

    /// The failed call's status name, ErrorInfo reason and message, and whether the server said it
    /// did not execute it (`RefusalRetry.notExecuted`). Only when it failed: slow is fine.
    func failure() -> (status: String, reason: String?, message: String?, refused: Bool) {
        if status == -2 { return ("UNAVAILABLE", "HTTP_\(httpStatus)", "the server answered HTTP status \(httpStatus)", false) }
        if status == -1 {
            switch closeReason {
            case .completed: return ("INTERNAL", "NO_STATUS", "the stream ended without a gRPC status", false)
            case .connectionClosed: return ("UNAVAILABLE", "CONNECTION_CLOSED", "the connection closed before the call ended", false)
            case .resetByPeer(let code): return (code == 7 ? "UNAVAILABLE" : "INTERNAL", "RST_STREAM_\(code)", "the stream was reset (HTTP/2 error code \(code))", false)
            }
        }
        let name = StatusCode(rawValue: status)?.description ?? "UNKNOWN"
        let info = details.flatMap(errorInfo(detailsHeader:))
        return (name, info?.reason, message, RefusalRetry.notExecuted(info))
    }
}

/// The ErrorInfo in a `grpc-status-details-bin` value, if any.
func errorInfo(detailsHeader value: String) -> GoogleRPC.ErrorInfo? {
    guard let bytes = MetadataBase64.decode(value[...]), let status = try? GoogleRPC.Status(decoding: bytes) else { return nil }
    for detail in status.details {
        if let info = try? detail.unpack(GoogleRPC.ErrorInfo.self) { return info }
    }
    return nil
}
