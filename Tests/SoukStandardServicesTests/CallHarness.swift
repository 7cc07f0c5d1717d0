import NIOCore
import SoukGRPC
import SoukMessages
import Synchronization
import Testing

/// Calls a service's handlers directly, as the dispatcher would, over packed messages.
struct CallHarness {
    let service: any RPCService

    func method(_ name: String) throws -> RPCMethod {
        try #require(service.methods.first { $0.name == name }, "no method \(name)")
    }

    func context(_ method: String, metadata: Metadata = Metadata(), compressed: Bool = false) -> ServerContext {
        let context = ServerContext(
            method: MethodDescriptor(service: service.serviceName, method: method),
            requestMetadata: metadata, peer: "ipv4:127.0.0.1:1", deadline: nil)
        context.requestWasCompressed = compressed
        return context
    }

    func unary<Response: ProtoMessage>(
        _ name: String, _ request: some ProtoMessage, context: ServerContext? = nil, as: Response.Type = Response.self
    ) async throws -> Response {
        let bytes = ByteBuffer(bytes: request.encoded())
        let context = context ?? self.context(name)
        let reply: ByteBuffer
        switch try method(name).handler {
        case .unary(let handler): reply = try await handler(bytes, context)
        case .synchronousUnary(let handler): reply = try handler(bytes, context)
        default: throw HarnessError("\(name) is not unary")
        }
        return try Response(decoding: Array(reply.readableBytesView))
    }

    func serverStreaming<Response: ProtoMessage>(
        _ name: String, _ request: some ProtoMessage, context: ServerContext? = nil, as: Response.Type = Response.self
    ) async throws -> [Sent<Response>] {
        guard case .serverStreaming(let handler) = try method(name).handler else {
            throw HarnessError("\(name) is not server-streaming")
        }
        let sink = Sink<Response>()
        try await handler(ByteBuffer(bytes: request.encoded()), sink.writer, context ?? self.context(name))
        return sink.sent
    }

    func clientStreaming<Response: ProtoMessage>(
        _ name: String, _ requests: [some ProtoMessage], context: ServerContext? = nil, as: Response.Type = Response.self
    ) async throws -> Response {
        guard case .clientStreaming(let handler) = try method(name).handler else {
            throw HarnessError("\(name) is not client-streaming")
        }
        let reply = try await handler(reader(requests), context ?? self.context(name))
        return try Response(decoding: Array(reply.readableBytesView))
    }

    /// Sends every request, half-closes, and collects what the handler wrote before it returned or threw.
    func bidirectional<Response: ProtoMessage>(
        _ name: String, _ requests: [some ProtoMessage], context: ServerContext? = nil, sink: Sink<Response> = Sink()
    ) async throws -> [Sent<Response>] {
        guard case .bidirectionalStreaming(let handler) = try method(name).handler else {
            throw HarnessError("\(name) is not bidirectional")
        }
        try await handler(reader(requests), sink.writer, context ?? self.context(name))
        return sink.sent
    }

    func reader(_ requests: [some ProtoMessage]) -> RPCReader<ByteBuffer> {
        let (stream, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        for request in requests { continuation.yield(ByteBuffer(bytes: request.encoded())) }
        continuation.finish()
        return RPCReader(stream)
    }
}

/// One message a handler wrote, and its compression choice.
struct Sent<Message: ProtoMessage>: Equatable, Sendable {
    var message: Message
    var compress: Bool?
}

/// Collects the messages a handler writes.
final class Sink<Message: ProtoMessage>: Sendable {
    private let box = Mutex<[Sent<Message>]>([])
    /// Called after each message is collected.
    private let onWrite: @Sendable (Sent<Message>) -> Void

    init(onWrite: @escaping @Sendable (Sent<Message>) -> Void = { _ in }) {
        self.onWrite = onWrite
    }

    var sent: [Sent<Message>] { box.withLock { $0 } }

    var writer: RPCWriter<ByteBuffer> {
        RPCWriter { [self] buffer, compress in
            let sent = Sent(message: try Message(decoding: Array(buffer.readableBytesView)), compress: compress)
            box.withLock { $0.append(sent) }
            onWrite(sent)
        }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
