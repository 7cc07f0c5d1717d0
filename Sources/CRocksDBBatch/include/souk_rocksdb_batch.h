#ifndef SOUK_ROCKSDB_BATCH_H
#define SOUK_ROCKSDB_BATCH_H

#include <stddef.h>
#include <stdint.h>
#include <rocksdb/c.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Receives one key's result: its value (valid only during the call), or NULL when the key is
/// absent; `error` is RocksDB's message when the lookup failed (and NULL otherwise).
typedef void (*souk_multi_get_visitor)(void *context, size_t index, const char *value, size_t length, const char *error);

/// RocksDB's batched MultiGet (the C API of RocksDB 7.8 offers only the per-key loop for a
/// TransactionDB): looks up `count` keys of the default column family in one pass, through
/// `snapshot` when not NULL, and calls `visit` once per key, in key order of the arguments.
/// `sorted_input` says the keys are already in ascending order.
void souk_transactiondb_batched_multi_get(rocksdb_transactiondb_t *db, const rocksdb_snapshot_t *snapshot,
                                          size_t count, const char *const *keys, const size_t *key_sizes,
                                          unsigned char sorted_input, void *context, souk_multi_get_visitor visit);

/// RocksDB's CompactRange over every key of the default column family (the C API of RocksDB 7.8
/// offers it only on a plain DB, and without its status): merges the level-0 files and every
/// upper level down into the bottom level. Blocks until done. On failure sets `*errptr` to
/// RocksDB's message (malloc'ed; free it with `rocksdb_free`).
void souk_transactiondb_compact_all(rocksdb_transactiondb_t *db, char **errptr);

/// A transaction's GetForUpdate that does not wait for a lock another transaction holds: it
/// returns 1 at once, reading nothing, when `key` is locked by another transaction. Otherwise it
/// locks `key`, calls `visit` once with the latest committed value (or this transaction's own
/// write; NULL when absent; index 0) and returns 0. The transaction's lock timeout is set back to
/// `lock_timeout_ms` after. On failure sets `*errptr` to RocksDB's message (malloc'ed; free it
/// with `rocksdb_free`) and returns 0.
int souk_transaction_get_for_update_nowait(rocksdb_transaction_t *txn, const char *key, size_t key_size,
                                           int64_t lock_timeout_ms, void *context, souk_multi_get_visitor visit,
                                           char **errptr);

/// A transaction's Put and Delete that take no lock on the key (written into the transaction's
/// batch directly): for keys whose writers are already serialized by a lock on another key this
/// transaction holds, such as a record's index entries. On failure sets `*errptr` to RocksDB's
/// message (malloc'ed; free it with `rocksdb_free`).
void souk_transaction_put_unlocked(rocksdb_transaction_t *txn, const char *key, size_t key_size, const char *value,
                                   size_t value_size, char **errptr);
void souk_transaction_delete_unlocked(rocksdb_transaction_t *txn, const char *key, size_t key_size, char **errptr);

/// RocksDB's VerifyBackup with checksums (the C API's verify checks sizes only): every file of
/// the backup is present, of its recorded size, and has its recorded CRC-32C checksum. On failure
/// sets `*errptr` to RocksDB's message, which names the file (malloc'ed; free it with `rocksdb_free`).
void souk_backup_engine_verify_with_checksums(rocksdb_backup_engine_t *engine, uint32_t backup_id, char **errptr);

/// Takes the lock RocksDB takes on `<directory>/LOCK` while a database is open there (the same
/// file lock, so it fails while any process has the database open, and a process cannot open it
/// while this is held). Returns the lock, or NULL with `*errptr` set.
void *souk_lock_database_directory(const char *directory, char **errptr);
void souk_unlock_database_directory(void *lock);

/// Swaps two paths atomically (`renameat2` with RENAME_EXCHANGE); 0 on success, -1 with errno.
int souk_exchange_paths(const char *first, const char *second);

#ifdef __cplusplus
}
#endif

#endif
