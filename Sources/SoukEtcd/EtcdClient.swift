// # SoukEtcd
//
// etcd's v3 API (KV, Watch, Lease, Maintenance; messages generated from Proto/etcd) over the
// project's gRPC client, and `EtcdKeyValueEngine`, the store's `KeyValueEngine` on an etcd cluster.
//
// Several endpoints: each member gets its own `GRPCChannel`. A call goes to the member that last
// answered; when that member cannot be reached it goes to the next one. Any member serves any
// call (a follower forwards writes to the leader and serves linearizable reads through it), so
// no leader tracking is needed here.
//
// Whether a failed call may be sent again elsewhere depends on whether it may have run:
// - reads (Range, Status), LeaseGrant, LeaseKeepAlive and Watch move to the next member on any
//   UNAVAILABLE or DEADLINE_EXCEEDED: running them twice changes nothing that matters (a second
//   granted lease expires unused);
// - writes (Put, DeleteRange, Txn, LeaseRevoke) move to the next member only when the request
//   cannot have left this process: no connection to the member, the channel closed, the stream
//   refused (REFUSED_STREAM) before the server read it. A write that failed after it was sent
//   (the connection dropped mid-call, etcd's "request timed out" or "leader changed") may still
//   be committed by the cluster, so it is reported as `StoreError.engine` and not re-sent as
//   if it had not run. Above it, the store's optimistic transactions re-read and decide again:
//   a conditional commit that did run makes the next attempt's condition fail or see the new
//   state; a client's retry with the same request id meets the idempotency record.

import SoukGRPC
import SoukGRPCClient
import SoukMessages
import SoukStore
import Synchronization

/// A client of an etcd v3 cluster over several member endpoints (see the module's doc).
public final class EtcdClient: Sendable {
    /// The members' client endpoints.
    public let endpoints: [EtcdEndpoint]
    /// The deadline of each unary call to one member.
    public let callTimeout: Duration
    let channels: [GRPCChannel]
    /// The index of the endpoint that answered last: the first one tried.
    private let preferred = Atomic<Int>(0)

    public init(endpoints: [EtcdEndpoint], callTimeout: Duration = .seconds(5)) {
        precondition(!endpoints.isEmpty, "EtcdClient needs at least one endpoint")
        self.endpoints = endpoints
        self.callTimeout = callTimeout
        var configuration = GRPCChannel.Configuration()
        // A member that went away is tried again soon after it comes back (etcd members restart in
        // seconds), not after gRPC's default backoff of up to two minutes.
        configuration.backoff = ConnectionBackoff(initial: .milliseconds(200), multiplier: 1.6, jitter: 0.2, maximum: .seconds(3))
        configuration.userAgent = "souk-etcd/1"
        // A read of a transaction's keys may carry up to `max-txn-ops` records in one answer:
        // more than the default 4 MiB a client accepts (etcd itself sends any size).
        configuration.maxReceiveMessageSize = 256 * 1024 * 1024
        channels = endpoints.map { GRPCChannel(target: GRPCTarget(host: $0.host, port: $0.port), configuration: configuration) }
    }

    /// Closes every member's connections.
    public func close() async {
        for channel in channels { await channel.close() }
    }

    /// Whether a failed call may be sent to another member.
    enum Resend {
        /// It only reads or its repetition is harmless: on any UNAVAILABLE or DEADLINE_EXCEEDED.
        case always
        /// It writes: only when the request cannot have reached the member.
        case ifNotSent
    }

    /// Whether `error` proves that the request never reached the member (see the module's doc).
    static func notSent(_ error: RPCError) -> Bool {
        guard error.code == .unavailable else { return false }
        let m = error.message
        return m.hasPrefix("cannot reach ") || m.hasPrefix("cannot start ") || m == "the channel is closed"
            || m.contains("REFUSED_STREAM")
    }

    static func movesOn(_ error: RPCError, _ resend: Resend) -> Bool {
        switch resend {
        case .always: error.code == .unavailable || error.code == .deadlineExceeded
        case .ifNotSent: notSent(error)
        }
    }

    /// The order in which to try the members: the preferred one first.
    func order() -> [Int] {
        let first = preferred.load(ordering: .relaxed) % channels.count
        return (0..<channels.count).map { (first + $0) % channels.count }
    }

    func answered(_ index: Int) {
        preferred.store(index, ordering: .relaxed)
    }

    /// The engine failure of `operation`: etcd's status and message, and the member that gave it.
    static func failure(_ operation: String, _ error: any Error, _ endpoint: EtcdEndpoint) -> StoreError {
        if let error = error as? RPCError {
            return .engine(operation: operation, message: "\(error.code) from \(endpoint): \(error.message)")
        }
        if let error = error as? StoreError { return error }
        return .engine(operation: operation, message: "from \(endpoint): \(error)")
    }

