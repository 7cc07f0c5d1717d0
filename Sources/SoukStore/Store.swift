// RocksDB-backed records and indexes.
