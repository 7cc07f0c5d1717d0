import NIOCore
import SoukHTTP2
import Synchronization

/// A router for tests, choosing by `:path`:
/// - `/echo`: answers `:status 200`, echoes the body, and ends with the request's trailers plus
///   `x-request-end` saying how the request ended (`headers`, `data` or `trailers`);
/// - `/hold`: never answers until the test calls `answerHeld` (or the stream closes);
/// - `/trailers-only`: answers with one headers-only block (`:status 200`, `x-only: 1`);
/// - `/reset`: resets the stream with INTERNAL_ERROR (2);
/// - `/early`: answers completely before reading the request body;
/// - `/unread`: never answers and never consumes the body until the test calls `consumeUnread`.
/// Every other handler consumes the body as it arrives.
/// It records every opened path and every close reason.
final class TestRouter: HTTP2StreamRouter {
    struct Opened: Sendable, Equatable {
        var path: String
        var streamID: Int32
        var endStream: Bool
    }

    private struct State {
        var opened: [Opened] = []
        var closed: [Int32: HTTP2StreamCloseReason] = [:]
        var held: [Int32: NIOLoopBound<any HTTP2ResponseStream>] = [:]
        var unread: [Int32: NIOLoopBound<any HTTP2ResponseStream>] = [:]
        var unreadBytes: [Int32: Int] = [:]
    }

    private let state = Mutex(State())

    var opened: [Opened] { state.withLock { $0.opened } }
    var closeReasons: [Int32: HTTP2StreamCloseReason] { state.withLock { $0.closed } }
    var heldStreamIDs: [Int32] { state.withLock { Array($0.held.keys).sorted() } }

    func openStream(_ stream: any HTTP2ResponseStream, headers: [HTTP2Header], endStream: Bool) -> any HTTP2StreamHandler {
        let path = headers.first { $0.name == ":path" }?.value ?? ""
        state.withLock { $0.opened.append(Opened(path: path, streamID: stream.streamID, endStream: endStream)) }
        let recordClose: (Int32, HTTP2StreamCloseReason) -> Void = { [self] id, reason in
            state.withLock {
                $0.closed[id] = reason
                $0.held[id] = nil
                $0.unread[id] = nil
            }
        }
        switch path {
        case "/hold":
            state.withLock { $0.held[stream.streamID] = NIOLoopBound(stream, eventLoop: stream.eventLoop) }
            return RecordingHandler(stream: stream, onClose: recordClose)
        case "/unread":
            state.withLock { $0.unread[stream.streamID] = NIOLoopBound(stream, eventLoop: stream.eventLoop) }
            return UnreadHandler(streamID: stream.streamID, onClose: recordClose) { [self] id, count in
                state.withLock { $0.unreadBytes[id, default: 0] += count }
            }
        case "/trailers-only":
            stream.sendHeaders([HTTP2Header(":status", "200"), HTTP2Header("x-only", "1")], endStream: true)
            return RecordingHandler(stream: stream, onClose: recordClose)
        case "/reset":
            stream.reset(errorCode: 2)
            return RecordingHandler(stream: stream, onClose: recordClose)
        case "/early":
            stream.sendHeaders([HTTP2Header(":status", "200")], endStream: false)
            stream.sendData(ByteBuffer(string: "early"), promise: nil)
            stream.sendTrailers([HTTP2Header("x-early", "1")])
            return RecordingHandler(stream: stream, onClose: recordClose)
        default:
            let handler = EchoHandler(stream: stream, onClose: recordClose)
            stream.sendHeaders([HTTP2Header(":status", "200"), HTTP2Header("content-type", "application/octet-stream")], endStream: false)
            if endStream { handler.finish(how: "headers", trailers: []) }
            return handler
        }
    }

    /// Answers every held stream with `:status 200`, `body` and trailer `x-held: done`.
    func answerHeld(body: String) {
        let held = state.withLock { $0.held.values }
        for stream in held {
            stream.eventLoop.execute {
                stream.value.sendHeaders([HTTP2Header(":status", "200")], endStream: false)
                stream.value.sendData(ByteBuffer(string: body), promise: nil)
                stream.value.sendTrailers([HTTP2Header("x-held", "done")])
            }
        }
    }

