import NIOCore
import SoukGRPC
import SoukHTTP2

/// A channel's connections to its target, all on one event loop, and the calls waiting for one.
///
/// A call goes to the first connection with a free stream. When every connection is full (the
/// server's SETTINGS_MAX_CONCURRENT_STREAMS) or going away (GOAWAY), the call waits and another
/// connection is made, up to `maxConnections`. A failed connection attempt puts the channel in
/// transient failure: waiting calls without wait-for-ready fail UNAVAILABLE, new ones fail at once,
/// and the next attempt comes after the backoff delay. Touched only on `eventLoop`.
final class ConnectionPool: @unchecked Sendable {
    /// gRPC's connectivity states (doc/connectivity-semantics-and-api.md), less SHUTDOWN's details.
    enum State: Equatable {
        case idle
        case connecting
        case ready
        case transientFailure
        case shutdown
    }

    let eventLoop: any EventLoop
    private let host: String
    private let port: Int
    private let tls: HTTP2ClientTLS?
    private let http2: HTTP2ClientConfiguration
    private let backoff: ConnectionBackoff
    private let maxConnections: Int

    private(set) var state = State.idle
    private var connections: [PooledConnection] = []
    private var connecting = false
    private var waiting = CircularBuffer<CallCore>(initialCapacity: 4)
    private var delays: ConnectionBackoff.Delays?
    private var retryTimer: Scheduled<Void>?
    private var lastFailure = ""
    /// Connections made so far (for tests and statistics).
    private(set) var connectionsMade = 0

    init(
        eventLoop: any EventLoop, host: String, port: Int, tls: HTTP2ClientTLS?, http2: HTTP2ClientConfiguration,
        backoff: ConnectionBackoff, maxConnections: Int
    ) {
        self.eventLoop = eventLoop
        self.host = host
        self.port = port
        self.tls = tls
        self.http2 = http2
        self.backoff = backoff
        self.maxConnections = max(1, maxConnections)
    }

    /// How many connections are open (including those going away).
    var connectionCount: Int { connections.count }

    /// Starts a call: on a free stream now, or once there is one.
    func start(_ call: CallCore) {
        guard !call.isFinished else { return }
        call.armDeadline()
        if state == .shutdown {
            return call.finish(.failed(RPCError(.unavailable, "the channel is closed")))
        }
        if let connection = connectionWithCapacity() {
            return call.open(on: connection)
        }
        if state == .transientFailure, !call.waitForReady {
            return call.finish(.failed(unavailable()))
        }
        waiting.append(call)
        connectIfNeeded()
    }

    private func unavailable() -> RPCError {
        RPCError(.unavailable, "cannot reach \(host):\(port): \(lastFailure)")
    }

    private func connectionWithCapacity() -> HTTP2ClientConnection? {
        for pooled in connections where pooled.connection.availableStreams > 0 {
            return pooled.connection
        }
        return nil
    }

    /// Starts the calls that wait, while streams are free; makes another connection for the rest.
    func drainWaiting() {
        while let call = waiting.first {
            if call.isFinished {
                waiting.removeFirst()
                continue
            }
            guard let connection = connectionWithCapacity() else { break }
            waiting.removeFirst()
            call.open(on: connection)
        }
        if !waiting.isEmpty { connectIfNeeded() }
    }

    private func connectIfNeeded() {
        guard !connecting, retryTimer == nil, state != .shutdown else { return }
        let usable = connections.count { $0.connection.isAcceptingStreams }
        guard usable < maxConnections else { return }
        connect()
    }

    private func connect() {
        connecting = true
        if connections.isEmpty { state = .connecting }
        let started = NIODeadline.now()
        var configuration = http2
        configuration.connectTimeout = max(configuration.connectTimeout, backoff.minimumConnectTimeout)
        HTTP2ClientConnection.connect(host: host, port: port, tls: tls, configuration: configuration, eventLoop: eventLoop)
            .whenComplete { [self] result in
                connecting = false
                switch result {
                case .success(let connection):
                    connected(connection)
                case .failure(let error):
                    connectFailed(error, started: started)
                }
            }
    }

    private func connected(_ connection: HTTP2ClientConnection) {
        guard state != .shutdown else {
            connection.close()
            return
        }
        let pooled = PooledConnection(pool: self, connection: connection)
        connection.setDelegate(pooled)
        connections.append(pooled)
        connectionsMade += 1
        state = .ready
        delays = nil
        drainWaiting()
    }

    private func connectFailed(_ error: any Error, started: NIODeadline) {
        guard state != .shutdown else { return }
        lastFailure = "\(error)"
        if !connections.contains(where: { $0.connection.isAcceptingStreams }) {
            state = .transientFailure
            failWaiting(unlessWaitForReady: true, with: unavailable())
        }
        if delays == nil { delays = backoff.delays() }
        let retryAt = started + TimeAmount(delays!.next())
        retryTimer = eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: retryAt) { [self] in
            retryTimer = nil
            if waiting.isEmpty {
                // Nobody waits: connect again on the next call (calls until then failed fast).
                if state == .transientFailure { state = .idle }
            } else {
                connect()
            }
        }
    }

    private func failWaiting(unlessWaitForReady: Bool, with error: RPCError) {
        var kept = CircularBuffer<CallCore>()
        while let call = waiting.popFirst() {
            if unlessWaitForReady, call.waitForReady, !call.isFinished {
                kept.append(call)
            } else {
                call.finish(.failed(error))
            }
        }
        waiting = kept
    }

    func goAwayReceived(_ pooled: PooledConnection) {
        // New calls go elsewhere; waiting ones may need a new connection now.
        drainWaiting()
    }

    func connectionClosed(_ pooled: PooledConnection, error: (any Error)?) {
        connections.removeAll { $0 === pooled }
        if let error { lastFailure = "\(error)" }
        if connections.isEmpty, state == .ready { state = .idle }
        drainWaiting()
    }

    /// Closes every connection (their calls fail) and fails the waiting calls.
    func shutdown() -> EventLoopFuture<Void> {
        state = .shutdown
        retryTimer?.cancel()
        retryTimer = nil
        failWaiting(unlessWaitForReady: false, with: RPCError(.unavailable, "the channel is closed"))
        let closed = connections.map { $0.connection.closeFuture }
        for pooled in connections { pooled.connection.close() }
        return EventLoopFuture.andAllComplete(closed, on: eventLoop)
    }
}

/// One connection of a pool and the pool's ear for its events.
final class PooledConnection: HTTP2ClientConnectionDelegate {
    /// Weak: a pool dropped without `shutdown` must not be reached by a connection outliving it.
    weak var pool: ConnectionPool?
    let connection: HTTP2ClientConnection

    init(pool: ConnectionPool, connection: HTTP2ClientConnection) {
        self.pool = pool
        self.connection = connection
    }

    func streamCapacityChanged() {
        pool?.drainWaiting()
    }

    func goAwayReceived(errorCode: UInt32) {
        pool?.goAwayReceived(self)
    }

    func connectionClosed(error: (any Error)?) {
        pool?.connectionClosed(self, error: error)
    }
}
