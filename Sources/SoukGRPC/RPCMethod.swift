import NIOCore
import SoukMessages

/// The four gRPC call shapes.
public enum RPCKind: Sendable {
    case unary
    case serverStreaming
    case clientStreaming
    case bidirectionalStreaming
}

/// The request messages of a client- or bidirectional-streaming call, in arrival order.
/// The sequence ends when the client half-closes, and throws if the call fails or is cancelled.
///
/// Messages are pulled as the handler reads them: while it does not read, the client is held back
/// by HTTP/2 flow control rather than buffered without bound. Read it from one task at a time.
public struct RPCReader<Element: Sendable>: AsyncSequence, Sendable {
    private let makeIterator: @Sendable () -> AsyncIterator

    /// A reader over the elements of `base` (for tests and adapters).
    public init(_ base: AsyncThrowingStream<Element, any Error>) {
        makeIterator = { AsyncIterator(base.makeAsyncIterator()) }
    }

    /// A reader whose iterators come from `makeIterator`.
    init(_ makeIterator: @escaping @Sendable () -> AsyncIterator) {
        self.makeIterator = makeIterator
    }

    public func makeAsyncIterator() -> AsyncIterator {
        makeIterator()
    }

    /// `first`, then the messages `rest` has still to give: a call that looked at its first
    /// request before handing the stream on. Read it once, from one task at a time.
    public init(first: Element, then rest: AsyncIterator) {
        nonisolated(unsafe) let rest = rest
        makeIterator = {
            var pending: Element? = first
            var base = rest
            return AsyncIterator {
                if let element = pending {
                    pending = nil
                    return element
                }
                return try await base.next()
            }
        }
    }

    /// The same messages transformed as they are read (used to decode raw bytes into typed messages).
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Element) throws -> T) -> RPCReader<T> {
        let makeIterator = self.makeIterator
        return RPCReader<T> {
            var base = makeIterator()
            return RPCReader<T>.AsyncIterator {
                guard let element = try await base.next() else { return nil }
                return try transform(element)
            }
        }
    }

    /// Pulls the messages one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let pull: () async throws -> Element?

        init(_ pull: @escaping () async throws -> Element?) {
            self.pull = pull
        }

        init(_ base: AsyncThrowingStream<Element, any Error>.AsyncIterator) {
            var base = base
            self.init { try await base.next() }
        }

        public mutating func next() async throws -> Element? {
            try await pull()
        }
    }
}

/// Sends the response messages of a server- or bidirectional-streaming call.
public struct RPCWriter<Element: Sendable>: Sendable {
    private let send: @Sendable (Element, Bool?) async throws -> Void
    private let queue: (@Sendable (Element, Bool?, Int) async throws -> Int)?
    private let headers: (@Sendable () async throws -> Void)?
    /// Writes a message encoded already (see `write(encoded:sequence:compress:queueLimit:)`).
    private let encoded: EncodedWrite?
    /// Hands the call over to a `DetachedCall` (see `detach()`).
    private let detacher: (@Sendable () -> DetachedCall?)?

    /// Takes an encoded message, a number its writer may track it by (a Watch event's
    /// sequence), its compression choice and the queue limit (nil: send and wait for the
    /// transport); returns what `write(_:queueLimit:)` returns (-1 when sent without a limit).
    public typealias EncodedWrite = @Sendable (ByteBuffer, Int64, Bool?, Int?) async throws -> Int

    /// `send` takes a message and the per-message compression choice (nil: the call's default).
    /// A writer made this way queues (`write(_:queueLimit:)`) by sending.
    public init(_ send: @escaping @Sendable (Element, Bool?) async throws -> Void) {
        self.send = send
        self.queue = nil
        self.headers = nil
        self.encoded = nil
        self.detacher = nil
    }

    /// A writer whose `queue` takes a message, its compression choice and the queue limit, and
    /// returns how many of the call's messages have gone out (see `write(_:queueLimit:)`), and
    /// whose `headers` sends the response headers (see `sendHeaders`).
    public init(
        send: @escaping @Sendable (Element, Bool?) async throws -> Void,
        queue: (@Sendable (Element, Bool?, Int) async throws -> Int)?,
        headers: (@Sendable () async throws -> Void)?,
        encoded: EncodedWrite? = nil,
        detach: (@Sendable () -> DetachedCall?)? = nil
    ) {
        self.send = send
        self.queue = queue
        self.headers = headers
        self.encoded = encoded
        self.detacher = detach
    }

