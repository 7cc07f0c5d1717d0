import Foundation
import Testing
@_spi(Testing) import SoukStore
import SoukStoreFixtures
import SoukTesting
import SoukStoreTools

/// The harness executable, built next to the test bundle by `swift build --build-tests`.
func harnessPath() throws -> String {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // On Linux the test runner is `<products>/<package>PackageTests.xctest`; elsewhere a bundle inside it.
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("SoukStoreHarness").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    throw HarnessMissing()
}

struct HarnessMissing: Error, CustomStringConvertible {
    var description: String { "SoukStoreHarness not found next to the test bundle: run `swift build --build-tests` first" }
}

/// Runs the harness to completion and returns its exit status and output (standard output and
/// error together); `environment` is added to this process's.
///
/// The wait runs on a thread of its own: a test that held one of Swift concurrency's few pool
/// threads for a child's whole life would stall every other test of the run meanwhile.
func runHarness(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
    let path = try harnessPath()
    return try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
                return
            }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
        }
    }
}

@Suite(.serialized) struct ProcessTests {
    /// A child process writes through the store and is killed with SIGKILL at a random moment,
    /// 20 times on the same database: after every restart each acknowledged write is there and
    /// verification finds nothing wrong.
    @Test func acknowledgedWritesSurviveSIGKILL() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let dataPath = directory.sub("db")
        var created = [RecordID: UInt64]()   // id → event sequence
        var versions = [RecordID: UInt64]()  // id → highest acknowledged version

