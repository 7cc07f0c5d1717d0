import ArgumentParser
import SoukStore
import SoukStoreFixtures
#if canImport(Glibc)
import Glibc
#endif

/// Writes through the store until killed, printing one line per acknowledged write (flushed at
/// once), so that a test can kill it at any moment and check that every acknowledged write survived:
///
///     C <id> <sequence>   a job was created, and event <sequence> appended to stream "crash"
///     U <id> <version>    a job was updated to <version>
struct CrashWriter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-writer", abstract: "Write until killed, printing each acknowledged write.")

    @Option(name: .customLong("data-dir")) var dataDirectory: String
    @Option(help: "Concurrent writers.") var writers = 4
    @Flag(help: "Do not fsync commits (SyncPolicy.none).") var noSync = false

    func run() async throws {
        var configuration = StoreConfiguration(path: dataDirectory)
        configuration.syncPolicy = noSync ? .none : .syncEveryCommit
        configuration.writeBufferBytes = 256 << 10  // small memtables: flushes and compactions happen during the test
        let store = try Store(configuration, schema: SampleSchema.schema)
        // One write(2) per line, unbuffered: a line is out before the next write starts, and
        // lines shorter than PIPE_BUF never interleave.
        @Sendable func acknowledge(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        }
        acknowledge("ready")
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var mine = [RecordID]()
                    var round = 0
                    while true {
                        round += 1
                        do {
                            if mine.isEmpty || round % 3 != 0 {
                                let job = SampleJob(marketplace: "m", dorm: "d\(writer)", owner: "o\(round % 7)",
                                                    loads: Int64(round), note: String(repeating: "x", count: round % 200))
                                let (record, sequence) = try await store.write { transaction in
                                    let record = try transaction.insert(SampleSchema.jobs, job)
                                    let sequence = try transaction.appendEvent(to: "crash", record.id.bytes)
                                    return (record, sequence)
                                }
                                mine.append(record.id)
                                acknowledge("C \(record.id) \(sequence)")
                            } else {
                                let id = mine[round % mine.count]
                                let record = try await store.write { transaction in
                                    try transaction.update(SampleSchema.jobs, id) { job in
                                        job.status = job.status == .pending ? .accepted : .pending
                                        job.courier = job.courier == nil ? "c\(writer)" : nil
                                        job.loads += 1
                                    }
                                }
                                acknowledge("U \(id) \(record.version)")
                            }
                        } catch {
                            acknowledge("E \(error)")
                        }
                    }
                }
            }
        }
    }
}
