/// The one place that writes index entries: given a record's old and new state, it deletes the
/// entries only the old state had and adds the ones only the new state has, in the transaction
/// that writes the record. Handlers never write index entries themselves.
enum IndexMaintainer {
    static func apply<Value>(
        _ table: Table<Value>, old: StoredRecord<Value>?, new: StoredRecord<Value>?, in transaction: any EngineTransaction
    ) throws {
        if let old, let new, let same = table.sameIndexEntries, same(old.value, new.value) { return }
        for index in table.indexes {
            try apply(index, old: old.map(index.entries(for:)) ?? [], new: new.map(index.entries(for:)) ?? [],
                      recordID: new?.id, in: transaction)
        }
    }

    /// Writes the difference between two sets of entries of one index.
    static func apply<Value>(
        _ index: Index<Value>, old: [IndexEntry], new: [IndexEntry], recordID: RecordID?, in transaction: any EngineTransaction
    ) throws {
        // A non-unique entry's key ends with its record's id, so only writers of that record
        // write it, and they hold the record's lock (read with a lock, or a new generated id):
        // the entry needs no lock of its own. A unique entry is a value others may claim.
        let locked = index.kind == .unique
        for entry in old where !new.contains(where: { $0.key == entry.key }) {
            try transaction.delete(entry.key, locking: locked)
        }
        for entry in new where !old.contains(entry) {
            if locked, let recordID {
                // Locks the value (even when absent), so two transactions cannot both claim it.
                try transaction.getForUpdate(entry.key) { existing in
                    if let existing, let owner = RecordID(bytes: existing), owner != recordID {
                        throw StoreError.uniqueViolation(index: index.name, existing: owner)
                    }
                }
            }
            try transaction.put(entry.key, entry.value, locking: locked)
        }
    }
}
