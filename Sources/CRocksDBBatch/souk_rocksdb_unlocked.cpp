#include "souk_rocksdb_batch.h"

#include <cstring>
#include <rocksdb/utilities/write_batch_with_index.h>
#include "handles.h"

// RocksDB's own PutUntracked still locks the key (it only skips the snapshot check), so these
// write into the transaction's indexed batch directly: the write is committed with the
// transaction's other writes and read back by its reads, and takes no lock. Right for Souk's
// write-committed pessimistic transactions, whose commit writes that batch as it is.

static void souk_set_error(const rocksdb::Status &status, char **errptr) {
    if (!status.ok()) *errptr = strdup(status.ToString().c_str());
}

extern "C" void souk_transaction_put_unlocked(rocksdb_transaction_t *txn, const char *key, size_t key_size,
                                              const char *value, size_t value_size, char **errptr) {
    souk_set_error(txn->rep->GetWriteBatch()->Put(rocksdb::Slice(key, key_size), rocksdb::Slice(value, value_size)), errptr);
}

extern "C" void souk_transaction_delete_unlocked(rocksdb_transaction_t *txn, const char *key, size_t key_size,
                                                 char **errptr) {
    souk_set_error(txn->rep->GetWriteBatch()->Delete(rocksdb::Slice(key, key_size)), errptr);
}