    /// Hands the call over to the returned `DetachedCall`: when the handler returns afterwards,
    /// the call stays open, and whoever holds the `DetachedCall` queues its messages and ends it
    /// from the call's event loop. A stream that waits for events thus needs no task while it
    /// waits. Call it after the last `write` of the handler, once. Nil when the transport cannot
    /// (a writer made from closures); the handler then goes on writing.
    public func detach() -> DetachedCall? {
        detacher?()
    }

    /// Sends the response headers now, before any message (a no-op once they went out): the
    /// client learns that the call is under way, for example that a stream is positioned and
    /// delivers what commits from then on.
    public func sendHeaders() async throws {
        try await headers?()
    }

    /// Sends one message. `compress` overrides the call's compression for this message.
    /// Suspends while the transport's buffers are full; throws if the call has ended.
    public func write(_ message: Element, compress: Bool? = nil) async throws {
        try await send(message, compress)
    }

    /// Queues one message without waiting for the client to read the ones before it, and
    /// returns how many of the call's messages have gone out so far (all of them but those still
    /// queued). When earlier messages already wait in the queue and this one would take it over
    /// `queueLimit` bytes, the client is not reading: the queued messages no byte of which went
    /// out are dropped, this one is not queued, the call is to end now (its status goes out
    /// ahead of the dropped messages, even while the client's window is shut), and this throws
    /// `ResponseQueueOverflow` with the number of the call's messages that do reach the client.
    @discardableResult
    public func write(_ message: Element, compress: Bool? = nil, queueLimit: Int) async throws -> Int {
        guard let queue else {
            try await send(message, compress)
            return -1
        }
        return try await queue(message, compress, queueLimit)
    }

    /// A writer that transforms each message before sending (used to encode typed messages).
    public func map<T: Sendable>(_ transform: @escaping @Sendable (T) -> Element) -> RPCWriter<T> {
        let send = self.send
        let sendT: @Sendable (T, Bool?) async throws -> Void = { message, compress in try await send(transform(message), compress) }
        var queueT: (@Sendable (T, Bool?, Int) async throws -> Int)?
        if let queue = self.queue {
            queueT = { message, compress, limit in try await queue(transform(message), compress, limit) }
        }
        return RPCWriter<T>(send: sendT, queue: queueT, headers: headers, encoded: encoded, detach: detacher)
    }

    /// Writes a message encoded already (protobuf bytes, best made by `RPCWriter.encode`), so
    /// that one event delivered to many calls is encoded once for all of them. `sequence` is the
    /// number a Watch writer tracks the message by (its event's sequence). With `queueLimit`,
    /// queues as `write(_:queueLimit:)` does and returns the same; without, sends as
    /// `write(_:)` does and returns -1. `decode` makes the typed message for a writer that
    /// takes no encoded messages (one made from closures over typed messages).
    @discardableResult
    public func write(
        encoded message: ByteBuffer, sequence: Int64, compress: Bool? = nil, queueLimit: Int? = nil,
        decode: () throws -> Element
    ) async throws -> Int {
        if let encoded { return try await encoded(message, sequence, compress, queueLimit) }
        if let queueLimit { return try await write(try decode(), compress: compress, queueLimit: queueLimit) }
        try await write(try decode(), compress: compress)
        return -1
    }
}

extension RPCWriter where Element == ByteBuffer {
    /// The typed writer over this one of a typed method: it encodes each message, and writes
    /// encoded messages (`write(encoded:…)`) as they are.
    func typed<T: ProtoMessage>(_: T.Type) -> RPCWriter<T> {
        let send = self.send
        let queue = self.queue
        let direct: EncodedWrite = { message, _, compress, limit in
            if let limit, let queue { return try await queue(message, compress, limit) }
            try await send(message, compress)
            return -1
        }
        let sendT: @Sendable (T, Bool?) async throws -> Void = { message, compress in
            try await send(SoukGRPC.encode(message), compress)
        }
        var queueT: (@Sendable (T, Bool?, Int) async throws -> Int)?
        if let queue {
            queueT = { message, compress, limit in try await queue(SoukGRPC.encode(message), compress, limit) }
        }
        return RPCWriter<T>(send: sendT, queue: queueT, headers: headers, encoded: encoded ?? direct, detach: detacher)
    }