    /// Writes to held stream `id` and reports how the write's promise ended.
    func writeToHeld(_ id: Int32) async -> Result<Void, any Error> {
        guard let stream = state.withLock({ $0.held[id] }) else {
            return .failure(HTTP2StreamWriteError.streamClosed)
        }
        let future = stream.eventLoop.flatSubmit {
            let promise = stream.eventLoop.makePromise(of: Void.self)
            stream.value.sendData(ByteBuffer(string: "late"), promise: promise)
            return promise.futureResult
        }
        do {
            try await future.get()
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Answers held stream `id` with `:status 200` and `count` body bytes (no end yet); the probe
    /// tells when the write's promise succeeded.
    func startAnswer(toHeld id: Int32, count: Int) -> WriteProbe {
        let probe = WriteProbe()
        guard let stream = state.withLock({ $0.held[id] }) else { return probe }
        stream.eventLoop.execute {
            let promise = stream.eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { probe.finish($0) }
            stream.value.sendHeaders([HTTP2Header(":status", "200")], endStream: false)
            stream.value.sendData(ByteBuffer(repeating: 0x61, count: count), promise: promise)
        }
        return probe
    }

    /// Request body bytes an `/unread` stream received so far (whether consumed or not).
    func unreadBytes(_ id: Int32) -> Int {
        state.withLock { $0.unreadBytes[id] ?? 0 }
    }

    /// Reports `count` bytes of `/unread` stream `id` consumed.
    func consumeUnread(_ id: Int32, _ count: Int) async throws {
        guard let stream = state.withLock({ $0.unread[id] }) else { return }
        try await stream.eventLoop.submit { stream.value.consumed(count) }.get()
    }

    /// The held stream as the transport hands it over (for calling it after it closed).
    func heldStream(_ id: Int32) -> NIOLoopBound<any HTTP2ResponseStream>? {
        state.withLock { $0.held[id] }
    }
}

/// Records how the stream closed; ignores (and so consumes at once) the request body.
private final class RecordingHandler: HTTP2StreamHandler {
    let stream: any HTTP2ResponseStream
    let onClose: (Int32, HTTP2StreamCloseReason) -> Void

    init(stream: any HTTP2ResponseStream, onClose: @escaping (Int32, HTTP2StreamCloseReason) -> Void) {
        self.stream = stream
        self.onClose = onClose
    }

    func receiveData(_ data: ByteBuffer, endStream: Bool) { stream.consumed(data.readableBytes) }
    func receiveTrailers(_ trailers: [HTTP2Header]) {}
    func streamClosed(_ reason: HTTP2StreamCloseReason) { onClose(stream.streamID, reason) }
}

/// Counts the request body's bytes and leaves them unconsumed.
private final class UnreadHandler: HTTP2StreamHandler {
    let streamID: Int32
    let onClose: (Int32, HTTP2StreamCloseReason) -> Void
    let onData: (Int32, Int) -> Void

    init(streamID: Int32, onClose: @escaping (Int32, HTTP2StreamCloseReason) -> Void, onData: @escaping (Int32, Int) -> Void) {
        self.streamID = streamID
        self.onClose = onClose
        self.onData = onData
    }

    func receiveData(_ data: ByteBuffer, endStream: Bool) { onData(streamID, data.readableBytes) }
    func receiveTrailers(_ trailers: [HTTP2Header]) {}
    func streamClosed(_ reason: HTTP2StreamCloseReason) { onClose(streamID, reason) }
}

/// Echoes the request body as it arrives, then the request's trailers.
private final class EchoHandler: HTTP2StreamHandler {
    let stream: any HTTP2ResponseStream
    let onClose: (Int32, HTTP2StreamCloseReason) -> Void

    init(stream: any HTTP2ResponseStream, onClose: @escaping (Int32, HTTP2StreamCloseReason) -> Void) {
        self.stream = stream
        self.onClose = onClose
    }

    func receiveData(_ data: ByteBuffer, endStream: Bool) {
        if data.readableBytes > 0 {
            stream.sendData(data, promise: nil)
            stream.consumed(data.readableBytes)
        }
        if endStream { finish(how: "data", trailers: []) }
    }

    func receiveTrailers(_ trailers: [HTTP2Header]) {
        finish(how: "trailers", trailers: trailers)
    }

    func streamClosed(_ reason: HTTP2StreamCloseReason) {
        onClose(stream.streamID, reason)
    }

    func finish(how: String, trailers: [HTTP2Header]) {
        stream.sendTrailers(trailers + [HTTP2Header("x-request-end", how)])
    }
}

/// Observes one write's promise from a test.
final class WriteProbe: Sendable {
    private let result = Mutex<Result<Void, any Error>?>(nil)

    var outcome: Result<Void, any Error>? { result.withLock { $0 } }
    var succeeded: Bool { if case .success = outcome { true } else { false } }

    func finish(_ outcome: Result<Void, any Error>) {
        result.withLock { $0 = outcome }
    }
}