    /// One unary call, moved to the next member as `resend` allows.
    func unary<Request: ProtoMessage, Response: ProtoMessage>(
        _ operation: String, _ path: String, _ request: Request, as: Response.Type, resend: Resend
    ) async throws(StoreError) -> Response {
        var failures: [String] = []
        for index in order() {
            do {
                let response = try await channels[index].unary(path, request, as: Response.self, options: CallOptions(timeout: callTimeout))
                answered(index)
                return response.message
            } catch {
                try moveOn(after: error, operation, index, resend, &failures)
            }
        }
        throw Self.noMember(operation, failures)
    }

    /// `unary`, blocking the calling thread (never an event loop) instead of suspending a task:
    /// the store engine's calls, woken by the event loop directly.
    func unaryBlocking<Request: ProtoMessage, Response: ProtoMessage>(
        _ operation: String, _ path: String, _ request: Request, as: Response.Type, resend: Resend
    ) throws(StoreError) -> Response {
        var failures: [String] = []
        for index in order() {
            do {
                let response = try channels[index].unaryBlocking(path, request, as: Response.self, options: CallOptions(timeout: callTimeout))
                answered(index)
                return response.message
            } catch {
                try moveOn(after: error, operation, index, resend, &failures)
            }
        }
        throw Self.noMember(operation, failures)
    }

    /// After member `index` failed: notes the failure when the call may go to the next member,
    /// else throws it.
    private func moveOn(after error: any Error, _ operation: String, _ index: Int, _ resend: Resend, _ failures: inout [String]) throws(StoreError) {
        guard let error = error as? RPCError, Self.movesOn(error, resend) else { throw Self.failure(operation, error, endpoints[index]) }
        failures.append("\(error.code) from \(endpoints[index]): \(error.message)")
    }

    private static func noMember(_ operation: String, _ failures: [String]) -> StoreError {
        .engine(operation: operation, message: "no etcd member answered: " + failures.joined(separator: "; "))
    }

    // MARK: KV

    /// KV.Range: keys of a range at a revision (a linearizable read unless `serializable`).
    public func range(_ request: Etcdserverpb.RangeRequest) async throws(StoreError) -> Etcdserverpb.RangeResponse {
        try await unary("etcd Range", "/etcdserverpb.KV/Range", request, as: Etcdserverpb.RangeResponse.self, resend: .always)
    }

    /// KV.Put: one key, unconditionally.
    public func put(_ request: Etcdserverpb.PutRequest) async throws(StoreError) -> Etcdserverpb.PutResponse {
        try await unary("etcd Put", "/etcdserverpb.KV/Put", request, as: Etcdserverpb.PutResponse.self, resend: .ifNotSent)
    }

    /// KV.DeleteRange: a key or a range.
    public func deleteRange(_ request: Etcdserverpb.DeleteRangeRequest) async throws(StoreError) -> Etcdserverpb.DeleteRangeResponse {
        try await unary(
            "etcd DeleteRange", "/etcdserverpb.KV/DeleteRange", request, as: Etcdserverpb.DeleteRangeResponse.self, resend: .ifNotSent)
    }

    /// KV.Txn: compares, then the success or the failure operations, atomically. A Txn of Range
    /// operations only is a read and moves on freely; any other is not re-sent once it may have run.
    public func txn(_ request: Etcdserverpb.TxnRequest) async throws(StoreError) -> Etcdserverpb.TxnResponse {
        try await unary("etcd Txn", "/etcdserverpb.KV/Txn", request, as: Etcdserverpb.TxnResponse.self, resend: Self.resend(of: request))
    }

    /// `txn`, blocking the calling thread (never an event loop).
    public func txnBlocking(_ request: Etcdserverpb.TxnRequest) throws(StoreError) -> Etcdserverpb.TxnResponse {
        try unaryBlocking("etcd Txn", "/etcdserverpb.KV/Txn", request, as: Etcdserverpb.TxnResponse.self, resend: Self.resend(of: request))
    }

    /// `range`, blocking the calling thread (never an event loop).
    public func rangeBlocking(_ request: Etcdserverpb.RangeRequest) throws(StoreError) -> Etcdserverpb.RangeResponse {
        try unaryBlocking("etcd Range", "/etcdserverpb.KV/Range", request, as: Etcdserverpb.RangeResponse.self, resend: .always)
    }

    static func resend(of request: Etcdserverpb.TxnRequest) -> Resend {
        let readOnly = (request.success + request.failure).allSatisfy {
            if case .requestRange = $0.request { true } else { false }
        }
        return readOnly ? .always : .ifNotSent
    }

