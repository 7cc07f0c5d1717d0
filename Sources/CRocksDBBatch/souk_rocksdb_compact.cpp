#include "souk_rocksdb_batch.h"

#include <cstring>
#include "handles.h"

extern "C" void souk_transactiondb_compact_all(rocksdb_transactiondb_t *db, char **errptr) {
    rocksdb::CompactRangeOptions options;
    // Level 0 is always merged into the level below, and each level into the next, down to the
    // bottom level; the bottom level's own files, already sorted and disjoint, are not rewritten
    // (there is no compaction filter to apply).
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kIfHaveCompactionFilter;
    // The store keeps serving: automatic compactions of new flushes keep running alongside.
    options.exclusive_manual_compaction = false;
    rocksdb::Status status = db->rep->CompactRange(options, nullptr, nullptr);
    if (!status.ok()) *errptr = strdup(status.ToString().c_str());
}
