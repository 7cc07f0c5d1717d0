import NIOCore
import NIOPosix
import Synchronization

/// One HTTP/2 frame as seen on the wire.
struct RawFrame: Sendable, Equatable {
    var type: UInt8
    var flags: UInt8
    var streamID: UInt32
    var payload: [UInt8]

    static let data: UInt8 = 0x0, headers: UInt8 = 0x1, rstStream: UInt8 = 0x3, settings: UInt8 = 0x4
    static let ping: UInt8 = 0x6, goAway: UInt8 = 0x7, windowUpdate: UInt8 = 0x8, continuation: UInt8 = 0x9
    static let endStream: UInt8 = 0x1, endHeaders: UInt8 = 0x4, ack: UInt8 = 0x1

    /// The error code of a RST_STREAM or GOAWAY frame.
    var errorCode: UInt32? {
        switch type {
        case Self.rstStream where payload.count >= 4: return Self.uint32(payload, at: 0)
        case Self.goAway where payload.count >= 8: return Self.uint32(payload, at: 4)
        default: return nil
        }
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The frame's wire bytes.
    var bytes: [UInt8] {
        let length = payload.count
        var out: [UInt8] = [UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), type, flags]
        out += withUnsafeBytes(of: (streamID & 0x7fff_ffff).bigEndian, Array.init)
        return out + payload
    }
}

/// Builds client frames by hand, for hostile tests nghttp2's own client would never send.
enum Wire {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    static func settings(_ entries: [(UInt16, UInt32)] = []) -> [UInt8] {
        var payload: [UInt8] = []
        for (id, value) in entries {
            payload += withUnsafeBytes(of: id.bigEndian, Array.init) + withUnsafeBytes(of: value.bigEndian, Array.init)
        }
        return RawFrame(type: RawFrame.settings, flags: 0, streamID: 0, payload: payload).bytes
    }

    static func headers(streamID: UInt32, block: [UInt8], endStream: Bool, endHeaders: Bool = true) -> [UInt8] {
        let flags = (endStream ? RawFrame.endStream : 0) | (endHeaders ? RawFrame.endHeaders : 0)
        return RawFrame(type: RawFrame.headers, flags: flags, streamID: streamID, payload: block).bytes
    }

    static func continuation(streamID: UInt32, block: [UInt8], endHeaders: Bool) -> [UInt8] {
        RawFrame(type: RawFrame.continuation, flags: endHeaders ? RawFrame.endHeaders : 0, streamID: streamID, payload: block).bytes
    }

    /// DATA frames carrying `count` bytes, at most 16 KiB (the default SETTINGS_MAX_FRAME_SIZE) each.
    static func data(streamID: UInt32, count: Int, endStream: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        var left = count
        repeat {
            let length = min(left, 16 * 1024)
            left -= length
            let flags = endStream && left == 0 ? RawFrame.endStream : 0
            out += RawFrame(type: RawFrame.data, flags: flags, streamID: streamID, payload: Array(repeating: 0x62, count: length)).bytes
        } while left > 0
        return out
    }

    static func ping(_ payload: [UInt8]) -> [UInt8] {
        RawFrame(type: RawFrame.ping, flags: 0, streamID: 0, payload: payload).bytes
    }

    static func rstStream(streamID: UInt32, errorCode: UInt32) -> [UInt8] {
        RawFrame(type: RawFrame.rstStream, flags: 0, streamID: streamID, payload: withUnsafeBytes(of: errorCode.bigEndian, Array.init)).bytes
    }

