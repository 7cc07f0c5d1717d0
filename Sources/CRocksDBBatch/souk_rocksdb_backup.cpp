#include "souk_rocksdb_batch.h"

#include <cstring>
#include <stdio.h>
#include <fcntl.h>
#include <string>
#include <rocksdb/env.h>
#include <rocksdb/utilities/backup_engine.h>

// The C API's backup engine handle, as defined in RocksDB's c.cc.
struct rocksdb_backup_engine_t { rocksdb::BackupEngine *rep; };

static void set_error(char **errptr, const rocksdb::Status &status) {
    if (!status.ok()) *errptr = strdup(status.ToString().c_str());
}

extern "C" void souk_backup_engine_verify_with_checksums(rocksdb_backup_engine_t *engine, uint32_t backup_id, char **errptr) {
    set_error(errptr, engine->rep->VerifyBackup(backup_id, /* verify_with_checksum */ true));
}

extern "C" void *souk_lock_database_directory(const char *directory, char **errptr) {
    rocksdb::FileLock *lock = nullptr;
    rocksdb::Status status = rocksdb::Env::Default()->LockFile(std::string(directory) + "/LOCK", &lock);
    set_error(errptr, status);
    return status.ok() ? lock : nullptr;
}

extern "C" void souk_unlock_database_directory(void *lock) {
    if (lock) rocksdb::Env::Default()->UnlockFile(static_cast<rocksdb::FileLock *>(lock)).PermitUncheckedError();
}

extern "C" int souk_exchange_paths(const char *first, const char *second) {
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
}
