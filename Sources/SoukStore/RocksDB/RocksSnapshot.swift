import CRocksDB

/// A consistent point-in-time view of the database, with read options that read through it.
final class RocksSnapshot {
    let readOptions: OpaquePointer
    let snapshotHandle: OpaquePointer
    private let database: RocksDatabase

    init(_ database: RocksDatabase) {
        self.database = database
        snapshotHandle = rocksdb_transactiondb_create_snapshot(database.handle)
        readOptions = rocksdb_readoptions_create()
        rocksdb_readoptions_set_snapshot(readOptions, snapshotHandle)
    }

    deinit {
        rocksdb_readoptions_destroy(readOptions)
        rocksdb_transactiondb_release_snapshot(database.handle, snapshotHandle)
    }
}
