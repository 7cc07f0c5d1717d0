import SoukGRPC
import SoukMessages
import Synchronization

/// `grpc.health.v1.Health`: the serving status of the server ("") and of each service, by
/// polling (Check) or by subscription (Watch).
public final class HealthService: RPCService {
    /// The status of one service.
    public typealias ServingStatus = GRPCHealth.HealthCheckResponse.ServingStatus

    private struct State {
        var statuses: [String: ServingStatus]
        var watchers: [String: [Int: AsyncStream<ServingStatus>.Continuation]] = [:]
        var nextWatcher = 0
        var draining = false
    }

    private let state: Mutex<State>

    public let serviceName = "grpc.health.v1.Health"

    /// A health service reporting the whole server ("") and each of `services` as SERVING.
    public init(servingServices services: [String] = []) {
        var statuses: [String: ServingStatus] = ["": .serving]
        for service in services { statuses[service] = .serving }
        state = Mutex(State(statuses: statuses))
    }

    /// Sets the status of a service ("" for the whole server) and tells its watchers.
    /// Ignored once `setAllNotServing()` has been called.
    public func setStatus(_ status: ServingStatus, forService service: String) {
        state.withLock { state in
            guard !state.draining else { return }
            state.statuses[service] = status
            for watcher in state.watchers[service, default: [:]].values { watcher.yield(status) }
        }
    }

    /// Forgets a service: Check answers NOT_FOUND for it and watchers see SERVICE_UNKNOWN.
    public func clearStatus(forService service: String) {
        state.withLock { state in
            guard !state.draining else { return }
            state.statuses[service] = nil
            for watcher in state.watchers[service, default: [:]].values { watcher.yield(.serviceUnknown) }
        }
    }

    /// Marks the server and every service NOT_SERVING, for a server that has started draining.
    /// Later changes are ignored, so a draining server never reports SERVING again.
    public func setAllNotServing() {
        state.withLock { state in
            state.draining = true
            for service in state.statuses.keys {
                state.statuses[service] = .notServing
                for watcher in state.watchers[service, default: [:]].values { watcher.yield(.notServing) }
            }
        }
    }

    /// The status of a service; nil when it is unknown.
    public func status(ofService service: String) -> ServingStatus? {
        state.withLock { $0.statuses[service] }
    }

    public var methods: [RPCMethod] {
        [
            // Reads one locked value: no task needed (load balancers call it often).
            .synchronousUnary("Check") { [self] (request: GRPCHealth.HealthCheckRequest, _) in
                guard let status = status(ofService: request.service) else {
                    throw RPCError(.notFound, "unknown service \"\(request.service)\"")
                }
                return GRPCHealth.HealthCheckResponse(status: status)
            },
            .serverStreaming("Watch") { [self] (request: GRPCHealth.HealthCheckRequest, writer: RPCWriter<GRPCHealth.HealthCheckResponse>, _) in
                try await watch(request.service, writer)
            },
        ]
    }

    /// Sends the current status, then every change, until the call is cancelled. Changes that
    /// come faster than the client reads are coalesced: the client always ends up with the latest.
    private func watch(_ service: String, _ writer: RPCWriter<GRPCHealth.HealthCheckResponse>) async throws {
        let (updates, continuation) = AsyncStream.makeStream(of: ServingStatus.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            let id = state.nextWatcher
            state.nextWatcher += 1
            state.watchers[service, default: [:]][id] = continuation
            // Under the same lock as the registration, so no change can slip in between.
            continuation.yield(state.statuses[service] ?? .serviceUnknown)
            return id
        }
        defer {
            state.withLock { state in
                state.watchers[service]?[id] = nil
                if state.watchers[service]?.isEmpty == true { state.watchers[service] = nil }
            }
            continuation.finish()
        }
        var sent: ServingStatus?
        for await status in updates where status != sent {
            try await writer.write(GRPCHealth.HealthCheckResponse(status: status))
            sent = status
        }
    }

    /// How many Watch calls are open (for tests and metrics).
    public var watcherCount: Int {
        state.withLock { $0.watchers.values.reduce(0) { $0 + $1.count } }
    }
}
