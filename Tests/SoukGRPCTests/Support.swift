@testable import SoukGRPC

/// The status code `body` throws, or nil when it returns normally or throws something else.
func statusCode<T>(_ body: () throws -> T) -> StatusCode? {
    do {
        _ = try body()
        return nil
    } catch let error as RPCError {
        return error.code
    } catch {
        return nil
    }
}

import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import SoukHTTP2
import SoukMessages

/// A fake transport stream that records what the gRPC layer sends, and checks it is called on
/// its event loop only.
final class RecordingResponseStream: HTTP2ResponseStream, @unchecked Sendable {
    /// One thing sent on the stream.
    enum Event: Equatable, CustomStringConvertible {
        case headers([HTTP2Header], endStream: Bool)
        case data([UInt8])
        case trailers([HTTP2Header])
        case reset(UInt32)

        var description: String {
            switch self {
            case .headers(let headers, let endStream): "HEADERS\(endStream ? "+END" : "") \(headers.map { "\($0.name)=\($0.value)" })"
            case .data(let bytes): "DATA \(bytes.count) bytes"
            case .trailers(let headers): "TRAILERS \(headers.map { "\($0.name)=\($0.value)" })"
            case .reset(let code): "RST_STREAM \(code)"
            }
        }
    }

    private struct State {
        var events: [Event] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var holdsData = false
        var heldPromises: [EventLoopPromise<Void>] = []
        var consumed = 0
        var consumedWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    let streamID: Int32 = 1
    let eventLoop: any EventLoop
    let remoteAddress: SocketAddress?
    private let state = NIOLockedValueBox(State())

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        self.remoteAddress = try? SocketAddress(ipAddress: "127.0.0.1", port: 53422)
    }

    var events: [Event] { state.withLockedValue { $0.events } }

    /// Request bytes the call reported consumed so far.
    var consumedBytes: Int { state.withLockedValue { $0.consumed } }

