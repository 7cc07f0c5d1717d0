import ArgumentParser
import SoukStore
import SoukStoreFixtures
#if canImport(Glibc)
import Glibc
#endif

/// The store benchmark (run it through `bench/store/run`, which builds in release mode):
/// point reads, 50-record index pages (throughput and p99) on a small and a large table,
/// durable creates at 1, 16 and 64 concurrent writers with fsync, and disk and memory use.
struct Benchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Store benchmark (use a release build).")

    @Option(name: .customLong("data-dir"), help: "An empty directory for the benchmark databases.") var dataDirectory: String
    @Option(help: "Records in the small table.") var small = 10_000
    @Option(help: "Records in the large table.") var large = 1_000_000
    @Option(help: "Seconds per measurement.") var seconds = 5
    @Option(help: "Block cache in MiB.") var cacheMiB = 256

    static let byStatus = Index<SampleJob>.nonUnique("bench.marketplace_status") { [.string($0.marketplace), .enumCase($0.status)] }
    static let byOwner = Index<SampleJob>.nonUnique("bench.marketplace_owner") { [.string($0.marketplace), .string($0.owner)] }
    static let byDorm = Index<SampleJob>.nonUnique("bench.marketplace_dorm_status") {
        [.string($0.marketplace), .string($0.dorm), .enumCase($0.status)]
    }
    /// A record with three secondary indexes.
    static let table = Table("bench_jobs", codec: SampleJobCodec(), indexes: [byStatus, byOwner, byDorm])

    /// Every owner gets this many records, so a page started at one of an owner's first 150 records is full.
    static let recordsPerOwner = 200

    func run() async throws {
        print("store benchmark: \(small) and \(large) records, \(seconds) s per measurement, block cache \(cacheMiB) MiB")
        print("machine: \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPUs (shared with other work: figures are lower bounds)\n")
        var pageLatencies = [Int: Double]()
        for count in [small, large] {
            let path = dataDirectory + "/table-\(count)"
            let store = try Store(configuration(path), schema: Schema(Self.table))
            let loadStart = ContinuousClock.now
            let ids = try await load(store, count: count)
            try await store.flush()
            let loadTime = ContinuousClock.now - loadStart
            print("\(count) records: loaded in \(format(loadTime)) (\(Int(Double(count) / loadTime.seconds)) records/s, 500 per transaction, no fsync)")

            let reads = try measure(threads: 1) { random in
                _ = try store.get(Self.table, ids[random.next(ids.count)])
                return 1
            }
            let reads2 = try measure(threads: 2) { random in
                _ = try store.get(Self.table, ids[random.next(ids.count)])
                return 1
            }
            print("  point reads: \(Int(reads.rate))/s on 1 thread, \(Int(reads2.rate))/s on 2 threads")

            let owners = count / Self.recordsPerOwner
            let pages = try measure(threads: 1) { random in
                let owner = random.next(owners)
                let start = ids[owner + random.next(150) * owners]
                let range = IndexRange(prefix: ["bench", .string("o\(owner)")], lower: RangeBound([.id(start)], inclusive: true))
                let page = try store.list(Self.table, Self.byOwner, range, page: PageRequest(size: 50))
                precondition(page.items.count == 50, "short page")
                return 1
            }
            pageLatencies[count] = pages.p99
            print("  50-record index pages: \(Int(pages.rate))/s, p50 \(microseconds(pages.p50)), p99 \(microseconds(pages.p99))")

            let statistics = try store.statistics()
            let disk = directoryBytes(path)
            let rss = residentBytes()
            print("  on disk: \(mib(disk)) (\(mib(disk * 1_000_000 / count)) per million records); "
                + "live data files \(mib(statistics.liveDataFileBytes)); block cache in use \(mib(statistics.blockCacheBytes))")
            print("  process RSS: \(mib(rss)) (includes block cache and memtables)\n")
            await store.close()
        }
        if let a = pageLatencies[small], let b = pageLatencies[large] {
            print("page p99 at \(large) vs \(small) records: ratio \(fixed(b / a, 2)) (target ≤ 1.5)\n")
        }

        print("durable creates (record + 3 index entries per transaction, fsync at every commit group):")
        var configuration = configuration(dataDirectory + "/writes")
        configuration.syncPolicy = .syncEveryCommit
        let store = try Store(configuration, schema: Schema(Self.table))
        var single = 0.0
        for writers in [1, 16, 64] {
            let rate = try await createRate(store, writers: writers)
            if writers == 1 { single = rate }
            print("  \(writers) writer(s): \(Int(rate)) creates/s (\(fixed(rate / single, 1))× one writer)")
        }
        await store.close()
    }

    func configuration(_ path: String) -> StoreConfiguration {
        var configuration = StoreConfiguration(path: path)
        configuration.blockCacheBytes = cacheMiB << 20
        return configuration
    }

    /// Loads `count` records in transactions of 500, on 2 concurrent writers; returns their identifiers in creation order.
    func load(_ store: Store, count: Int) async throws -> [RecordID] {
        let owners = count / Self.recordsPerOwner
        let batches = stride(from: 0, to: count, by: 500).map { $0..<min(count, $0 + 500) }
        var ids = [RecordID](repeating: RecordID(high: 0, low: 0), count: count)
        for pair in stride(from: 0, to: batches.count, by: 2) {
            try await withThrowingTaskGroup(of: (Range<Int>, [RecordID]).self) { group in
                for batch in batches[pair..<min(batches.count, pair + 2)] {
                    group.addTask {
                        // Identifiers are made here, in order, so that ids[i] is the i-th record.
                        let batchIDs = batch.map { _ in RecordID.generate() }
                        try await store.write { tx in
                            for (n, id) in zip(batch, batchIDs) {
                                try tx.insert(Self.table, SampleJob(
                                    marketplace: "bench", dorm: "d\(n % 20)", owner: "o\(n % owners)",
                                    status: SampleJob.Status.allCases[n % 4], loads: Int64(n), note: "load \(n) of the benchmark"), id: id)
                            }
                        }
                        return (batch, batchIDs)
                    }
                }
                for try await (batch, batchIDs) in group { ids.replaceSubrange(batch, with: batchIDs) }
            }
        }
        return ids
    }

    func createRate(_ store: Store, writers: Int) async throws -> Double {
        let deadline = ContinuousClock.now + .seconds(seconds)
        let start = ContinuousClock.now
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var count = 0
                    while ContinuousClock.now < deadline {
                        let job = SampleJob(marketplace: "w", dorm: "d\(count % 20)", owner: "o\(writer)",
                                            loads: Int64(count), note: "durable create")
                        _ = try await store.write { tx in try tx.insert(Self.table, job) }
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(total) / (ContinuousClock.now - start).seconds
    }

    struct Measurement {
        var rate: Double
        var p50: Double
        var p99: Double
    }

    /// Runs `operation` on `threads` threads for `seconds`, timing each call.
    func measure(threads: Int, _ operation: @escaping @Sendable (inout SplitMix) throws -> Int) throws -> Measurement {
        let duration = Duration.seconds(seconds)
        let results = UnsafeMutableBufferPointer<(Int, [Double])>.allocate(capacity: threads)
        defer { results.deallocate() }
        var pthreads = [pthread_t]()
        final class Job: @unchecked Sendable {  // read-only after creation, then owned by one thread
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }
        for t in 0..<threads {
            let slot = results.baseAddress! + t
            let job = Job {
                var random = SplitMix(seed: UInt64(t + 1))
                var latencies = [Double]()
                var count = 0
                let end = ContinuousClock.now + duration
                while true {
                    let before = ContinuousClock.now
                    if before >= end { break }
                    count += (try? operation(&random)) ?? 0
                    latencies.append((ContinuousClock.now - before).seconds)
                }
                slot.initialize(to: (count, latencies))
            }
            var thread = pthread_t()
            let box = Unmanaged.passRetained(job).toOpaque()
            pthread_create(&thread, nil, { raw in
                let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                job.body()
                return nil
            }, box)
            pthreads.append(thread)
        }
        for thread in pthreads { pthread_join(thread, nil) }
        let count = results.reduce(0) { $0 + $1.0 }
        let latencies = results.flatMap(\.1).sorted()
        results.baseAddress!.deinitialize(count: threads)
        func percentile(_ p: Double) -> Double { latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        return Measurement(rate: Double(count) / duration.seconds, p50: percentile(0.5), p99: percentile(0.99))
    }
}

/// A small, fast random generator per thread (the system one takes a lock).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// `value` with `decimals` digits after the point.
func fixed(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    guard decimals > 0 else { return "\(scaled)" }
    let fraction = String(abs(scaled) % Int(scale))
    return "\(scaled < 0 ? "-" : "")\(abs(scaled) / Int(scale)).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
}

func format(_ duration: Duration) -> String { fixed(duration.seconds, 1) + " s" }
func microseconds(_ seconds: Double) -> String { fixed(seconds * 1e6, 0) + " µs" }
func mib(_ bytes: Int) -> String { fixed(Double(bytes) / 1_048_576, 1) + " MiB" }

/// Total size of the files under `path`.
func directoryBytes(_ path: String) -> Int {
    guard let directory = opendir(path) else { return 0 }
    defer { closedir(directory) }
    var total = 0
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name == "." || name == ".." { continue }
        var info = stat()
        if stat(path + "/" + name, &info) == 0 {
            total += (info.st_mode & S_IFMT) == S_IFDIR ? directoryBytes(path + "/" + name) : Int(info.st_size)
        }
    }
    return total
}

/// The resident set size of this process, from /proc/self/statm.
func residentBytes() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var buffer = [UInt8](repeating: 0, count: 128)
    let length = fread(&buffer, 1, buffer.count, file)
    let fields = String(decoding: buffer.prefix(length), as: UTF8.self).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
