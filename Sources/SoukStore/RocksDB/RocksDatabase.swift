import CRocksDB
import CRocksDBBatch

/// An open RocksDB TransactionDB and the option objects it was opened with.
///
/// `@unchecked Sendable`: RocksDB's DB, cache and option objects are safe to use from many threads
/// at once; every pointer here is created in `init`, only read afterwards, and freed exactly once
/// in `close()`, which the owner calls when no operation is in flight (see `Store.close`).
final class RocksDatabase: @unchecked Sendable {
    let handle: OpaquePointer
    let writeOptions: OpaquePointer
    let readOptions: OpaquePointer
    let transactionOptions: OpaquePointer
    /// How long a transaction waits for another's lock (the TransactionDB's default).
    let lockTimeoutMilliseconds: Int64
    private let options: OpaquePointer
    private let tableOptions: OpaquePointer
    private let cache: OpaquePointer
    private let transactionDBOptions: OpaquePointer
    private var isClosed = false

    init(_ configuration: StoreConfiguration) throws {
        let options = RocksDatabase.makeOptions(configuration)
        let table = configuration.table
        let cache = RocksDatabase.makeCache(configuration)
        let tableOptions = rocksdb_block_based_options_create()!
        rocksdb_block_based_options_set_block_cache(tableOptions, cache)
        rocksdb_block_based_options_set_block_size(tableOptions, table.blockBytes)
        if table.dataBlockHashIndex {
            rocksdb_block_based_options_set_data_block_index_type(
                tableOptions, Int32(rocksdb_block_based_table_data_block_index_type_binary_search_and_hash))
            rocksdb_block_based_options_set_data_block_hash_ratio(tableOptions, table.dataBlockHashRatio)
        }
        // The table factory takes ownership of the filter policy.
        rocksdb_block_based_options_set_filter_policy(tableOptions, rocksdb_filterpolicy_create_bloom_full(table.bloomBitsPerKey))
        // Index and filter blocks stay with their open table files, outside the block cache: a large
        // file's whole filter (≈ 4 MiB for 64 MiB of data) does not fit one cache shard and would be
        // evicted and re-read on nearly every lookup. They cost about 2 MiB of memory per million records.
        rocksdb_block_based_options_set_cache_index_and_filter_blocks(tableOptions, 0)
        rocksdb_block_based_options_set_format_version(tableOptions, 5)
        rocksdb_options_set_block_based_table_factory(options, tableOptions)

        let txnDBOptions = rocksdb_transactiondb_options_create()!
        rocksdb_transactiondb_options_set_transaction_lock_timeout(txnDBOptions, configuration.lockTimeoutMilliseconds)
        lockTimeoutMilliseconds = configuration.lockTimeoutMilliseconds

        let handle: OpaquePointer?
        do {
            handle = try Rocks.call("open \(configuration.path)") { error in
                rocksdb_transactiondb_open(options, txnDBOptions, configuration.path, error)
            }
        } catch {
            rocksdb_transactiondb_options_destroy(txnDBOptions)
            rocksdb_block_based_options_destroy(tableOptions)
            rocksdb_cache_destroy(cache)
            rocksdb_options_destroy(options)
            throw error
        }
        self.handle = handle!
        self.options = options
        self.cache = cache
        self.tableOptions = tableOptions
        self.transactionDBOptions = txnDBOptions

        writeOptions = rocksdb_writeoptions_create()
        rocksdb_writeoptions_set_sync(writeOptions, configuration.syncPolicy == .syncEveryCommit ? 1 : 0)
        rocksdb_writeoptions_disable_WAL(writeOptions, configuration.writeAheadLog ? 0 : 1)
        readOptions = rocksdb_readoptions_create()
        transactionOptions = rocksdb_transaction_options_create()
        // A deadlock fails at once (as a conflict, retried) instead of waiting for the lock timeout.
        rocksdb_transaction_options_set_deadlock_detect(transactionOptions, 1)
    }

    private static func makeCache(_ configuration: StoreConfiguration) -> OpaquePointer {
        guard let shardBits = configuration.table.blockCacheShardBits else {
            return rocksdb_cache_create_lru(configuration.blockCacheBytes)!
        }
        let cacheOptions = rocksdb_lru_cache_options_create()!
        defer { rocksdb_lru_cache_options_destroy(cacheOptions) }
        rocksdb_lru_cache_options_set_capacity(cacheOptions, configuration.blockCacheBytes)
        rocksdb_lru_cache_options_set_num_shard_bits(cacheOptions, Int32(shardBits))
        return rocksdb_cache_create_lru_opts(cacheOptions)!
    }

