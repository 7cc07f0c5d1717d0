#ifndef SOUK_ROCKSDB_HANDLES_H
#define SOUK_ROCKSDB_HANDLES_H

#include <rocksdb/utilities/transaction_db.h>

// The C API's handles are single-pointer wrappers, defined in RocksDB's c.cc (not in a header);
// these are the same definitions.
struct rocksdb_transactiondb_t { rocksdb::TransactionDB *rep; };
struct rocksdb_snapshot_t { const rocksdb::Snapshot *rep; };
struct rocksdb_transaction_t { rocksdb::Transaction *rep; };

#endif
