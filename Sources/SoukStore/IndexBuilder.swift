/// Index states and building an index from existing records (schema evolution).
///
/// Metadata keys `M | "index" | name` hold "ready" once an index holds an entry for every record.
extension Store {
    private static let ready: [UInt8] = Array("ready".utf8)

    func indexStateKey(_ name: String) -> [UInt8] {
        var key = KeySpace.prefix(KeySpace.metadata, "index")
        KeyPart.string(name).encode(into: &key)
        return key
    }

    /// At open: an index is ready when its metadata says so, or when its table is empty (it is
    /// then recorded as ready). Otherwise it is new on a table with records, and must be built.
    func loadIndexStates() throws {
        let readyKeys = try schema.tables.flatMap { table -> [[UInt8]] in
            let isEmpty = try tableIsEmpty(table)
            var newlyReady = [[UInt8]]()
            for index in table.indexes {
                let key = indexStateKey(index.name)
                let isReady = try engine.read(key, in: nil) { $0.map { Array($0) == Store.ready } ?? false }
                if isReady {
                    indexStatus[index.name]?.markReady()
                } else if isEmpty {
                    indexStatus[index.name]?.markReady()
                    newlyReady.append(key)
                } else {
                    logger.warning("index is not built yet; run build-index", metadata: ["index": "\(index.name)"])
                }
            }
            return newlyReady
        }
        guard !readyKeys.isEmpty else { return }
        // In commits the engine accepts (a replicated engine limits the writes of one commit).
        let batch = engine.maxWritesPerCommit ?? readyKeys.count
        for start in stride(from: 0, to: readyKeys.count, by: max(1, batch)) {
            let transaction = engine.beginTransaction()
            for key in readyKeys[start..<min(readyKeys.count, start + batch)] { try transaction.put(key, Store.ready) }
            try transaction.commit()
        }
    }

    private func tableIsEmpty(_ table: AnyTable) throws -> Bool {
        let iterator = engine.iterator(lower: table.recordPrefix, upper: KeySpace.upperBound(ofPrefix: table.recordPrefix), in: nil)
        iterator.seekToFirst()
        try iterator.checkError()
        return !iterator.isValid
    }

    /// The indexes that are declared but not built yet.
    public var pendingIndexes: [String] {
        indexStatus.filter { !$0.value.isReady }.map(\.key).sorted()
    }

    /// Whether the named index is built (nil when the schema has no such index).
    public func isIndexReady(_ name: String) -> Bool? {
        indexStatus[name]?.isReady
    }

    /// Fills an index from the existing records of its table, online, then marks it ready.
    ///
    /// Works through the table in batches of `batchSize` records, each batch one transaction that
    /// locks the records it indexes, so concurrent writers (which maintain the index from the
    /// moment it is declared) and the builder never leave a stale entry. Safe to run again or to
    /// resume after an interruption. Returns the number of records indexed. Throws
    /// `.uniqueViolation` when existing records break a new unique index.
    @discardableResult
    public func buildIndex(_ name: String, batchSize: Int = 500) async throws -> Int {
        guard let table = schema.tables.first(where: { $0.indexes.contains { $0.name == name } }),
              let position = table.indexes.firstIndex(where: { $0.name == name })
        else { throw StoreError.unknownSchemaObject("index \(name)") }
        let kind = table.indexes[position].kind
        // A record costs a read for update and its entries (a few): a batch fits one commit of the engine.
        let batchSize = engine.maxWritesPerCommit.map { min(batchSize, max(1, $0 / 4)) } ?? batchSize
        var after: RecordID? = nil
        var count = 0
        while true {
            let ids = try recordIDs(of: table, after: after, limit: batchSize)
            guard let last = ids.last else { break }
            try await runBatch(table: table, ids: ids, index: position, kind: kind, name: name)
            count += ids.count
            after = last
        }
        try await runOnWriter {
            try self.guarded {
                let transaction = self.engine.beginTransaction()
                try transaction.put(self.indexStateKey(name), Store.ready)
                try transaction.commit()
            }
        }
        indexStatus[name]?.markReady()
        logger.info("index built", metadata: ["index": "\(name)", "records": "\(count)"])
        return count
    }

    /// Builds every index that is not ready yet; returns their names.
    @discardableResult
    public func buildPendingIndexes() async throws -> [String] {
        let pending = pendingIndexes
        for name in pending { try await buildIndex(name) }
        return pending
    }

    private func recordIDs(of table: AnyTable, after: RecordID?, limit: Int) throws -> [RecordID] {
        try guarded {
            let lower = after.map { KeySpace.successor(of: table.recordKey($0)) } ?? table.recordPrefix
            let iterator = engine.iterator(lower: lower, upper: KeySpace.upperBound(ofPrefix: table.recordPrefix), in: nil)
            var ids = [RecordID]()
            iterator.seekToFirst()
            while iterator.isValid && ids.count < limit {
                if let id = KeySpace.trailingID(of: iterator.keyBuffer) { ids.append(id) }
                iterator.next()
            }
            try iterator.checkError()
            return ids
        }
    }

    private func runBatch(table: AnyTable, ids: [RecordID], index position: Int, kind: IndexKind, name: String) async throws {
        var attempt = 1
        while true {
            do {
                try await runOnWriter {
                    try self.guarded {
                        let transaction = self.engine.beginTransaction()
                        do {
                            for id in ids {
                                let entries: [IndexEntry]? = try transaction.getForUpdate(table.recordKey(id)) { bytes in
                                    guard let bytes else { return nil }  // deleted meanwhile
                                    do {
                                        return try table.entriesForValueInIndex(position, id, bytes)
                                    } catch let error as StoreError {
                                        guard case .corruptRecord = error else { throw error }
                                        // An unreadable record cannot be indexed; `verify` reports it.
                                        self.logger.warning("skipping unreadable record", metadata: ["error": "\(error)"])
                                        return nil
                                    }
                                }
                                for entry in entries ?? [] {
                                    if kind == .unique {
                                        try transaction.getForUpdate(entry.key) { existing in
                                            if let existing, let owner = RecordID(bytes: existing), owner != id {
                                                throw StoreError.uniqueViolation(index: name, existing: owner)
                                            }
                                        }
                                    }
                                    try transaction.put(entry.key, entry.value)
                                }
                            }
                            try transaction.commit()
                        } catch {
                            transaction.rollback()
                            throw error
                        }
                    }
                }
                return
            } catch let error as StoreError where error.isRetryable && attempt < configuration.maxAttempts {
                attempt += 1
                try await Task.sleep(for: .milliseconds(attempt))
            }
        }
    }
}
