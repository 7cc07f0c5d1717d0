/// Retiring an index (schema evolution): a table that no longer declares an index names it in
/// `Table.retiredIndexes`, and the store deletes its entries and its state when it opens. The
/// first open after the retirement deletes them; later ones find nothing left to delete.
extension Store {
    /// How many keys one transaction of the deletion removes.
    private static let retirementBatch = 1_000

    /// Deletes every entry and the build state of each index the schema retires; returns how
    /// many keys it deleted.
    @discardableResult
    func dropRetiredIndexes() throws -> Int {
        var deleted = 0
        for name in schema.tables.flatMap(\.retiredIndexes) {
            var count = 0
            for tag in [KeySpace.index, KeySpace.unique] {
                count += try deleteAll(under: KeySpace.prefix(tag, name))
            }
            count += try deleteAll(under: indexStateKey(name))
            if count > 0 { logger.info("retired index deleted", metadata: ["index": "\(name)", "keys": "\(count)"]) }
            deleted += count
        }
        return deleted
    }

    /// Deletes the keys starting with `prefix`, a batch per transaction; returns how many.
    private func deleteAll(under prefix: [UInt8]) throws -> Int {
        var count = 0
        let batch = engine.maxWritesPerCommit.map { min(Self.retirementBatch, $0) } ?? Self.retirementBatch
        while true {
            let iterator = engine.iterator(lower: prefix, upper: KeySpace.upperBound(ofPrefix: prefix), in: nil)
            iterator.seekToFirst()
            var keys = [[UInt8]]()
            while iterator.isValid && keys.count < batch {
                keys.append(Array(iterator.keyBuffer))
                iterator.next()
            }
            try iterator.checkError()
            guard !keys.isEmpty else { return count }
            let transaction = engine.beginTransaction()
            for key in keys { try transaction.delete(key, locking: false) }
            try transaction.commit()
            count += keys.count
        }
    }
}
