/// Raw access for tests that damage a store on purpose (corrupt values, lost index entries).
/// Not for production code: it bypasses the envelope and the index maintainer.
extension Store {
    /// How many store calls (reads, transactions, maintenance) this store has served, so a test
    /// can check that some work reads nothing.
    /// The embedded database of a store opened on RocksDB (tests of RocksDB's own behaviour).
    var database: RocksDatabase { engine.rocksDatabase! }

    @_spi(Testing)
    public var callCount: Int { calls.load(ordering: .relaxed) }

    @_spi(Testing)
    public func rawRecordValue<Value>(_ table: Table<Value>, _ id: RecordID) throws -> [UInt8]? {
        try guarded { try engine.read(table.recordKey(id), in: nil) { $0.map(Array.init) } }
    }

    @_spi(Testing)
    public func setRawRecordValue<Value>(_ table: Table<Value>, _ id: RecordID, _ bytes: [UInt8]) async throws {
        try await rawWrite { try $0.put(table.recordKey(id), bytes) }
    }

    /// Deletes (`present: false`) or re-adds the index entries the record currently has in `index`.
    @_spi(Testing)
    public func setRawIndexEntries<Value>(_ index: Index<Value>, of record: StoredRecord<Value>, present: Bool) async throws {
        let entries = index.entries(for: record)
        try await rawWrite { transaction in
            for entry in entries {
                if present { try transaction.put(entry.key, entry.value) } else { try transaction.delete(entry.key) }
            }
        }
    }

    private func rawWrite(_ body: @escaping @Sendable (any EngineTransaction) throws -> Void) async throws {
        try await runOnWriter {
            try self.guarded {
                let transaction = self.engine.beginTransaction()
                try body(transaction)
                try transaction.commit()
            }
        }
    }
}
