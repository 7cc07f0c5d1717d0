import Logging
import NIOCore
import SoukHTTP2

/// Serves gRPC calls on HTTP/2 streams: picks the method from `:path` and runs it.
///
/// ```swift
/// let router = GRPCRouter(
///     services: [HealthService(), OrdersService(store: store)],
///     interceptors: [LoggingInterceptor(logger: logger), MetricsInterceptor()],
///     configuration: .init(maxReceiveMessageSize: 8 << 20),
///     logger: logger
/// )
/// ```
/// Interceptors run in the order given: the first one is the outermost.
public struct GRPCRouter: HTTP2StreamRouter {
    /// Limits and policies for every call.
    public struct Configuration: Sendable {
        /// The largest request message accepted, in bytes (after decompression);
        /// a larger one ends the call with RESOURCE_EXHAUSTED. Default 4 MiB, as in gRPC.
        public var maxReceiveMessageSize: Int
        /// The largest response message sent, in bytes (before compression); nil for no limit.
        /// A larger one ends the call with RESOURCE_EXHAUSTED.
        public var maxSendMessageSize: Int?
        /// Where each async handler's task starts (`synchronousUnary` methods always run on the
        /// event loop, with no task). Default `.eventLoop`.
        public var handlers: HandlerPlacement
        /// Bounds the calls in progress and refuses the excess (see `AdmissionControl`); nil: no bound.
        public var admission: AdmissionControl?

        public init(
            maxReceiveMessageSize: Int = 4 * 1024 * 1024,
            maxSendMessageSize: Int? = nil,
            handlers: HandlerPlacement = .eventLoop,
            admission: AdmissionControl? = nil
        ) {
            precondition(maxReceiveMessageSize >= 0, "maxReceiveMessageSize must not be negative")
            self.maxReceiveMessageSize = maxReceiveMessageSize
            self.maxSendMessageSize = maxSendMessageSize
            self.handlers = handlers
            self.admission = admission
        }
    }

    /// Where the task of an async handler (with the interceptors before it) runs.
    public enum HandlerPlacement: Sendable {
        /// `Task.immediate` on the event loop's thread until the first suspension (a call that
        /// never suspends costs no thread hop), then the global executor. Only for handlers that
        /// never block: every stream of every connection on that loop waits while one does.
        case eventLoop
        /// A task on the global executor (one thread per CPU, which must not block either).
        case globalExecutor
        /// A task that prefers these threads: the handler, its interceptors and all it awaits run
        /// there, never on an event loop, and may block (read the store).
        case threads(HandlerThreads)
    }

    let core: RouterCore

    /// A router over these services. Two methods with the same path are a programming error.
    /// `errorStatus` completes every error status before it is sent.
    public init(
        services: [any RPCService],
        interceptors: [any ServerInterceptor] = [],
        errorStatus: (any ErrorStatusCompleter)? = nil,
        configuration: Configuration = Configuration(),
        logger: Logger
    ) {
        core = RouterCore(
            services: services, interceptors: interceptors, errorStatus: errorStatus, configuration: configuration, logger: logger)
    }

    /// The configuration every call uses.
    public var configuration: Configuration { core.configuration }

    /// The kind of the method served at `path` (`/package.Service/Method`); nil when none is.
    public func kind(atPath path: String) -> RPCKind? {
        core.methods[path]?.handler.kind
    }

    /// Every method served, for example to list them in reflection or logs.
    public var methods: [MethodDescriptor] { core.methods.values.map(\.descriptor).sorted { $0.path < $1.path } }

    public func openStream(
        _ stream: any HTTP2ResponseStream,
        headers: [HTTP2Header],
        endStream: Bool
    ) -> any HTTP2StreamHandler {
        let head = RequestHead(headers)
        switch core.accept(head) {
        case .success(let call):
            let handler = GRPCStreamHandler(core: core, stream: stream, head: head, call: call)
            handler.start(endStream: endStream)
            return handler
        case .failure(let refusal):
            core.logger.debug(
                "refused request",
                metadata: [
                    "path": "\(head.path ?? "")", "http_status": "\(refusal.httpStatus)",
                    "grpc_status": "\(refusal.status.code)", "message": "\(refusal.status.message)",
                ]
            )
            return refuse(stream, status: refusal.status, httpStatus: refusal.httpStatus)
        }
    }

    /// Answers a request with `status` alone (a Trailers-Only response) and ignores its body.
    public func refuse(_ stream: any HTTP2ResponseStream, status: RPCError, httpStatus: String = "200") -> any HTTP2StreamHandler {
        let block = ResponseHeaders.trailersOnly(status: status, metadata: Metadata(), httpStatus: httpStatus)
        stream.sendHeaders(block.headers, endStream: true)
        return DiscardingStreamHandler(stream: stream)
    }
}

/// One registered method.
final class RegisteredMethod: Sendable {
    let descriptor: MethodDescriptor
    let handler: RPCHandler

