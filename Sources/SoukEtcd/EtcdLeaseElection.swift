import Logging
import SoukMessages
import SoukStore

/// Elects one holder of a key among the processes campaigning for it, with an etcd lease.
///
/// A campaigner takes the key only if it does not exist (one Txn: create revision 0, then a put
/// attached to its lease), and holds it while it keeps the lease alive (every third of the TTL).
/// When the holder stops — shut down (it revokes the lease, so another takes over at once),
/// killed, or cut off from the cluster — the lease expires within the TTL, etcd deletes the key,
/// and the next campaigner to try takes it. The holder stops its work as soon as it cannot be
/// sure it still holds the key: a keep-alive answered "expired", or none answered for the TTL
/// less one keep-alive period. Work done under the election must still be safe when two holders
/// overlap for a moment (a partitioned holder that has not noticed yet): the store's
/// transactions make it so; the election only keeps the work from running everywhere at once.
public final class EtcdLeaseElection: Sendable {
    public let client: EtcdClient
    /// The key holding the current holder's name.
    public let key: [UInt8]
    /// This process's name in the key (host and pid, for the logs and `etcdctl get`).
    public let candidate: String
    /// The lease's time to live, in seconds: how long the work may stop when its holder dies.
    public let ttl: Int64
    let logger: Logger

    public init(client: EtcdClient, key: String, candidate: String, ttl: Int64 = 5, logger: Logger) {
        precondition(ttl >= 2, "an election lease lives at least 2 seconds")
        self.client = client
        self.key = Array(key.utf8)
        self.candidate = candidate
        self.ttl = ttl
        self.logger = logger
    }

    /// Runs `work` whenever this process holds the key, cancelling it as soon as it may not;
    /// returns when the calling task is cancelled, after giving the key up.
    public func whileElected(_ work: @escaping @Sendable () async -> Void) async {
        while !Task.isCancelled {
            do {
                let lease = try await client.leaseGrant(ttl: ttl).id
                if try await campaign(lease) {
                    logger.notice("elected to run timers and scheduled jobs", metadata: ["key": "\(String(decoding: key, as: UTF8.self))"])
                    await hold(lease, work)
                    logger.notice("no longer running timers and scheduled jobs")
                }
                // Given up (or never held): another campaigner may take the key at once. In a
                // task of its own: a cancelled caller (shutdown) must still revoke.
                await Task { [client] in _ = try? await client.leaseRevoke(id: lease) }.value
            } catch {
                logger.warning("election failed; trying again", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: campaignInterval)
        }
    }

    /// How often a campaigner that lost tries again, and a holder renews its lease.
    var campaignInterval: Duration { .seconds(ttl) / 3 }

    /// Takes the key if nobody holds it.
    private func campaign(_ lease: Int64) async throws -> Bool {
        let request = Etcdserverpb.TxnRequest(
            compare: [Etcdserverpb.Compare(result: .equal, target: .create, key: key, targetUnion: .createRevision(0))],
            success: [Etcdserverpb.RequestOp(request: .requestPut(Etcdserverpb.PutRequest(key: key, value: Array(candidate.utf8), lease: lease)))])
        return try await client.txn(request).succeeded
    }

    /// Runs `work` while the lease stays alive; returns once the work is cancelled.
    private func hold(_ lease: Int64, _ work: @escaping @Sendable () async -> Void) async {
        let interval = campaignInterval
        let ttl = Duration.seconds(self.ttl)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await work() }
            group.addTask { [client, logger] in
                var lastRenewal = ContinuousClock.now
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    if Task.isCancelled { return }
                    do {
                        if try await client.leaseKeepAlive(id: lease) <= 0 {
                            logger.warning("the election lease expired")
                            return
                        }
                        lastRenewal = .now
                    } catch {
                        // The lease may have expired by now on the cluster's clock: stop early.
                        if lastRenewal.duration(to: .now) >= ttl - interval {
                            logger.warning("the election lease could not be renewed", metadata: ["error": "\(error)"])
                            return
                        }
                    }
                }
            }
            // The first to end (the lease lost, or the work itself) ends the other; cancelling
            // the caller cancels both.
            _ = await group.next()
            group.cancelAll()
        }
    }
}