        for round in 0..<20 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try harnessPath())
            process.arguments = ["crash-writer", "--data-dir", dataPath, "--writers", "4"] + (round % 2 == 1 ? ["--no-sync"] : [])
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()

            // Mostly: wait until it has opened the store and let it write for a random while.
            // Every fifth round: kill it early, possibly while it is still recovering the database.
            var output = Data()
            if round % 5 == 4 {
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...40)))
            } else {
                while !(String(decoding: output, as: UTF8.self).contains("ready\n")) {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    output += chunk
                }
                try await Task.sleep(for: .milliseconds(Int.random(in: 5...60)))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            output += pipe.fileHandleForReading.readDataToEndOfFile()
            #expect(process.terminationReason == .uncaughtSignal)

            // Each line was written with one write(2) after its commit returned.
            for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count == 3, let id = RecordID(fields[1]), let number = UInt64(fields[2]) else {
                    #expect(line == "ready", "unexpected output: \(line)")
                    continue
                }
                if fields[0] == "C" {
                    created[id] = number
                    versions[id] = max(versions[id] ?? 1, 1)
                } else {
                    versions[id] = max(versions[id] ?? 0, number)
                }
            }

            let store = try Store(StoreConfiguration.forTests(dataPath), schema: SampleSchema.schema)
            for (id, version) in versions {
                let record = try store.get(SampleSchema.jobs, id)
                #expect(record != nil, "acknowledged create of \(id) lost in round \(round)")
                #expect((record?.version ?? 0) >= version, "acknowledged update of \(id) lost in round \(round)")
            }
            let events = try store.events(in: "crash", after: 0, limit: 1_000_000)
            #expect(events.map(\.sequence) == (0..<events.count).map { UInt64($0 + 1) }, "event numbering has a gap")
            let sequences = Set(events.map(\.sequence))
            for (id, sequence) in created {
                #expect(sequences.contains(sequence), "event \(sequence) of \(id) lost in round \(round)")
            }
            let report = try await store.verify()
            #expect(report.isConsistent, "round \(round): \(report)")
            await store.close()
        }
        #expect(created.count > 20, "the child acknowledged too few writes to test anything")
    }

    @Test func commandsVerifyBackupAndRestore() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let dataPath = directory.sub("db")
        let backupPath = directory.sub("backups")

        let store = try Store(StoreConfiguration.forTests(dataPath), schema: SampleSchema.schema)
        let record = try await store.write { try $0.insert(SampleSchema.jobs, job(owner: "cli")) }
        await store.close()

        var result = try await runHarness(["store", "verify", "--data-dir", dataPath])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("consistent"))

        result = try await runHarness(["store", "backup", "--data-dir", dataPath, "--backup-dir", backupPath, "--keep", "3"])
        #expect(result.status == 0, "\(result.output)")
        result = try await runHarness(["store", "list-backups", "--backup-dir", backupPath])
        #expect(result.output.contains("backup 1:"), "\(result.output)")

        // Damage the store: verify must fail with a non-zero exit status and name the record.
        let damaged = try Store(StoreConfiguration.forTests(dataPath), schema: SampleSchema.schema)
        try await damaged.setRawRecordValue(SampleSchema.jobs, record.id, [1, 2, 3])
        await damaged.close()
        result = try await runHarness(["store", "verify", "--data-dir", dataPath])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains(record.id.description))

        // Restore refuses to overwrite without --force, then restores the good state.
        result = try await runHarness(["store", "restore", "--backup-dir", backupPath, "--data-dir", dataPath])
        #expect(result.status != 0)
        result = try await runHarness(["store", "restore", "--backup-dir", backupPath, "--data-dir", dataPath, "--force"])
        #expect(result.status == 0, "\(result.output)")
        result = try await runHarness(["store", "verify", "--data-dir", dataPath])
        #expect(result.status == 0, "\(result.output)")
        result = try await runHarness(["store", "build-index", "--data-dir", dataPath])
        #expect(result.output.contains("every index is built"), "\(result.output)")
        result = try await runHarness(["store", "compact", "--data-dir", dataPath])
        #expect(result.status == 0 && result.output.contains("level-0 files"), "\(result.output)")
        result = try await runHarness(["store", "verify", "--data-dir", dataPath])
        #expect(result.status == 0, "\(result.output)")
    }

    /// While a process holds the store open, the commands run through its control socket: a
    /// backup from cron is taken online by the server.
    @Test func commandsReachAnOpenStoreThroughItsControlSocket() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let dataPath = directory.sub("db")
        let store = try Store(StoreConfiguration.forTests(dataPath), schema: SampleSchema.schema)
        let online = try await store.write { try $0.insert(SampleSchema.jobs, job(owner: "online")) }

        // Without a control server, the command says why it cannot open the store.
        var result = try await runHarness(["store", "verify", "--data-dir", dataPath])
        #expect(result.status != 0)
        #expect(result.output.contains("Is the server running"), "\(result.output)")

        let control = try StoreControlServer(store: store)
        result = try await runHarness(["store", "backup", "--data-dir", dataPath, "--backup-dir", directory.sub("backups"), "--keep", "2"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("backup 1:"), "\(result.output)")
        result = try await runHarness(["store", "verify", "--data-dir", dataPath])
        #expect(result.status == 0 && result.output.contains("consistent"), "\(result.output)")
        try await store.flush()
        #expect(try store.statistics().levelZeroFiles > 0)
        result = try await runHarness(["store", "compact", "--data-dir", dataPath])
        #expect(result.status == 0 && result.output.contains("level-0 files"), "\(result.output)")
        #expect(try store.statistics().levelZeroFiles == 0)
        #expect(try store.get(SampleSchema.jobs, online.id)?.value.owner == "online")

        let bad = try await store.write { try $0.insert(SampleSchema.jobs, job(owner: "broken")) }
        try await store.setRawRecordValue(SampleSchema.jobs, bad.id, [0])
        result = try await runHarness(["store", "verify", "--data-dir", dataPath])
        #expect(result.status == 1 && result.output.contains(bad.id.description), "\(result.output)")

        control.stop()
        await store.close()
        #expect(try StoreBackups.list(in: directory.sub("backups")).count == 1)
    }

    /// A control server stopped at once never takes the connections of a listener opened right
    /// after it, which the kernel may give the control listener's descriptor number.
    @Test(.timeLimit(.minutes(2))) func aStoppedControlServerTakesNoOtherListenersConnections() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store(StoreConfiguration.forTests(directory.sub("db")), schema: SampleSchema.schema)
        for round in 0..<40 {
            StoreControlServer.startAndStop(store: store)
            let listener = try LoopbackListener()
            defer { listener.close() }
            let client = try listener.connect()
            defer { Glibc.close(client) }
            // The connection waits in this listener's queue, not taken by a control thread.
            #expect(listener.acceptsWithin(milliseconds: 5000), "round \(round)")
        }
        await store.close()
    }
}

extension StoreControlServer {
    /// Starts a control server and stops it before its thread has run.
    static func startAndStop(store: Store) {
        (try? StoreControlServer(store: store))?.stop()
    }
}

/// A TCP listener on 127.0.0.1 with a free port, in plain POSIX calls.
struct LoopbackListener {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listener >= 0, ok else { throw POSIXError(.EADDRNOTAVAIL) }
        descriptor = listener
        port = UInt16(bigEndian: address.sin_port)
    }

    /// A client socket connected to this listener.
    func connect() throws -> Int32 {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard client >= 0, connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        return client
    }

    /// Whether a connection is waiting to be accepted here within the time given.
    func acceptsWithin(milliseconds: Int32) -> Bool {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, milliseconds) == 1 else { return false }
        let connection = accept(descriptor, nil, nil)
        guard connection >= 0 else { return false }
        Glibc.close(connection)
        return true
    }

    func close() {
        Glibc.close(descriptor)
    }
}