    init(descriptor: MethodDescriptor, handler: RPCHandler) {
        self.descriptor = descriptor
        self.handler = handler
    }
}

/// What an accepted request calls, and how its messages are encoded.
struct AcceptedCall {
    let method: RegisteredMethod
    /// nil when the request messages are not compressed (no `grpc-encoding`, or identity).
    let requestEncoding: CompressionAlgorithm?
    /// gzip when the client can read it (it sent gzip, or lists it in `grpc-accept-encoding`).
    let responseEncoding: CompressionAlgorithm?
}

/// The router's shared, immutable state; one reference per call.
final class RouterCore: Sendable {
    let methods: PathTable<RegisteredMethod>
    let serviceNames: Set<String>
    let interceptors: InterceptorChain
    let errorStatus: (any ErrorStatusCompleter)?
    let configuration: GRPCRouter.Configuration
    let logger: Logger
    /// A `TracingInterceptor` is in the chain: handlers run with their call's span. Read first,
    /// so that untraced servers pay no lookup per call.
    let tracesCalls: Bool

    init(
        services: [any RPCService],
        interceptors: [any ServerInterceptor],
        errorStatus: (any ErrorStatusCompleter)?,
        configuration: GRPCRouter.Configuration,
        logger: Logger
    ) {
        var methods: [String: RegisteredMethod] = [:]
        var serviceNames = Set<String>()
        for service in services {
            serviceNames.insert(service.serviceName)
            for method in service.methods {
                let descriptor = MethodDescriptor(service: service.serviceName, method: method.name)
                precondition(methods[descriptor.path] == nil, "\(descriptor) is registered twice")
                methods[descriptor.path] = RegisteredMethod(descriptor: descriptor, handler: method.handler)
            }
        }
        self.methods = PathTable(methods)
        self.serviceNames = serviceNames
        self.tracesCalls = interceptors.contains { $0 is TracingInterceptor }
        self.interceptors = InterceptorChain(interceptors)
        self.errorStatus = errorStatus
        self.configuration = configuration
        self.logger = logger
    }

    /// Checks a request in the order grpc-go does: content type (415), unreadable headers (400),
    /// method (405), then path (UNIMPLEMENTED) and encoding (UNIMPLEMENTED).
    func accept(_ head: RequestHead) -> Result<AcceptedCall, RequestRefusal> {
        guard let contentType = head.contentType, RequestHead.isGRPCContentType(contentType) else {
            return .failure(RequestRefusal(
                httpStatus: "415",
                status: RPCError(.invalidArgument, "invalid gRPC request content-type \"\(head.contentType ?? "")\"")))
        }
        if let error = head.headerError {
            return .failure(RequestRefusal(httpStatus: "400", status: error))
        }
        guard head.httpMethod == "POST" else {
            return .failure(RequestRefusal(
                httpStatus: "405",
                status: RPCError(.internalError, "invalid gRPC request method \"\(head.httpMethod ?? "")\", which should be POST")))
        }
        let path = head.path ?? ""
        guard let method = methods[path] else {
            return .failure(RequestRefusal(httpStatus: "200", status: unimplemented(path)))
        }
        var requestEncoding: CompressionAlgorithm?
        if let name = head.encoding {
            guard let algorithm = CompressionAlgorithm(headerValue: name) else {
                return .failure(RequestRefusal(
                    httpStatus: "200",
                    status: RPCError(
                        .unimplemented,
                        "grpc-encoding \"\(name)\" is not supported; supported: \(CompressionAlgorithm.acceptEncodingHeaderValue)")))
            }
            requestEncoding = algorithm == .identity ? nil : algorithm
        }
        let clientReadsGzip = requestEncoding == .gzip || (head.acceptEncoding.map { CompressionAlgorithm.gzip.isListed(in: $0) } ?? false)
        return .success(AcceptedCall(
            method: method, requestEncoding: requestEncoding, responseEncoding: clientReadsGzip ? .gzip : nil))
    }

    private func unimplemented(_ path: String) -> RPCError {
        // "/service/method"
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            return RPCError(.unimplemented, "malformed method name: \"\(path)\"")
        }
        if serviceNames.contains(String(parts[1])) {
            return RPCError(.unimplemented, "unknown method \(parts[2]) for service \(parts[1])")
        }
        return RPCError(.unimplemented, "unknown service \(parts[1])")
    }
}

/// The handler of a request already answered (a refused stream): the rest of its body is
/// ignored, and so consumed at once.
public final class DiscardingStreamHandler: HTTP2StreamHandler {
    private var stream: (any HTTP2ResponseStream)?

    public init(stream: any HTTP2ResponseStream) {
        self.stream = stream
    }

    public func receiveData(_ data: ByteBuffer, endStream: Bool) { stream?.consumed(data.readableBytes) }
    public func receiveTrailers(_ trailers: [HTTP2Header]) {}
    public func streamClosed(_ reason: HTTP2StreamCloseReason) { stream = nil }
}
