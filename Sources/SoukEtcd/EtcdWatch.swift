import SoukGRPC
import SoukGRPCClient
import SoukMessages
import SoukStore
import Synchronization

/// A running etcd watch (Watch.Watch, a bidirectional stream) of one key range from a revision.
///
/// It delivers each revision's events once, in revision order. When the stream to a member breaks
/// (the member died, the connection dropped), it opens the watch again on the next member from
/// the revision after the last one delivered, so a member's death is invisible to the watcher.
/// It ends by itself, calling `onFailure` once, when etcd cancels it (the start revision was
/// compacted away: `compact_revision` set) or when no member can be reached for a while.
public final class EtcdWatch: Sendable {
    private struct State {
        var cancelled = false
        var ended = false
        var task: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let onEvents: @Sendable ([Mvccpb.Event]) -> Void
    private let onFailure: @Sendable (StoreError) -> Void
    /// How many rounds over every member a broken watch tries before it fails.
    static let reconnectRounds = 5

    init(
        client: EtcdClient, key: [UInt8], rangeEnd: [UInt8], startRevision: Int64,
        onEvents: @escaping @Sendable ([Mvccpb.Event]) -> Void, onFailure: @escaping @Sendable (StoreError) -> Void
    ) {
        self.onEvents = onEvents
        self.onFailure = onFailure
        // Off the cooperative pool: a store copy's readers may block pool threads until this
        // watch delivers (MirroredKeyValueEngine), so its deliveries must not need one.
        let task = Task.detached(executorPreference: EngineCallExecutor.shared) { [self] in
            await self.run(client: client, key: key, rangeEnd: rangeEnd, startRevision: startRevision)
        }
        state.withLock { $0.task = task }
    }

    /// Stops the watch: no call starts after it returns (one already running may finish).
    public func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// Delivers unless cancelled (outside the lock: the callback may cancel the watch).
    private func deliver(_ events: [Mvccpb.Event]) {
        guard state.withLock({ !$0.cancelled && !$0.ended }) else { return }
        onEvents(events)
    }

    private func fail(_ error: StoreError) {
        let first = state.withLock { state -> Bool in
            guard !state.cancelled, !state.ended else { return false }
            state.ended = true
            return true
        }
        if first { onFailure(error) }
    }

    private var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Why one stream ended.
    private enum StreamEnd: Error {
        /// etcd ended the watch for good (compaction, or a refusal): fail with this.
        case final(StoreError)
        /// The stream broke; the watch goes on elsewhere.
        case broken(String)
    }

    private func run(client: EtcdClient, key: [UInt8], rangeEnd: [UInt8], startRevision: Int64) async {
        // The next revision to deliver: the watch resumes from it on another stream.
        var next = startRevision
        var failures: [String] = []
        var round = 0
        while !isCancelled, !Task.isCancelled {
            var progressed = false
            for index in client.order() {
                if isCancelled || Task.isCancelled { return }
                let endpoint = client.endpoints[index]
                do {
                    try await stream(client.channels[index], key: key, rangeEnd: rangeEnd, next: &next, progressed: &progressed)
                    // The server ended the stream OK: a member shutting down; go on elsewhere.
                    failures.append("\(endpoint): the watch stream ended")
                } catch StreamEnd.final(let error) {
                    return fail(error)
                } catch StreamEnd.broken(let reason) {
                    failures.append("\(endpoint): \(reason)")
                } catch let error as RPCError {
                    if isCancelled || Task.isCancelled { return }
                    guard error.code == .unavailable || error.code == .deadlineExceeded || error.code == .cancelled else {
                        return fail(EtcdClient.failure("etcd Watch", error, endpoint))
                    }
                    failures.append("\(error.code) from \(endpoint): \(error.message)")
                } catch {
                    if isCancelled || Task.isCancelled { return }
                    return fail(EtcdClient.failure("etcd Watch", error, endpoint))
                }
                if progressed { client.answered(index) }
            }
            if progressed {
                round = 0
                failures.removeAll()
            } else {
                round += 1
                if round >= Self.reconnectRounds {
                    return fail(.engine(operation: "etcd Watch", message: "no etcd member answered: " + failures.suffix(6).joined(separator: "; ")))
                }
            }
            // Members restart in seconds: wait a little before the next round.
            try? await Task.sleep(for: .milliseconds(200 * (round + 1)))
        }
    }

    /// One watch stream on one member, from `next`; returns or throws when it ends.
    private func stream(
        _ channel: GRPCChannel, key: [UInt8], rangeEnd: [UInt8], next: inout Int64, progressed: inout Bool
    ) async throws {
        // No deadline: a watch stays open; a dead member shows as a closed connection.
        // `hasleader`: a member that loses its leader (cut off from the others) ends the stream
        // (UNAVAILABLE) instead of going silent, and the watch goes on on another member.
        let options = CallOptions(metadata: Metadata([("hasleader", "true")]))
        try await channel.withCall("/etcdserverpb.Watch/Watch", options: options) { call in
            let create = Etcdserverpb.WatchCreateRequest(key: key, rangeEnd: rangeEnd, startRevision: next)
            try await call.send(Etcdserverpb.WatchRequest(requestUnion: .createRequest(create)))
            var watchID: Int64?
            for try await response in call.responses(as: Etcdserverpb.WatchResponse.self) {
                if response.compactRevision != 0 {
                    throw StreamEnd.final(
                        .engine(
                            operation: "etcd Watch",
                            message: "OUT_OF_RANGE: revision \(next) was compacted (the oldest kept is \(response.compactRevision))"))
                }
                if response.created {
                    watchID = response.watchID
                    progressed = true
                    continue
                }
                if response.canceled {
                    throw StreamEnd.final(.engine(operation: "etcd Watch", message: "etcd cancelled the watch: \(response.cancelReason)"))
                }
                guard watchID == response.watchID, !response.events.isEmpty else { continue }
                // A response holds whole revisions, in order; hand them over one revision at a time.
                var start = 0
                let events = response.events
                while start < events.count {
                    let revision = events[start].kv?.modRevision ?? 0
                    var end = start + 1
                    while end < events.count, (events[end].kv?.modRevision ?? 0) == revision { end += 1 }
                    if revision >= next {
                        deliver(Array(events[start..<end]))
                        next = revision + 1
                    }
                    start = end
                }
            }
        }
    }
}
