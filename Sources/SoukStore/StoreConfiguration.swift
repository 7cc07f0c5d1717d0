import CRocksDB
import Logging

/// When a commit is forced to stable storage.
///
/// Either way a commit is acknowledged only after RocksDB has appended it to the write-ahead log.
public enum SyncPolicy: Sendable, Equatable {
    /// fsync the write-ahead log before acknowledging; concurrent commits share one fsync (group
    /// commit). An acknowledged write survives a process crash **and** a power loss or kernel
    /// panic. The default.
    case syncEveryCommit
    /// Hand the log record to the operating system without fsync. An acknowledged write survives
    /// a crash of the process (the kernel still holds it) but the last writes before a power loss
    /// or kernel panic may be lost; the store then reopens at the last complete write.
    case none
}

/// A block compression algorithm.
public enum CompressionAlgorithm: Sendable, Equatable {
    case none, lz4, zstd, snappy

    var rocksValue: Int32 {
        switch self {
        case .none: Int32(rocksdb_no_compression)
        case .lz4: Int32(rocksdb_lz4_compression)
        case .zstd: Int32(rocksdb_zstd_compression)
        case .snappy: Int32(rocksdb_snappy_compression)
        }
    }
}

/// Compression of data files: a fast algorithm for the recent (upper) levels, which are rewritten
/// often, and a dense one for the bottom level, which holds most of the data.
public struct CompressionSettings: Sendable, Equatable {
    public var recentLevels: CompressionAlgorithm
    public var bottomLevel: CompressionAlgorithm

    public init(recentLevels: CompressionAlgorithm = .lz4, bottomLevel: CompressionAlgorithm = .zstd) {
        self.recentLevels = recentLevels
        self.bottomLevel = bottomLevel
    }
}

/// How data files are laid out and looked up: settings that trade memory and disk for the cost of
/// one record lookup. The defaults suit Souk's reads (pages of records fetched by identifier).
public struct TableSettings: Sendable, Equatable {
    /// Target size of one (uncompressed) data block. 16 KiB rather than RocksDB's 4 KiB: the
    /// index of a data file (held in memory outside the block cache) is a quarter as large, a
    /// lookup's index search is shorter and files compress better; a block cache miss reads and
    /// decompresses more bytes.
    public var blockBytes: Int = 16 << 10
    /// Adds a small hash table to every data block, so a point lookup finds its key's restart
    /// interval in one probe instead of a binary search (costs about 5 % more disk).
    public var dataBlockHashIndex = true
    /// Keys per hash bucket of that index (lower: fewer collisions, more space).
    public var dataBlockHashRatio = 0.75
    /// Bloom filter bits per key (about 1 % false positives at 10).
    public var bloomBitsPerKey = 10.0
    /// Block cache shards as a power of two (nil: RocksDB picks from the capacity).
    public var blockCacheShardBits: Int? = nil
    /// Leaves the bloom filter out of bottom-level files: saves their memory, but a lookup of an
    /// absent key (a unique index or idempotency check) then reads a bottom-level data block.
    public var optimizeFiltersForHits = false

    public init() {}
}

/// How to open a store: where, how much memory, compression, durability and housekeeping.
public struct StoreConfiguration: Sendable {
    /// The database directory (created when missing).
    public var path: String
    /// Size of the shared block cache for (uncompressed) data blocks.
    public var blockCacheBytes: Int = 256 << 20
    /// Read data files with direct I/O, past the operating system's page cache, so that a block
    /// cache miss waits for the disk (for benchmarks of cold reads; off by default).
    public var directReads = false
    /// How data files are laid out and looked up (block size, in-block hash index, filters).
    public var table = TableSettings()
    /// Size of one memtable before it is flushed to a data file.
    public var writeBufferBytes: Int = 64 << 20
    /// Level-0 files that start a compaction into the levels below. Level-0 files overlap, so a
    /// lookup checks each one: 2 (RocksDB's default is 4) keeps lookups short at the cost of
    /// compacting more often.
    public var levelZeroCompactionTrigger: Int = 2
    public var compression = CompressionSettings()
    /// The write-ahead log. Keep it on: with it off nothing written since the last memtable flush
    /// survives even a process crash (only for throwaway bulk loads).
    public var writeAheadLog = true
    /// Where the write-ahead log lives (default: inside `path`); a separate fast disk helps fsync latency.
    public var walDirectory: String? = nil
    /// When the log grows past this, memtables are flushed so old log files can be deleted.
    public var maxTotalWALBytes: Int = 512 << 20
    public var syncPolicy: SyncPolicy = .syncEveryCommit
    /// RocksDB's flush and compaction threads.
    public var backgroundThreads = 4
    /// Threads that run write transactions (they block in lock waits and fsync). Concurrent commits
    /// are grouped into one fsync only if they run on different threads, so keep this at least as
    /// large as the number of concurrent writers you expect.
    public var writerThreads = 64
    /// How long a transaction waits for a key another transaction holds before giving up (and retrying).
    public var lockTimeout: Duration = .seconds(2)
    /// How many times a transaction is attempted when it collides with others before `.conflict` is thrown.
    public var maxAttempts = 10
    /// How long idempotency records are kept.
    public var idempotencyRetention: Duration = .seconds(24 * 3600)
    /// How long events are kept for resuming streams.
    public var eventRetention: Duration = .seconds(7 * 24 * 3600)
    /// The clock for timestamps and expiry (tests may substitute one).
    public var clock: @Sendable () -> StoreTime = { StoreTime.now() }
    public var logger = Logger(label: "souk.store")

    public init(path: String) {
        self.path = path
    }

    var lockTimeoutMilliseconds: Int64 {
        let (seconds, attoseconds) = lockTimeout.components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}
