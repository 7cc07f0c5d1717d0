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
            mod_revision conditions (true: only this caller writes them) and --puts puts of \
            --value-bytes bytes, the shape of one store commit. --reads N first reads N keys in one \
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

    @Option(name: .long, help: "mod_revision compares of each Txn.")
    var compares = 6

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
        let tables = try await withThrowingTaskGroup(of: StatsTable.self) { group in
            for caller in 0..<max(1, concurrency) {
                group.addTask {
                    let keys = (0..<puts).map { Array("souk-load/txn/\(run)/\(caller)/\($0)".utf8) }
                    let putOps = keys.map { Etcdserverpb.RequestOp(request: .requestPut(Etcdserverpb.PutRequest(key: $0, value: value))) }
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
                        let compare = keys.prefix(compares).map {
                            Etcdserverpb.Compare(result: .equal, target: .mod, key: $0, targetUnion: .modRevision(revision))
                        }
                        let response = try await client.txn(Etcdserverpb.TxnRequest(compare: compare, success: putOps))
                        if !response.succeeded { conflicts += 1 }
                        revision = response.header?.revision ?? revision
                        let finished = clock.now()
                        if start >= warmUpEnd { stats.record(latency: finished - start, status: response.succeeded ? "OK" : "ABORTED") }
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
        // The keys of this run go away (one DeleteRange of its prefix).
        let prefix = Array("souk-load/txn/\(run)/".utf8)
        _ = try? await client.deleteRange(Etcdserverpb.DeleteRangeRequest(key: prefix, rangeEnd: etcdPrefixEnd(prefix)))
        await client.close()
        let elapsed = Double(nanoseconds) / 1e9
        let report = Report(
            mode: "closed", target: store, workload: "etcd Txn", elapsed: elapsed,
            settings: [
                ("concurrency", .number(String(concurrency))), ("puts", .number(String(puts))),
                ("compares", .number(String(compares))), ("reads", .number(String(reads))),
                ("value_bytes", .number(String(valueBytes))), ("duration", .string(duration)),
            ],
            table: tables, setup: StatsTable())
        if let json { try (report.json().serialized() + "\n").write(toFile: json, atomically: true, encoding: .utf8) }
        print(report.text(), terminator: "")
    }
}