    /// A request header block (HPACK literals without indexing, no Huffman: stateless and simple).
    static func requestBlock(path: String, extra: [(String, String)] = []) -> [UInt8] {
        let fields = [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost")] + extra
        return fields.flatMap { literal($0.0, $0.1) }
    }

    /// HPACK "literal header field without indexing, new name" (RFC 7541 §6.2.2).
    static func literal(_ name: String, _ value: String) -> [UInt8] {
        [0x00] + string(Array(name.utf8)) + string(Array(value.utf8))
    }

    private static func string(_ bytes: [UInt8]) -> [UInt8] {
        integer(bytes.count, prefixBits: 7) + bytes
    }

    /// HPACK integer with an N-bit prefix (RFC 7541 §5.1); the prefix's other bits are 0 (no Huffman).
    private static func integer(_ value: Int, prefixBits: Int) -> [UInt8] {
        let limit = (1 << prefixBits) - 1
        if value < limit { return [UInt8(value)] }
        var out = [UInt8(limit)]
        var rest = value - limit
        while rest >= 128 {
            out.append(UInt8(rest % 128 + 128))
            rest /= 128
        }
        out.append(UInt8(rest))
        return out
    }
}

/// A client socket that sends raw bytes and parses what the server answers into frames.
final class RawHTTP2Connection: Sendable {
    struct Snapshot: Sendable {
        var frames: [RawFrame]
        var closed: Bool
    }

    private let channel: any Channel
    private let collector: FrameCollector

    private init(channel: any Channel, collector: FrameCollector) {
        self.channel = channel
        self.collector = collector
    }

    static func connect(to address: SocketAddress) async throws -> RawHTTP2Connection {
        let collector = FrameCollector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(CollectingHandler(collector: collector))
                }
            }
            .connect(to: address).get()
        return RawHTTP2Connection(channel: channel, collector: collector)
    }

    func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
    }

    /// Sends, ignoring failure (the server may already have closed the socket).
    func trySend(_ bytes: [UInt8]) async {
        try? await send(bytes)
    }

    var snapshot: Snapshot { collector.snapshot }

    /// Waits until `condition` holds for what was received so far.
    @discardableResult
    func waitFor(timeout: Duration = .seconds(60), _ condition: @escaping @Sendable (Snapshot) -> Bool) async throws -> Snapshot {
        try await waitUntil(timeout: timeout) { condition(self.collector.snapshot) }
        return collector.snapshot
    }

    /// Sends a PING and waits for its ACK: everything the server wrote before answering has arrived.
    func roundTrip(_ tag: UInt8) async throws {
        let payload = [UInt8](repeating: tag, count: 8)
        try await send(Wire.ping(payload))
        try await waitFor { $0.frames.contains { $0.type == RawFrame.ping && $0.flags & RawFrame.ack != 0 && $0.payload == payload } }
    }

    func close() async {
        try? await channel.close()
    }
}

extension RawFrame {
    /// The window size increment of a WINDOW_UPDATE frame.
    var windowIncrement: UInt32? {
        type == Self.windowUpdate && payload.count == 4 ? Self.uint32(payload, at: 0) & 0x7fff_ffff : nil
    }
}

private final class FrameCollector: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var frames: [RawFrame] = []
        var closed = false
    }

    private let state = Mutex(State())

    var snapshot: RawHTTP2Connection.Snapshot {
        state.withLock { RawHTTP2Connection.Snapshot(frames: $0.frames, closed: $0.closed) }
    }

    func received(_ bytes: [UInt8]) {
        state.withLock { state in
            state.pending += bytes
            while state.pending.count >= 9 {
                let length = Int(state.pending[0]) << 16 | Int(state.pending[1]) << 8 | Int(state.pending[2])
                guard state.pending.count >= 9 + length else { break }
                let streamID = RawFrame.uint32(state.pending, at: 5) & 0x7fff_ffff
                let frame = RawFrame(
                    type: state.pending[3], flags: state.pending[4], streamID: streamID,
                    payload: Array(state.pending[9 ..< 9 + length]))
                state.frames.append(frame)
                state.pending.removeFirst(9 + length)
            }
        }
    }

    func closed() {
        state.withLock { $0.closed = true }
    }
}

private final class CollectingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let collector: FrameCollector

    init(collector: FrameCollector) {
        self.collector = collector
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        collector.received(buffer.readBytes(length: buffer.readableBytes) ?? [])
    }

    func channelInactive(context: ChannelHandlerContext) {
        collector.closed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var description: String { "condition not met in time" }
}

/// Polls `condition` until it holds; throws `TimedOut` after `timeout` (long: on a busy run a
/// test's task may wait many seconds for a thread, and a condition that holds ends the wait at once).
func waitUntil(timeout: Duration = .seconds(60), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut() }
        try await Task.sleep(for: .milliseconds(5))
    }
}
