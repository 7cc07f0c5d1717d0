/// The bounded iteration behind one page of an index: bounds from the range and the page token,
/// then at most `limit + 1` entries (the extra one only tells whether another page exists).
struct PageScan {
    let indexName: String
    let indexPrefix: [UInt8]
    let kind: IndexKind
    let base: [UInt8]
    let lower: [UInt8]
    let upper: [UInt8]?
    let direction: ScanDirection

    /// Nil when the range (narrowed by the token) is empty.
    init?<Value>(index: Index<Value>, range: IndexRange, direction: ScanDirection, page: PageRequest) throws {
        let bounds = range.bounds(indexPrefix: index.keyPrefix)
        var lower = bounds.lower
        var upper = bounds.upper
        if let token = page.token {
            let last = try PageToken.lastKey(
                token, indexName: index.name, indexPrefix: index.keyPrefix, base: bounds.base, direction: direction)
            switch direction {
            case .ascending:
                let next = KeySpace.successor(of: last)
                if lower.lexicographicallyPrecedes(next) { lower = next }
            case .descending:
                if upper.map({ last.lexicographicallyPrecedes($0) }) ?? true { upper = last }
            }
        }
        if let upper, !lower.lexicographicallyPrecedes(upper) { return nil }
        indexName = index.name
        indexPrefix = index.keyPrefix
        kind = index.kind
        base = bounds.base
        self.lower = lower
        self.upper = upper
        self.direction = direction
    }

    /// Reads up to `limit` entries in the scan direction.
    func collect(_ iterator: any StoreIterator, limit: Int) throws -> (ids: [RecordID], lastKey: [UInt8]?, hasMore: Bool) {
        var ids = [RecordID]()
        ids.reserveCapacity(limit)
        var lastKey: [UInt8]? = nil
        var hasMore = false
        try walk(iterator) { key, value in
            if ids.count == limit {
                hasMore = true
                return false
            }
            guard let id = recordID(key: key, value: value) else { return true }
            ids.append(id)
            // Only a full page needs a token, and only its last key.
            if ids.count == limit { lastKey = Array(key) }
            return true
        }
        return (ids, lastKey, hasMore)
    }

    /// Visits entries in the scan direction until `visit` returns false or the range ends.
    func walk(_ iterator: any StoreIterator, _ visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        position(iterator)
        while iterator.isValid {
            let key = iterator.keyBuffer
            // RocksDB enforces the bounds for database iterators; checking here too keeps
            // transaction iterators (which merge uncommitted writes) inside the range as well.
            guard contains(key) else { break }
            guard try visit(key, iterator.valueBuffer) else { return }
            direction == .ascending ? iterator.next() : iterator.previous()
        }
        try iterator.checkError()
    }

    /// Puts the iterator on the first entry of the range in the scan direction. It seeks to the
    /// bounds rather than to the first or last key: a transaction's iterator merges the
    /// transaction's own writes without applying the read bounds to them, so its first or last
    /// key may be an uncommitted entry outside the range, which would end the walk at once.
    private func position(_ iterator: any StoreIterator) {
        switch direction {
        case .ascending:
            iterator.seek(lower)
        case .descending:
            guard let upper else { return iterator.seekToLast() }
            // The last entry below the exclusive upper bound.
            iterator.seekForPrevious(upper)
            if iterator.isValid, iterator.keyBuffer.elementsEqual(upper) { iterator.previous() }
        }
    }

    private func contains(_ key: UnsafeRawBufferPointer) -> Bool {
        if key.lexicographicallyPrecedes(lower) { return false }
        if let upper, !key.lexicographicallyPrecedes(upper) { return false }
        return true
    }

    func recordID(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> RecordID? {
        switch kind {
        case .nonUnique: KeySpace.trailingID(of: key)
        case .unique: RecordID(bytes: value)
        }
    }

    func token(after lastKey: [UInt8]) -> String {
        PageToken.make(indexName: indexName, indexPrefix: indexPrefix, direction: direction, lastKey: lastKey)
    }
}
