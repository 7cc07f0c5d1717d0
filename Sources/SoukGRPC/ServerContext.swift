import NIOConcurrencyHelpers

/// The fully-qualified name of a method, as in the `:path` `/package.Service/Method`.
public struct MethodDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// For example `grpc.health.v1.Health`.
    public var service: String
    /// For example `Check`.
    public var method: String

    public init(service: String, method: String) {
        self.service = service
        self.method = method
    }

    /// `service/method`, as logged.
    public var description: String { "\(service)/\(method)" }
    /// The request path, `/service/method`.
    public var path: String { "/\(service)/\(method)" }
}

/// A key for a value that interceptors attach to a call (for example the authenticated principal).
public protocol ServerContextKey {
    associatedtype Value: Sendable
}

/// What a handler knows about its call, and the response metadata it sets.
public final class ServerContext: Sendable {
    /// The method being called.
    public let method: MethodDescriptor
    /// The client's custom metadata (reserved and pseudo headers removed; `-bin` values decoded).
    public let requestMetadata: Metadata
    /// The client's address, for example `ipv4:127.0.0.1:53422`.
    public let peer: String
    /// When the call must end, from `grpc-timeout`; nil when the client set none.
    public let deadline: ContinuousClock.Instant?

    private struct Mutable {
        var responseHeaders = Metadata()
        var responseTrailers = Metadata()
        var requestWasCompressed = false
        var compressResponse: Bool?
        var values: [ObjectIdentifier: any Sendable] = [:]
    }
    private let state = NIOLockedValueBox(Mutable())

    public init(method: MethodDescriptor, requestMetadata: Metadata, peer: String, deadline: ContinuousClock.Instant?) {
        self.method = method
        self.requestMetadata = requestMetadata
        self.peer = peer
        self.deadline = deadline
    }

    /// Initial metadata sent with the response headers; set it before the first response message.
    public var responseHeaders: Metadata {
        get { state.withLockedValue { $0.responseHeaders } }
        set { state.withLockedValue { $0.responseHeaders = newValue } }
    }

    /// Trailing metadata sent with the status.
    public var responseTrailers: Metadata {
        get { state.withLockedValue { $0.responseTrailers } }
        set { state.withLockedValue { $0.responseTrailers = newValue } }
    }

    /// Whether the most recent request message arrived with the compressed flag set.
    public var requestWasCompressed: Bool {
        get { state.withLockedValue { $0.requestWasCompressed } }
        set { state.withLockedValue { $0.requestWasCompressed = newValue } }
    }

    /// Whether to compress response messages (with gzip, and only when the client accepts it).
    /// nil means the default: compress when the request was compressed. For streaming calls,
    /// `RPCWriter.write(_:compress:)` overrides it per message.
    public var compressResponse: Bool? {
        get { state.withLockedValue { $0.compressResponse } }
        set { state.withLockedValue { $0.compressResponse = newValue } }
    }

    /// A value attached to the call by an interceptor.
    public subscript<Key: ServerContextKey>(_ key: Key.Type) -> Key.Value? {
        get { state.withLockedValue { $0.values[ObjectIdentifier(key)] as? Key.Value } }
        set { state.withLockedValue { $0.values[ObjectIdentifier(key)] = newValue } }
    }
}