    /// Waits until at least `count` request bytes were reported consumed.
    func waitForConsumed(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLockedValue { state in
                if state.consumed >= count { return true }
                state.consumedWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// While true, `sendData` promises stay pending (the peer's flow-control window is shut).
    func holdData(_ holds: Bool) {
        let released: [EventLoopPromise<Void>] = state.withLockedValue { state in
            state.holdsData = holds
            guard !holds else { return [] }
            defer { state.heldPromises = [] }
            return state.heldPromises
        }
        for promise in released { promise.succeed() }
    }

    /// Waits until at least `count` events were sent.
    func waitForEvents(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLockedValue { state in
                if state.events.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Waits until the stream is ended by the server (trailers, trailers-only or reset).
    func waitForEnd() async -> [Event] {
        var seen = 1
        while true {
            await waitForEvents(seen)
            let events = self.events
            if events.contains(where: \.endsStream) { return events }
            seen = events.count + 1
        }
    }

    private func record(_ event: Event) {
        eventLoop.preconditionInEventLoop()
        let ready: [CheckedContinuation<Void, Never>] = state.withLockedValue { state in
            state.events.append(event)
            let count = state.events.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    func sendHeaders(_ headers: [HTTP2Header], endStream: Bool) {
        record(.headers(headers, endStream: endStream))
    }

    func sendData(_ data: ByteBuffer, promise: EventLoopPromise<Void>?) {
        record(.data(Array(data.readableBytesView)))
        guard let promise else { return }
        let held = state.withLockedValue { state in
            if state.holdsData { state.heldPromises.append(promise) }
            return state.holdsData
        }
        if !held { promise.succeed() }
    }

    func sendTrailers(_ trailers: [HTTP2Header]) {
        record(.trailers(trailers))
    }

    func reset(errorCode: UInt32) {
        record(.reset(errorCode))
    }

    func consumed(_ byteCount: Int) {
        eventLoop.preconditionInEventLoop()
        let ready: [CheckedContinuation<Void, Never>] = state.withLockedValue { state in
            state.consumed += byteCount
            let total = state.consumed
            let ready = state.consumedWaiters.filter { $0.count <= total }.map(\.continuation)
            state.consumedWaiters.removeAll { $0.count <= total }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}

extension RecordingResponseStream.Event {
    var endsStream: Bool {
        switch self {
        case .headers(_, let endStream): endStream
        case .data: false
        case .trailers, .reset: true
        }
    }

    /// The header block, when this event carries one.
    var headerBlock: [HTTP2Header]? {
        switch self {
        case .headers(let headers, _), .trailers(let headers): headers
        default: nil
        }
    }
}

extension Array where Element == HTTP2Header {
    /// The value of the first header with this name.
    subscript(name: String) -> String? {
        first { $0.name == name }?.value
    }
}

/// One call driven against a router on a test event loop, the way the transport would drive it.
final class CallDriver: @unchecked Sendable {
    let loop: NIOAsyncTestingEventLoop
    let stream: RecordingResponseStream
    let router: GRPCRouter
    /// Touched only on `loop`.
    private var handler: (any HTTP2StreamHandler)?

    init(router: GRPCRouter, loop: NIOAsyncTestingEventLoop = NIOAsyncTestingEventLoop()) {
        self.loop = loop
        self.router = router
        self.stream = RecordingResponseStream(eventLoop: loop)
    }

    static func requestHeaders(
        path: String,
        method: String = "POST",
        contentType: String? = "application/grpc",
        extra: [HTTP2Header] = []
    ) -> [HTTP2Header] {
        var headers = [
            HTTP2Header(":method", method), HTTP2Header(":scheme", "http"), HTTP2Header(":path", path),
            HTTP2Header(":authority", "localhost"), HTTP2Header("te", "trailers"),
        ]
        if let contentType { headers.append(HTTP2Header("content-type", contentType)) }
        return headers + extra
    }

    func open(path: String, extra: [HTTP2Header] = [], endStream: Bool = false) async throws {
        try await open(headers: Self.requestHeaders(path: path, extra: extra), endStream: endStream)
    }

    func open(headers: [HTTP2Header], endStream: Bool) async throws {
        try await loop.executeInContext {
            self.handler = self.router.openStream(self.stream, headers: headers, endStream: endStream)
        }
    }

    func send(_ bytes: [UInt8], endStream: Bool = false) async throws {
        try await loop.executeInContext {
            self.handler?.receiveData(ByteBuffer(bytes: bytes), endStream: endStream)
        }
    }

    /// Sends length-prefixed messages, each in its own DATA frame.
    func send(messages: [[UInt8]], endStream: Bool = true) async throws {
        for (index, message) in messages.enumerated() {
            try await send(frame(message), endStream: endStream && index == messages.count - 1)
        }
        if messages.isEmpty, endStream { try await send([], endStream: true) }
    }

    func close(_ reason: HTTP2StreamCloseReason) async throws {
        try await loop.executeInContext { self.handler?.streamClosed(reason) }
    }

    /// Runs a whole unary call and returns what was sent.
    func unary(path: String, request: [UInt8], extra: [HTTP2Header] = []) async throws -> [RecordingResponseStream.Event] {
        try await open(path: path, extra: extra)
        try await send(messages: [request])
        return await stream.waitForEnd()
    }
}

/// A length-prefixed message.
func frame(_ bytes: [UInt8], compressed: Bool = false) -> [UInt8] {
    Array(GRPCFraming.frame(ByteBuffer(bytes: bytes), compressed: compressed).readableBytesView)
}

/// The messages in DATA events, without their prefixes (decompressed when flagged).
func messages(in events: [RecordingResponseStream.Event]) throws -> [[UInt8]] {
    var deframer = GRPCMessageDeframer(maxMessageSize: 1 << 24)
    var result: [[UInt8]] = []
    for case .data(let bytes) in events {
        deframer.append(ByteBuffer(bytes: bytes))
        while let message = try deframer.next() {
            let payload = message.compressed ? try GzipDecompressor().decompress(message.payload, limit: 1 << 24) : message.payload
            result.append(Array(payload.readableBytesView))
        }
    }
    try deframer.finish()
    return result
}

/// A message type for tests: its wire form is its bytes. `[0xFF]` is not a valid message.
struct RawMessage: ProtoMessage {
    static let protoName = "souk.test.RawMessage"
    var bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    init(decoding bytes: UnsafeRawBufferPointer) throws {
        guard Array(bytes) != [0xFF] else {
            throw ProtoDecodingError(messageType: Self.protoName, reason: "not valid protobuf")
        }
        self.bytes = Array(bytes)
    }

    func withEncodedBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }
}

/// A service built from closures.
struct TestService: RPCService {
    var serviceName: String = "souk.test.Test"
    var methods: [RPCMethod]
}

/// A thread-safe list of strings, for recording the order of things across tasks.
final class Journal: Sendable {
    private struct State {
        var entries: [String] = []
        var waiters: [(entry: String, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = NIOLockedValueBox(State())

    func add(_ entry: String) {
        let ready: [CheckedContinuation<Void, Never>] = state.withLockedValue { state in
            state.entries.append(entry)
            let ready = state.waiters.filter { $0.entry == entry }.map(\.continuation)
            state.waiters.removeAll { $0.entry == entry }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    var all: [String] { state.withLockedValue { $0.entries } }

    /// Waits until `entry` has been added (before or after this call).
    func wait(for entry: String) async {
        await withCheckedContinuation { continuation in
            let done = state.withLockedValue { state in
                if state.entries.contains(entry) { return true }
                state.waiters.append((entry, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }
}

/// A logger that drops everything.
let quietLogger = Logger(label: "souk.grpc.test", factory: { _ in SwiftLogNoOpLogHandler() })

/// Every place an async handler can start, as test arguments.
enum HandlerPlacements: String, CaseIterable, Sendable {
    case eventLoop, globalExecutor, threads

    static let all = allCases
    /// Shared by the tests: threads are not stopped between them.
    static let handlerThreads = HandlerThreads(count: 2)

    var placement: GRPCRouter.HandlerPlacement {
        switch self {
        case .eventLoop: .eventLoop
        case .globalExecutor: .globalExecutor
        case .threads: .threads(Self.handlerThreads)
        }
    }
}
