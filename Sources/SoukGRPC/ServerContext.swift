import NIOCore
import Synchronization

/// The fully-qualified name of a method, as in the `:path` `/package.Service/Method`.
///
/// Its hash is computed once, when it is made: calls look their method up in several tables
/// (metrics, access rules), and hashing both names each time was a measurable part of a call.
public struct MethodDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// For example `grpc.health.v1.Health`.
    public let service: String
    /// For example `Check`.
    public let method: String
    private let nameHash: Int

    public init(service: String, method: String) {
        self.service = service
        self.method = method
        var hasher = Hasher()
        hasher.combine(service)
        hasher.combine(method)
        nameHash = hasher.finalize()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(nameHash)
    }

    public static func == (lhs: MethodDescriptor, rhs: MethodDescriptor) -> Bool {
        lhs.nameHash == rhs.nameHash && lhs.method == rhs.method && lhs.service == rhs.service
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
    /// The client's address, for example `ipv4:127.0.0.1:53422`. Described on first use: most
    /// calls never read it, and formatting an address costs more than the rest of a small call.
    public var peer: String {
        switch source {
        case .described(let description): description
        case .address(let address): Self.describe(address)
        }
    }
    private let source: PeerSource
    /// When the call must end, from `grpc-timeout`; nil when the client set none.
    public let deadline: ContinuousClock.Instant?
    /// When the request's headers were read; call durations are measured from it.
    public let started: ContinuousClock.Instant
    /// How many times the client sent this call before (`grpc-previous-rpc-attempts`; 0 for a
    /// first attempt).
    public let previousAttempts: Int

    private struct Mutable {
        var responseHeaders = Metadata()
        var responseTrailers = Metadata()
        var requestWasCompressed = false
        var compressResponse: Bool?
        var values: [ObjectIdentifier: any Sendable] = [:]
    }
    private let state = Mutex(Mutable())
    /// The call's handler handed it over (`RPCWriter.detach()`), until it ends.
    private let detachment = Mutex<DetachedCall?>(nil)
    /// Ends the call with a status, set by the transport (`end(_:)`).
    private let ender = Mutex<(@Sendable (RPCError) -> Void)?>(nil)

    private enum PeerSource {
        case described(String)
        case address(SocketAddress?)
    }

    public init(
        method: MethodDescriptor, requestMetadata: Metadata, peer: String, deadline: ContinuousClock.Instant?,
        started: ContinuousClock.Instant = .now, previousAttempts: Int = 0
    ) {
        self.method = method
        self.requestMetadata = requestMetadata
        self.source = .described(peer)
        self.deadline = deadline
        self.started = started
        self.previousAttempts = previousAttempts
    }

    /// A context whose `peer` is described from `remoteAddress` when first read.
    public init(
        method: MethodDescriptor,
        requestMetadata: Metadata,
        remoteAddress: SocketAddress?,
        deadline: ContinuousClock.Instant?,
        started: ContinuousClock.Instant = .now,
        previousAttempts: Int = 0
    ) {
        self.method = method
        self.requestMetadata = requestMetadata
        self.source = .address(remoteAddress)
        self.deadline = deadline
        self.started = started
        self.previousAttempts = previousAttempts
    }

    /// The peer as gRPC writes it, for example `ipv4:127.0.0.1:53422`.
    static func describe(_ address: SocketAddress?) -> String {
        guard let address else { return "unknown" }
        switch address {
        case .v4:
            return "ipv4:\(address.ipAddress ?? ""):\(address.port ?? 0)"
        case .v6:
            return "ipv6:[\(address.ipAddress ?? "")]:\(address.port ?? 0)"
        case .unixDomainSocket:
            return "unix:\(address.pathname ?? "")"
        }
    }

    /// Initial metadata sent with the response headers; set it before the first response message.
    public var responseHeaders: Metadata {
        get { state.withLock { $0.responseHeaders } }
        set { state.withLock { $0.responseHeaders = newValue } }
    }

    /// Trailing metadata sent with the status.
    public var responseTrailers: Metadata {
        get { state.withLock { $0.responseTrailers } }
        set { state.withLock { $0.responseTrailers = newValue } }
    }

    /// Whether the most recent request message arrived with the compressed flag set.
    public var requestWasCompressed: Bool {
        get { state.withLock { $0.requestWasCompressed } }
        set { state.withLock { $0.requestWasCompressed = newValue } }
    }

    /// Whether to compress response messages (with gzip, and only when the client accepts it).
    /// nil means the default: compress when the request was compressed. For streaming calls,
    /// `RPCWriter.write(_:compress:)` overrides it per message.
    public var compressResponse: Bool? {
        get { state.withLock { $0.compressResponse } }
        set { state.withLock { $0.compressResponse = newValue } }
    }

    /// The call, when its handler handed it over with `RPCWriter.detach()` and it has not ended:
    /// what runs around the handler (a registry of open streams) then learns of its end through
    /// `DetachedCall.onEnd` instead of the handler's return.
    public internal(set) var detachedCall: DetachedCall? {
        get { detachment.withLock { $0 } }
        set { detachment.withLock { $0 = newValue } }
    }

    /// Whether `end(_:)` can end this call (its transport said how).
    public var canBeEnded: Bool { ender.withLock { $0 != nil } }

    /// Ends the call now with `status`, from any thread: the status goes out at once and the
    /// handler's task is cancelled (what it sends or throws afterwards is ignored). For calls
    /// ended from outside their handler, such as a stream whose session was revoked.
    public func end(_ status: RPCError) {
        ender.withLock { $0 }?(status)
    }

    /// How `end(_:)` ends the call (set once by the transport).
    func setEnder(_ end: @escaping @Sendable (RPCError) -> Void) {
        ender.withLock { $0 = end }
    }

    /// A value attached to the call by an interceptor.
    public subscript<Key: ServerContextKey>(_ key: Key.Type) -> Key.Value? {
        get { state.withLock { $0.values[ObjectIdentifier(key)] as? Key.Value } }
        set { state.withLock { $0.values[ObjectIdentifier(key)] = newValue } }
    }
}