    private static func makeOptions(_ configuration: StoreConfiguration) -> OpaquePointer {
        let options = rocksdb_options_create()!
        rocksdb_options_set_create_if_missing(options, 1)
        rocksdb_options_increase_parallelism(options, Int32(max(2, configuration.backgroundThreads)))
        rocksdb_options_set_max_background_jobs(options, Int32(max(2, configuration.backgroundThreads)))
        rocksdb_options_set_write_buffer_size(options, configuration.writeBufferBytes)
        // A bloom filter of the memtable's whole keys (2% of its size): a transaction's read of a
        // key the memtable does not hold (a unique value still free, an idempotency key not seen,
        // a record flushed earlier) skips the search of its skip list.
        rocksdb_options_set_memtable_prefix_bloom_size_ratio(options, 0.02)
        rocksdb_options_set_memtable_whole_key_filtering(options, 1)
        rocksdb_options_set_use_direct_reads(options, configuration.directReads ? 1 : 0)
        // A TransactionDB keeps flushed memtables in memory (up to write_buffer_size × the number
        // of write buffers) to check snapshot transactions for conflicts, unless told otherwise.
        // Souk's transactions lock what they read and take no snapshot, so that history is never
        // read: one byte keeps none, where 0 would let TransactionDB choose the full history.
        rocksdb_options_set_max_write_buffer_size_to_maintain(options, 1)
        rocksdb_options_set_level_compaction_dynamic_level_bytes(options, 1)
        rocksdb_options_set_level0_file_num_compaction_trigger(options, Int32(configuration.levelZeroCompactionTrigger))
        rocksdb_options_set_bytes_per_sync(options, 1 << 20)
        rocksdb_options_set_compression(options, configuration.compression.recentLevels.rocksValue)
        rocksdb_options_set_bottommost_compression(options, configuration.compression.bottomLevel.rocksValue)
        rocksdb_options_set_optimize_filters_for_hits(options, configuration.table.optimizeFiltersForHits ? 1 : 0)
        // After a power loss with `SyncPolicy.none` the WAL may end in a torn record: recover to the
        // last complete write instead of refusing to open.
        rocksdb_options_set_wal_recovery_mode(options, Int32(rocksdb_point_in_time_recovery))
        if let walDirectory = configuration.walDirectory { rocksdb_options_set_wal_dir(options, walDirectory) }
        rocksdb_options_set_max_total_wal_size(options, UInt64(configuration.maxTotalWALBytes))
        rocksdb_options_set_keep_log_file_num(options, 5)
        rocksdb_options_set_info_log_level(options, 2)  // warnings and errors in the LOG file
        return options
    }

    /// Frees everything; called exactly once, when nothing uses the database any more.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        rocksdb_transactiondb_close(handle)
        rocksdb_transaction_options_destroy(transactionOptions)
        rocksdb_readoptions_destroy(readOptions)
        rocksdb_writeoptions_destroy(writeOptions)
        rocksdb_transactiondb_options_destroy(transactionDBOptions)
        rocksdb_block_based_options_destroy(tableOptions)
        rocksdb_cache_destroy(cache)
        rocksdb_options_destroy(options)
    }

    deinit { close() }

    // MARK: Reads outside a transaction

    /// Looks `key` up and hands the value (without copying it) to `body`, or nil when absent.
    func get<R>(_ key: [UInt8], readOptions: OpaquePointer? = nil, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        let slice = try Rocks.withChars(key) { pointer, length in
            try Rocks.call("get") { error in
                rocksdb_transactiondb_get_pinned(handle, readOptions ?? self.readOptions, pointer, length, error)
            }
        }
        guard let slice else { return try body(nil) }
        defer { rocksdb_pinnableslice_destroy(slice) }
        var length = 0
        let value = rocksdb_pinnableslice_value(slice, &length)
        return try body(Rocks.buffer(value, length))
    }

    /// Looks up many keys in one batch (RocksDB's batched MultiGet: one pass per data file, filters
    /// probed for all keys together), through `snapshot` when given; calls `body` once per key, in
    /// order, with its value (valid only during the call) or nil. The keys lie end to end in `flat`
    /// (one allocation for the whole batch), `sizes` long each.
    func multiGet(flat: [UInt8], sizes: [Int], snapshot: RocksSnapshot? = nil,
                  _ body: (Int, UnsafeRawBufferPointer?) throws -> Void) throws {
        let count = sizes.count
        guard count > 0 else { return }
        // The C callback cannot throw: the first error is kept and rethrown after the batch.
        struct Visit {
            var body: (Int, UnsafeRawBufferPointer?) throws -> Void
            var failure: (any Error)?
        }
        try withoutActuallyEscaping(body) { body in
            var visit = Visit(body: body, failure: nil)
            Rocks.withChars(flat) { base, _ in
                var offset = 0
                let keyPointers = sizes.map { size -> UnsafePointer<CChar>? in
                    defer { offset += size }
                    return base + offset
                }
                withUnsafeMutablePointer(to: &visit) { context in
                    souk_transactiondb_batched_multi_get(
                        handle, snapshot?.snapshotHandle, count, keyPointers, sizes, 0, context
                    ) { context, index, value, length, error in
                        let visit = context!.assumingMemoryBound(to: Visit.self)
                        guard visit.pointee.failure == nil else { return }
                        do {
                            if let error {
                                throw Rocks.classify("multi-get", String(cString: error))
                            }
                            try visit.pointee.body(index, value.map { Rocks.buffer($0, length) })
                        } catch {
                            visit.pointee.failure = error
                        }
                    }
                }
            }
            if let failure = visit.failure { throw failure }
        }
    }

    func property(_ name: String) -> String? {
        guard let value = rocksdb_transactiondb_property_value(handle, name) else { return nil }
        defer { rocksdb_free(value) }
        return String(cString: value)
    }

    func flush() throws {
        let flushOptions = rocksdb_flushoptions_create()
        defer { rocksdb_flushoptions_destroy(flushOptions) }
        rocksdb_flushoptions_set_wait(flushOptions, 1)
        try Rocks.call("flush") { rocksdb_transactiondb_flush(handle, flushOptions, $0) }
    }

    /// Merges every key range down into the bottom level (see `Store.compact`); blocks until done.
    func compactAll() throws {
        try Rocks.call("compact") { souk_transactiondb_compact_all(handle, $0) }
    }

    /// A consistent, hard-linked copy of the database in `directory` (which must not exist).
    func checkpoint(to directory: String) throws {
        let checkpoint = try Rocks.call("checkpoint") { rocksdb_transactiondb_checkpoint_object_create(handle, $0) }
        defer { rocksdb_checkpoint_object_destroy(checkpoint) }
        // 0: flush the memtables first, so the copy is SST files and a short WAL.
        try Rocks.call("checkpoint \(directory)") { rocksdb_checkpoint_create(checkpoint, directory, 0, $0) }
    }
}
