#include "souk_rocksdb_batch.h"

#include <cstring>
#include "handles.h"

static void souk_set_error(const rocksdb::Status &status, char **errptr) {
    if (!status.ok()) *errptr = strdup(status.ToString().c_str());
}

extern "C" void souk_transaction_put_untracked(rocksdb_transaction_t *txn, const char *key, size_t key_size,
                                               const char *value, size_t value_size, char **errptr) {
    souk_set_error(txn->rep->PutUntracked(rocksdb::Slice(key, key_size), rocksdb::Slice(value, value_size)), errptr);
}

extern "C" void souk_transaction_delete_untracked(rocksdb_transaction_t *txn, const char *key, size_t key_size,
                                                  char **errptr) {
    souk_set_error(txn->rep->DeleteUntracked(rocksdb::Slice(key, key_size)), errptr);
}