    /// A message encoded for `write(encoded:…)`: with room for the gRPC prefix before it, and
    /// the uncompressed prefix written there, so that framing it for each call copies nothing.
    public static func encode<M: ProtoMessage>(_ message: M) -> ByteBuffer {
        var buffer = SoukGRPC.encode(message)
        let start = buffer.readerIndex
        buffer.setInteger(UInt8(0), at: start - GRPCFraming.prefixLength)
        buffer.setInteger(UInt32(buffer.readableBytes), at: start - GRPCFraming.prefixLength + 1)
        return buffer
    }
}

/// A response queue went over its limit (`RPCWriter.write(_:queueLimit:)`): the client does not
/// read. The call is ending; its first `deliveredMessages` messages reach the client.
public struct ResponseQueueOverflow: Error, Sendable {
    public let deliveredMessages: Int

    public init(deliveredMessages: Int) {
        self.deliveredMessages = deliveredMessages
    }
}

/// A method's body over packed messages (protobuf bytes, uncompressed, without the gRPC prefix).
///
/// Async bodies are `nonisolated(nonsending)`: they run on the executor of the call's
/// task, so a call that never suspends makes no executor switch (each switch takes a lock in the
/// runtime). A function reference passed as a body must be declared `nonisolated(nonsending)` too:
/// Swift 6.3.1's type checker crashes converting a plain `async` function to this type.
public enum RPCHandler: Sendable {
    case unary(_: nonisolated(nonsending) @Sendable (ByteBuffer, ServerContext) async throws -> ByteBuffer)
    case serverStreaming(_: nonisolated(nonsending) @Sendable (ByteBuffer, RPCWriter<ByteBuffer>, ServerContext) async throws -> Void)
    case clientStreaming(_: nonisolated(nonsending) @Sendable (RPCReader<ByteBuffer>, ServerContext) async throws -> ByteBuffer)
    case bidirectionalStreaming(_: nonisolated(nonsending) @Sendable (RPCReader<ByteBuffer>, RPCWriter<ByteBuffer>, ServerContext) async throws -> Void)
    /// A unary body that never waits: it runs on the connection's event loop as soon as the
    /// request has arrived, without a task (see `RPCMethod.synchronousUnary`).
    case synchronousUnary(_: @Sendable (ByteBuffer, ServerContext) throws -> ByteBuffer)

    public var kind: RPCKind {
        switch self {
        case .unary, .synchronousUnary: .unary
        case .serverStreaming: .serverStreaming
        case .clientStreaming: .clientStreaming
        case .bidirectionalStreaming: .bidirectionalStreaming
        }
    }
}

/// One method of a service: its name and its handler.
public struct RPCMethod: Sendable {
    /// The method's name within its service, for example `Check`.
    public let name: String
    public let handler: RPCHandler

    public init(name: String, handler: RPCHandler) {
        self.name = name
        self.handler = handler
    }

    public var kind: RPCKind { handler.kind }

    /// A unary method over typed messages.
    public static func unary<Request: ProtoMessage, Response: ProtoMessage>(
        _ name: String,
        _ body: nonisolated(nonsending) @escaping @Sendable (Request, ServerContext) async throws -> Response
    ) -> RPCMethod {
        RPCMethod(name: name, handler: .unary { bytes, context in
            encode(try await body(try decode(Request.self, bytes), context))
        })
    }

