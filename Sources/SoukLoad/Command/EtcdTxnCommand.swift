import ArgumentParser
import Foundation
import SoukEtcd
import SoukLoadKit
import SoukMessages

/// `souk-load etcd-txn`: etcd's own transaction rate, the ceiling of the store on etcd.
struct EtcdTxnCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "etcd-txn",
        abstract: "A bare loop of etcd Txns (compares, then puts) through the store's etcd client: the cluster's own transaction rate.",
        discussion: """
            Each of --concurrency callers loops over one Txn at a time on its own keys: --compares \
            conditions (true: only this caller writes its keys) and --puts puts of \
            --value-bytes bytes, the shape of one store commit. --new-puts of those puts go to keys \
            no Txn wrote before (a commit's new records and index entries), the rest rewrite the \
            caller's keys; compares go to rewritten keys first (mod_revision), then to new ones \
            (absent: create_revision 0), as a commit's conditions do. --reads N first reads N keys in one \
            read-only Txn (a linearizable read, as the store's transactions make before they \
            commit). Calls go through SoukEtcd's EtcdClient, as the store's do: one HTTP/2 \
            connection per member, to the member that answered last.

              souk-load etcd-txn --store etcd://127.0.0.1:2379,127.0.0.1:22379 --concurrency 16 --puts 20 --compares 6 --duration 10s
            """)

    @Option(name: .long, help: "The cluster: etcd://host:port,host:port,... (as souk-server --store).")
    var store: String

    @Option(name: .long, help: "Callers looping at once.")
    var concurrency = 1

    @Option(name: .long, help: "Keys put by each Txn.")
    var puts = 20

    @Option(name: .long, help: "Compares of each Txn (mod_revision of rewritten keys, then absence of new ones).")
    var compares = 6

    @Option(name: .customLong("new-puts"), help: "Of the puts, how many go to keys never written before (inserts, not updates).")
    var newPuts = 0

    @Flag(name: .long, help: "Leave the keys written (a throwaway cluster: deleting a long run's inserts keeps the members busy for a while after).")
    var keep = false

    @Option(name: .long, help: "Keys read in one read-only Txn before each write Txn (0: none).")
    var reads = 0

    @Option(name: .customLong("value-bytes"), help: "Bytes of each value put.")
    var valueBytes = 200

    @Option(name: .long, help: "How long the timed run lasts (after a 1 s warm-up).")
    var duration = "10s"

    @Option(name: .long, help: "Write the summary as JSON to this file.")
    var json: String?

    func run() async throws {
        let configuration = try EtcdKeyValueEngine.Configuration(storeURL: store)
        let client = EtcdClient(endpoints: configuration.endpoints)
        let nanoseconds = try parseDuration(duration)
        let run = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let value = [UInt8](repeating: 0x61, count: valueBytes)
        let clock = MonotonicClock()
        let warmUpEnd = clock.now() + 1_000_000_000
        let end = warmUpEnd + nanoseconds
        let (puts, compares, reads) = (max(1, puts), max(0, min(compares, puts)), max(0, reads))
        let newPuts = max(0, min(newPuts, puts))
        @Sendable func newKey(_ caller: Int, _ number: Int) -> [UInt8] {
            // Zero-padded: keys in number order are in key order, so a range holds consecutive ones.
            let digits = String(number)
            return Array("souk-load/txn/\(run)/\(caller)/new/\(String(repeating: "0", count: max(0, 10 - digits.count)))\(digits)".utf8)
        }
        let tables = try await withThrowingTaskGroup(of: StatsTable.self) { group in
            for caller in 0..<max(1, concurrency) {
                group.addTask {
                    let keys = (0..<puts).map { Array("souk-load/txn/\(run)/\(caller)/\($0)".utf8) }
                    func put(_ key: [UInt8]) -> Etcdserverpb.RequestOp {
                        Etcdserverpb.RequestOp(request: .requestPut(Etcdserverpb.PutRequest(key: key, value: value)))
                    }
                    let putOps = keys.map(put)
                    var inserted = 0
                    let readOps = (0..<reads).map {
                        Etcdserverpb.RequestOp(request: .requestRange(Etcdserverpb.RangeRequest(key: keys[$0 % keys.count])))
                    }
                    // The first Txn creates the keys; each later one compares the revision of the last.
                    var revision = try await client.txn(Etcdserverpb.TxnRequest(success: putOps)).header?.revision ?? 0
                    var table = StatsTable()
                    var stats = CallStats()
                    var conflicts: UInt64 = 0
                    while true {
                        let start = clock.now()
                        if start >= end { break }
                        if reads > 0 { _ = try await client.txn(Etcdserverpb.TxnRequest(success: readOps)) }
                        var compare = keys.prefix(min(compares, puts - newPuts)).map {
                            Etcdserverpb.Compare(result: .equal, target: .mod, key: $0, targetUnion: .modRevision(revision))
                        }
                        var success = Array(putOps.prefix(puts - newPuts))
                        for _ in 0..<newPuts {
                            let key = newKey(caller, inserted)
                            if compare.count < compares {
                                compare.append(Etcdserverpb.Compare(result: .equal, target: .create, key: key, targetUnion: .createRevision(0)))
                            }
                            success.append(put(key))
                            inserted += 1
                        }
                        let response = try await client.txn(Etcdserverpb.TxnRequest(compare: compare, success: success))
                        if !response.succeeded { conflicts += 1 }
                        revision = response.header?.revision ?? revision
                        let finished = clock.now()
                        if start >= warmUpEnd { stats.record(latency: finished - start, status: response.succeeded ? "OK" : "ABORTED") }
                    }
                    // The new keys go in DeleteRanges of a thousand: one DeleteRange of a whole run's
                    // inserts is one huge Raft entry, and the members stay slow long after it.
                    for first in stride(from: 0, to: keep ? 0 : inserted, by: 1000) {
                        _ = try? await client.deleteRange(Etcdserverpb.DeleteRangeRequest(
                            key: newKey(caller, first), rangeEnd: newKey(caller, min(first + 1000, inserted))))
                    }
                    stats.retries = conflicts
                    table["Txn"] = stats
                    return table
                }
            }
            var merged = StatsTable()
            for try await table in group { merged.merge(table) }
            return merged
        }
        // The keys of this run go away (one DeleteRange of its prefix), unless kept.
        let prefix = Array("souk-load/txn/\(run)/".utf8)
        if !keep { _ = try? await client.deleteRange(Etcdserverpb.DeleteRangeRequest(key: prefix, rangeEnd: etcdPrefixEnd(prefix))) }
        await client.close()
        let elapsed = Double(nanoseconds) / 1e9
        let report = Report(
            mode: "closed", target: store, workload: "etcd Txn", elapsed: elapsed,
            settings: [
                ("concurrency", .number(String(concurrency))), ("puts", .number(String(puts))),
                ("compares", .number(String(compares))), ("new_puts", .number(String(newPuts))), ("reads", .number(String(reads))),
                ("value_bytes", .number(String(valueBytes))), ("duration", .string(duration)),
            ],
            table: tables, setup: StatsTable())
        if let json { try (report.json().serialized() + "\n").write(toFile: json, atomically: true, encoding: .utf8) }
        print(report.text(), terminator: "")
    }
}
