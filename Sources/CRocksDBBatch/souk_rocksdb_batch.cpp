#include "souk_rocksdb_batch.h"

#include <memory>
#include "handles.h"

extern "C" void souk_transactiondb_batched_multi_get(rocksdb_transactiondb_t *db, const rocksdb_snapshot_t *snapshot,
                                                     size_t count, const char *const *keys, const size_t *key_sizes,
                                                     unsigned char sorted_input, void *context, souk_multi_get_visitor visit) {
    if (count == 0) return;
    rocksdb::ReadOptions options;
    if (snapshot) options.snapshot = snapshot->rep;
    std::unique_ptr<rocksdb::Slice[]> slices(new rocksdb::Slice[count]);
    std::unique_ptr<rocksdb::PinnableSlice[]> values(new rocksdb::PinnableSlice[count]);
    std::unique_ptr<rocksdb::Status[]> statuses(new rocksdb::Status[count]);
    for (size_t i = 0; i < count; i++) slices[i] = rocksdb::Slice(keys[i], key_sizes[i]);
    db->rep->MultiGet(options, db->rep->DefaultColumnFamily(), count, slices.get(), values.get(), statuses.get(),
                      sorted_input != 0);
    for (size_t i = 0; i < count; i++) {
        const rocksdb::Status &status = statuses[i];
        if (status.ok()) {
            visit(context, i, values[i].data(), values[i].size(), nullptr);
        } else if (status.IsNotFound()) {
            visit(context, i, nullptr, 0, nullptr);
        } else {
            std::string message = status.ToString();
            visit(context, i, nullptr, 0, message.c_str());
        }
    }
}