    /// KV.Compact: drops the history before `revision` (watches and reads before it fail after).
    public func compact(revision: Int64, physical: Bool = false) async throws(StoreError) -> Etcdserverpb.CompactionResponse {
        try await unary(
            "etcd Compact", "/etcdserverpb.KV/Compact", Etcdserverpb.CompactionRequest(revision: revision, physical: physical),
            as: Etcdserverpb.CompactionResponse.self, resend: .always)
    }

    // MARK: Lease

    /// Lease.LeaseGrant: a lease of `ttl` seconds (`id` 0: etcd picks one).
    public func leaseGrant(ttl: Int64, id: Int64 = 0) async throws(StoreError) -> Etcdserverpb.LeaseGrantResponse {
        let response = try await unary(
            "etcd LeaseGrant", "/etcdserverpb.Lease/LeaseGrant", Etcdserverpb.LeaseGrantRequest(ttl: ttl, id: id),
            as: Etcdserverpb.LeaseGrantResponse.self, resend: .always)
        if !response.error.isEmpty { throw .engine(operation: "etcd LeaseGrant", message: response.error) }
        return response
    }

    /// Lease.LeaseRevoke: ends the lease and deletes the keys attached to it.
    public func leaseRevoke(id: Int64) async throws(StoreError) -> Etcdserverpb.LeaseRevokeResponse {
        try await unary(
            "etcd LeaseRevoke", "/etcdserverpb.Lease/LeaseRevoke", Etcdserverpb.LeaseRevokeRequest(id: id),
            as: Etcdserverpb.LeaseRevokeResponse.self, resend: .ifNotSent)
    }

    /// Lease.LeaseKeepAlive, once: renews the lease and answers its new TTL in seconds (0: the
    /// lease has expired or was revoked). A holder calls it about every third of the TTL.
    public func leaseKeepAlive(id: Int64) async throws(StoreError) -> Int64 {
        var failures: [String] = []
        for index in order() {
            do {
                let ttl = try await channels[index].withCall("/etcdserverpb.Lease/LeaseKeepAlive", options: CallOptions(timeout: callTimeout)) {
                    call in
                    try await call.send(Etcdserverpb.LeaseKeepAliveRequest(id: id))
                    for try await response in call.responses(as: Etcdserverpb.LeaseKeepAliveResponse.self) {
                        return response.ttl
                    }
                    throw RPCError(.unavailable, "the keep-alive stream ended without an answer")
                }
                answered(index)
                return ttl
            } catch let error as RPCError where Self.movesOn(error, .always) {
                failures.append("\(error.code) from \(endpoints[index]): \(error.message)")
            } catch {
                throw Self.failure("etcd LeaseKeepAlive", error, endpoints[index])
            }
        }
        throw .engine(operation: "etcd LeaseKeepAlive", message: "no etcd member answered: " + failures.joined(separator: "; "))
    }

    // MARK: Maintenance

    /// Maintenance.Status of the member first tried (its version, leader, raft index, database size).
    public func status() async throws(StoreError) -> Etcdserverpb.StatusResponse {
        try await unary(
            "etcd Status", "/etcdserverpb.Maintenance/Status", Etcdserverpb.StatusRequest(), as: Etcdserverpb.StatusResponse.self,
            resend: .always)
    }

    /// Maintenance.Status of every member, in endpoint order (nil where it did not answer).
    public func statusOfEach() async -> [Etcdserverpb.StatusResponse?] {
        var out: [Etcdserverpb.StatusResponse?] = []
        for channel in channels {
            out.append(
                try? await channel.unary(
                    "/etcdserverpb.Maintenance/Status", Etcdserverpb.StatusRequest(), as: Etcdserverpb.StatusResponse.self,
                    options: CallOptions(timeout: callTimeout)
                ).message)
        }
        return out
    }

    // MARK: Watch

    /// Watches `[key, rangeEnd)` from `startRevision` (see `EtcdWatch`). `onEvents` gets the events
    /// of each revision in revision order; `onFailure` is called once if the watch ends by itself.
    public func watch(
        key: [UInt8], rangeEnd: [UInt8], startRevision: Int64,
        onEvents: @escaping @Sendable ([Mvccpb.Event]) -> Void,
        onFailure: @escaping @Sendable (StoreError) -> Void
    ) -> EtcdWatch {
        EtcdWatch(client: self, key: key, rangeEnd: rangeEnd, startRevision: startRevision, onEvents: onEvents, onFailure: onFailure)
    }
}

/// The end of a key prefix's range: the smallest key greater than every key starting with
/// `prefix` (`[0]`, etcd's "to the end of the key space", when there is none, or for no prefix).
public func etcdPrefixEnd(_ prefix: [UInt8]) -> [UInt8] {
    var end = prefix
    while let last = end.last {
        if last < 0xff {
            end[end.count - 1] = last + 1
            return end
        }
        end.removeLast()
    }
    return [0]
}
