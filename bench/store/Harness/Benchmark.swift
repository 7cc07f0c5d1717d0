import ArgumentParser
import SoukStore
import SoukStoreFixtures
#if canImport(Glibc)
import Glibc
#endif

/// The store benchmark (run it through `bench/store/run`, which builds in release mode):
/// point reads, 50-record index pages (throughput and p99) on a small and a large table, as loaded
/// and again after a full compaction (each after an unmeasured warm-up), durable creates at 1, 16 and 64 concurrent writers with
/// fsync, and disk and memory use.
struct Benchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Store benchmark (use a release build).")

    @Option(name: .customLong("data-dir"), help: "An empty directory for the benchmark databases.") var dataDirectory: String
    @Option(help: "Records in the small table.") var small = 10_000
    @Option(help: "Records in the large table.") var large = 1_000_000
    @Option(help: "Seconds per measurement.") var seconds = 5
    @Option(name: .customLong("cache-mib"), help: "Block cache in MiB.") var cacheMiB = 256
    @Option(name: .customLong("block-kib"), help: "Data block size in KiB.") var blockKiB = TableSettings().blockBytes >> 10
    @Flag(inversion: .prefixedNo, help: "Hash index inside data blocks.") var hashIndex = TableSettings().dataBlockHashIndex
    @Option(help: "Bloom filter bits per key.") var bloomBits = 10.0
    @Option(help: "Block cache shard bits (default: RocksDB's choice).") var cacheShardBits: Int? = nil
    @Flag(help: "No bloom filters in bottom-level files.") var optimizeFiltersForHits = false
    @Option(help: "Seconds of unmeasured pages on both tables before each page measurement.") var warmUp = 5
    @Flag(help: "Measure only the pages (no point reads, no durable creates).") var pagesOnly = false

    /// A record with three secondary indexes.
    static let table = SampleSchema.benchJobs
    static let byOwner = SampleSchema.benchJobsByOwner

    /// Every owner gets this many records, so a page started at one of an owner's first 150 records is full.
    static let recordsPerOwner = 200

    func run() async throws {
        print("store benchmark: \(small) and \(large) records, \(seconds) s per measurement, block cache \(cacheMiB) MiB, "
            + "\(warmUp) s warm-up before pages")
        print("tables: \(configuration("").table)")
        print("machine: \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPUs (shared with other work: figures are lower bounds)\n")
        let baseline = residentBytes()
        var loaded = [(count: Int, store: Store, ids: [RecordID], rss: Int)]()
        for count in [small, large] {
            let store = try Store(configuration(dataDirectory + "/table-\(count)"), schema: Schema(Self.table))
            let loadStart = ContinuousClock.now
            let ids = try await load(store, count: count)
            try await store.flush()
            let loadTime = ContinuousClock.now - loadStart
            print("\(count) records loaded in \(format(loadTime)) (\(Int(Double(count) / loadTime.seconds)) records/s, 500 per transaction, no fsync)")
            // Measure the steady state: background compaction of the bulk load would otherwise
            // compete with the queries for the same CPUs.
            let settleStart = ContinuousClock.now
            while try store.statistics().compacting, ContinuousClock.now - settleStart < .seconds(300) {
                try await Task.sleep(for: .milliseconds(100))
            }
            print("  compactions settled after \(format(ContinuousClock.now - settleStart))")
            loaded.append((count, store, ids, residentBytes()))
        }
        let stores = loaded

        // Both tables are measured in the same loop, one query on each in turn, so that noise
        // from other processes on the machine hits both alike.
        print("\npoint reads (random identifiers):")
        for threads in pagesOnly ? [] : [1, 2] {
            let reads = try measure(threads: threads, stores.count) { random, which in
                let ids = stores[which].ids
                _ = try stores[which].store.get(Self.table, ids[random.next(ids.count)])
            }
            for (which, entry) in stores.enumerated() {
                print("  \(entry.count) records, \(threads) thread(s): \(Int(reads[which].rate))/s, p50 \(microseconds(reads[which].p50)), p99 \(microseconds(reads[which].p99))")
            }
        }

        // Pages twice: as loaded (a few level-0 files from the last flushes are still above the
        // bottom level, below RocksDB's compaction trigger, so every lookup probes them too), then
        // after `compact()` merged everything into the bottom level (what `store compact` does
        // after a bulk import or restore). Each measurement follows `warmUp` seconds of the same
        // pages (other random positions) on both tables, so the block cache is in its steady
        // state: a compaction writes new files, whose blocks are not yet cached.
        let diskAsLoaded = stores.map { directoryBytes($0.store.configuration.path) }
        try measurePages(stores, state: "as loaded")
        print("\nfull compaction (Store.compact):")
        for entry in stores {
            let before = try entry.store.statistics()
            let start = ContinuousClock.now
            try await entry.store.compact()
            let after = try entry.store.statistics()
            print("  \(entry.count) records: compacted in \(format(ContinuousClock.now - start)), level-0 files \(before.levelZeroFiles) → \(after.levelZeroFiles)")
        }
        try measurePages(stores, state: "compacted")

        print("\ndisk and memory:")
        for (which, entry) in stores.enumerated() {
            let statistics = try entry.store.statistics()
            let disk = diskAsLoaded[which]
            let compacted = directoryBytes(entry.store.configuration.path)
            print("  \(entry.count) records: \(mib(disk)) on disk as loaded (\(mib(disk * 1_000_000 / entry.count)) per million records), "
                + "\(mib(compacted)) compacted (\(mib(compacted * 1_000_000 / entry.count)) per million), "
                + "block cache holding \(mib(statistics.blockCacheBytes)), memtables \(mib(statistics.memtableBytes))")
        }
        let grown = stores[1].rss - stores[0].rss
        print("  process RSS: \(mib(baseline)) at start, \(mib(stores[0].rss)) with \(small) records loaded, \(mib(stores[1].rss)) with \(large) loaded as well "
            + "(≈ \(mib(grown * 1_000_000 / max(1, large - small))) per million records, block cache and memtables included)")
        // Each store has its own block cache, so the process may hold up to one cache per store.
        let caches = try stores.map { try $0.store.statistics() }
        let cacheBytes = caches.map(\.blockCacheBytes).reduce(0, +)
        let memtableBytes = caches.map(\.memtableBytes).reduce(0, +)
        let resident = residentBytes()
        print("  process RSS after the page measurements: \(mib(resident)); the \(stores.count) stores' block caches (\(cacheMiB) MiB each) "
            + "hold \(mib(cacheBytes)) and their memtables \(mib(memtableBytes)); RSS above the start is "
            + "\(fixed(Double(resident - baseline) / Double(max(1, cacheBytes)), 2))× what the caches hold")
        let heap = allocatorStatistics()
        if !heap.isEmpty { print("  jemalloc then: " + heap.map { "\($0.name) \(mib($0.bytes))" }.joined(separator: ", ")) }
        for entry in stores { await entry.store.close() }
        if pagesOnly { return }

        print("\ndurable creates (record + 3 index entries per transaction, fsync at every commit group):")
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

    /// 50-record pages of one owner's entries from a random position, on both tables in turn;
    /// prints throughput and latency per table and the large/small ratios, labelled with `state`.
    func measurePages(_ stores: [(count: Int, store: Store, ids: [RecordID], rss: Int)], state: String) throws {
        let levelZero = try stores.map { try $0.store.statistics().levelZeroFiles }
        print("\n50-record index pages (one owner's entries from a random position), \(state):")
        let page: @Sendable (inout SplitMix, Int) throws -> Void = { random, which in
            let entry = stores[which]
            let owners = entry.count / Self.recordsPerOwner
            let owner = random.next(owners)
            let start = entry.ids[owner + random.next(150) * owners]
            let range = IndexRange(prefix: ["bench", .string("o\(owner)")], lower: RangeBound([.id(start)], inclusive: true))
            let page = try entry.store.list(Self.table, Self.byOwner, range, page: PageRequest(size: 50))
            precondition(page.items.count == 50, "short page")
        }
        if warmUp > 0 { _ = try measure(threads: 1, stores.count, seconds: warmUp, seed: 1_000, page) }
        let pages = try measure(threads: 1, stores.count, page)
        for (which, entry) in stores.enumerated() {
            print("  \(entry.count) records (\(levelZero[which]) level-0 files): \(Int(pages[which].rate)) pages/s, "
                + "p50 \(microseconds(pages[which].p50)), p99 \(microseconds(pages[which].p99))")
        }
        print("  \(state): pages/s at \(small) / pages/s at \(large): \(fixed(pages[0].rate / pages[1].rate, 2)), "
            + "p99 at \(large) / p99 at \(small): \(fixed(pages[1].p99 / pages[0].p99, 2)) (target ≤ 1.5 each)")
    }

    func configuration(_ path: String) -> StoreConfiguration {
        var configuration = StoreConfiguration(path: path)
        configuration.blockCacheBytes = cacheMiB << 20
        configuration.table.blockBytes = blockKiB << 10
        configuration.table.dataBlockHashIndex = hashIndex
        configuration.table.bloomBitsPerKey = bloomBits
        configuration.table.blockCacheShardBits = cacheShardBits
        configuration.table.optimizeFiltersForHits = optimizeFiltersForHits
        return configuration
    }

    /// Loads `count` records in transactions of 500; returns their identifiers in creation (and index) order.
    func load(_ store: Store, count: Int) async throws -> [RecordID] {
        let owners = count / Self.recordsPerOwner
        var ids = [RecordID]()
        ids.reserveCapacity(count)
        for batch in stride(from: 0, to: count, by: 500).map({ $0..<min(count, $0 + 500) }) {
            ids += try await store.write { tx in
                try batch.map { n in
                    try tx.insert(Self.table, SampleJob(
                        marketplace: "bench", dorm: "d\(n % 20)", owner: "o\(n % owners)",
                        status: SampleJob.Status.allCases[n % 4], loads: Int64(n), note: "load \(n) of the benchmark")).id
                }
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

    /// Runs `operation` on `threads` threads for `seconds`; each thread calls it for target 0, 1, …,
    /// `targets - 1` in turn. Returns, per target, the calls per second of the time spent on it
    /// (summed over threads) and the latency percentiles.
    func measure(threads: Int, _ targets: Int, seconds: Int? = nil, seed: UInt64 = 0,
                 _ operation: @escaping @Sendable (inout SplitMix, Int) throws -> Void) throws -> [Measurement] {
        let duration = Duration.seconds(seconds ?? self.seconds)
        let results = UnsafeMutableBufferPointer<[[Double]]>.allocate(capacity: threads)
        defer { results.deallocate() }
        var pthreads = [pthread_t]()
        final class Job: @unchecked Sendable {  // handed to exactly one thread
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }
        for t in 0..<threads {
            let slot = results.baseAddress! + t
            let job = Job {
                var random = SplitMix(seed: seed + UInt64(t + 1))
                var latencies = [[Double]](repeating: [], count: targets)
                let end = ContinuousClock.now + duration
                while ContinuousClock.now < end {
                    for target in 0..<targets {
                        let before = ContinuousClock.now
                        do { try operation(&random, target) } catch { fatalError("benchmark operation failed: \(error)") }
                        latencies[target].append((ContinuousClock.now - before).seconds)
                    }
                }
                slot.initialize(to: latencies)
            }
            var thread = pthread_t()
            pthread_create(&thread, nil, { raw in
                Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, Unmanaged.passRetained(job).toOpaque())
            pthreads.append(thread)
        }
        for thread in pthreads { pthread_join(thread, nil) }
        defer { results.baseAddress!.deinitialize(count: threads) }
        return (0..<targets).map { target in
            let perThread = results.map { $0[target] }
            let latencies = perThread.flatMap { $0 }.sorted()
            // Calls per second of busy time, per thread, added up over threads.
            let rate = perThread.reduce(0.0) { total, calls in total + Double(calls.count) / max(1e-9, calls.reduce(0, +)) }
            func percentile(_ p: Double) -> Double {
                latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
            }
            return Measurement(rate: rate, p50: percentile(0.5), p99: percentile(0.99))
        }
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

/// jemalloc's own account of the heap ("stats.allocated", "stats.active", …) in bytes, read with
/// `mallctl` looked up at run time; empty when the process does not run on jemalloc.
func allocatorStatistics() -> [(name: String, bytes: Int)] {
    typealias MallCtl = @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl") else { return [] }
    let mallctl = unsafeBitCast(symbol, to: MallCtl.self)
    // Statistics are cached until the epoch advances.
    var epoch: UInt64 = 1
    _ = mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size)
    return ["allocated", "active", "metadata", "resident", "mapped", "retained"].compactMap { name in
        var value = 0
        var size = MemoryLayout<Int>.size
        guard mallctl("stats.\(name)", &value, &size, nil, 0) == 0 else { return nil }
        return (name, value)
    }
}