    /// A unary method over typed messages whose body neither waits nor blocks (no `await`, no
    /// disk or network I/O, no long computation).
    ///
    /// It runs on the connection's event loop when the request has arrived, inside the
    /// interceptors, without starting a task; a task per call is most of the cost of a small call.
    /// While it runs, the connection's other streams wait, so anything that may block belongs in `unary`.
    public static func synchronousUnary<Request: ProtoMessage, Response: ProtoMessage>(
        _ name: String,
        _ body: @escaping @Sendable (Request, ServerContext) throws -> Response
    ) -> RPCMethod {
        RPCMethod(name: name, handler: .synchronousUnary { bytes, context in
            encode(try body(try decode(Request.self, bytes), context))
        })
    }

    /// A server-streaming method over typed messages.
    public static func serverStreaming<Request: ProtoMessage, Response: ProtoMessage>(
        _ name: String,
        _ body: nonisolated(nonsending) @escaping @Sendable (Request, RPCWriter<Response>, ServerContext) async throws -> Void
    ) -> RPCMethod {
        RPCMethod(name: name, handler: .serverStreaming { bytes, writer, context in
            try await body(try decode(Request.self, bytes), writer.typed(Response.self), context)
        })
    }

    /// A client-streaming method over typed messages.
    public static func clientStreaming<Request: ProtoMessage, Response: ProtoMessage>(
        _ name: String,
        _ body: nonisolated(nonsending) @escaping @Sendable (RPCReader<Request>, ServerContext) async throws -> Response
    ) -> RPCMethod {
        RPCMethod(name: name, handler: .clientStreaming { reader, context in
            encode(try await body(reader.map { try decode(Request.self, $0) }, context))
        })
    }

    /// A bidirectional-streaming method over typed messages.
    public static func bidirectionalStreaming<Request: ProtoMessage, Response: ProtoMessage>(
        _ name: String,
        _ body: nonisolated(nonsending) @escaping @Sendable (RPCReader<Request>, RPCWriter<Response>, ServerContext) async throws -> Void
    ) -> RPCMethod {
        RPCMethod(name: name, handler: .bidirectionalStreaming { reader, writer, context in
            try await body(reader.map { try decode(Request.self, $0) }, writer.typed(Response.self), context)
        })
    }
}

/// Unpacks a request; bytes that are not a valid message end the call as INTERNAL, as gRPC specifies.
package func decode<M: ProtoMessage>(_ type: M.Type, _ buffer: ByteBuffer) throws -> M {
    do {
        return try buffer.withUnsafeReadableBytes { try M(decoding: $0) }
    } catch let error as ProtoDecodingError {
        throw RPCError(.internalError, "could not decode request: \(error)")
    }
}

/// Packs a response straight into a new buffer, leaving room before it for the gRPC message prefix
/// so that framing does not copy it.
package func encode<M: ProtoMessage>(_ message: M) -> ByteBuffer {
    var encoded: ByteBuffer?
    message.withPacker { size, pack in
        var buffer = GRPCFraming.bufferWithPrefixRoom(capacity: size)
        if size > 0 {
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { destination in
                pack(destination.baseAddress!)
                return size
            }
        }
        encoded = buffer
    }
    return encoded!
}

/// A gRPC service: its fully-qualified name and its methods.
public protocol RPCService: Sendable {
    /// For example `grpc.health.v1.Health`.
    var serviceName: String { get }
    var methods: [RPCMethod] { get }
}

/// Code that runs around every call: logging, metrics, authentication, authorization.
///
/// Both hooks are synchronous and run on the call's thread: before the handler (outermost
/// interceptor first) and once the call's outcome is known (innermost first). They must not block.
public protocol ServerInterceptor: Sendable {
    /// Runs before the handler. Throw an `RPCError` to refuse the call: the handler and the
    /// interceptors after this one do not run, and the error is the call's status.
    func callStarted(_ context: ServerContext) throws(RPCError)
    /// Runs once the call has its status (nil: OK), for every interceptor whose `callStarted`
    /// returned. Not run when the call ended before its handler was due (a bad request, an
    /// expired deadline, a reset stream).
    func callEnded(_ context: ServerContext, status: RPCError?)
}

extension ServerInterceptor {
    /// Lets every call through.
    public func callStarted(_ context: ServerContext) throws(RPCError) {}
    /// Does nothing when a call ends.
    public func callEnded(_ context: ServerContext, status: RPCError?) {}
}
