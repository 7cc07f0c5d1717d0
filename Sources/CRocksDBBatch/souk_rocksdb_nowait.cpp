#include "souk_rocksdb_batch.h"

#include <cstring>
#include <string>
#include "handles.h"

extern "C" int souk_transaction_get_for_update_nowait(rocksdb_transaction_t *txn, const char *key, size_t key_size,
                                                      int64_t lock_timeout_ms, void *context, souk_multi_get_visitor visit,
                                                      char **errptr) {
    std::string value;
    txn->rep->SetLockTimeout(0);
    rocksdb::Status status = txn->rep->GetForUpdate(rocksdb::ReadOptions(), rocksdb::Slice(key, key_size), &value);
    txn->rep->SetLockTimeout(lock_timeout_ms);
    if (status.ok()) {
        visit(context, 0, value.data(), value.size(), nullptr);
    } else if (status.IsNotFound()) {
        visit(context, 0, nullptr, 0, nullptr);
    } else if (status.IsTimedOut()) {
        return 1;
    } else {
        *errptr = strdup(status.ToString().c_str());
    }
    return 0;
}
