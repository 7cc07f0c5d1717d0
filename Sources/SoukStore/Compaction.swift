extension Store {
    /// Merges all data down into the bottom level now (RocksDB's manual full compaction) and
    /// returns when it is done; the store keeps serving meanwhile.
    ///
    /// RocksDB compacts level 0 only once it holds several flushed files, so after a bulk import
    /// or a restore a store can sit with a few level-0 files that every lookup must probe in
    /// addition to the bottom level. Compacting then leaves one sorted run, and each lookup
    /// probes one file. Not needed in normal operation; it costs a rewrite of the upper levels.
    public func compact() async throws {
        try await runOnWriter { try self.guarded { try self.rocksOnly("compact").compactAll() } }
    }
}
