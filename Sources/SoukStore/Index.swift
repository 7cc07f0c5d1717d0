/// A secondary index of a table, declared once next to the table.
///
/// The key closure reads a record and returns the indexed fields, most significant first
/// (conventionally the marketplace, then the filter fields, then a sort field). Entries of a
/// non-unique index end with the record's identifier, so entries with equal fields sort by
/// identifier, which for version 7 identifiers is creation order. Returning nil (or no keys)
/// leaves the record out of the index (a sparse index, for example "courier" before one is
/// assigned). Changing what a key closure returns for existing records needs a new index name.
public struct Index<Value>: Sendable {
    public let name: String
    public let kind: IndexKind
    let keys: @Sendable (StoredRecord<Value>) -> [[KeyPart]]
    /// `I | name` or `U | name`.
    let keyPrefix: [UInt8]

    init(name: String, kind: IndexKind, keys: @escaping @Sendable (StoredRecord<Value>) -> [[KeyPart]]) {
        self.name = name
        self.kind = kind
        self.keys = keys
        keyPrefix = KeySpace.prefix(kind == .unique ? KeySpace.unique : KeySpace.index, name)
    }

    /// A non-unique index on fields of the value.
    public static func nonUnique(_ name: String, key: @escaping @Sendable (Value) -> [KeyPart]?) -> Index {
        Index(name: name, kind: .nonUnique) { record in key(record.value).map { [$0] } ?? [] }
    }

    /// A non-unique index that also reads the envelope (for example `createdAt`).
    public static func nonUnique(_ name: String, recordKey: @escaping @Sendable (StoredRecord<Value>) -> [KeyPart]?) -> Index {
        Index(name: name, kind: .nonUnique) { record in recordKey(record).map { [$0] } ?? [] }
    }

    /// A non-unique index with any number of entries per record (for example one per tag).
    public static func nonUnique(_ name: String, keys: @escaping @Sendable (Value) -> [[KeyPart]]) -> Index {
        Index(name: name, kind: .nonUnique) { record in keys(record.value) }
    }

    /// A unique index: at most one record per key (for example the e-mail per marketplace).
    public static func unique(_ name: String, key: @escaping @Sendable (Value) -> [KeyPart]?) -> Index {
        Index(name: name, kind: .unique) { record in key(record.value).map { [$0] } ?? [] }
    }

    /// The stored entries for a record: (key, value) pairs, without duplicates.
    func entries(for record: StoredRecord<Value>) -> [IndexEntry] {
        let all = keys(record)
        var entries = [IndexEntry]()
        entries.reserveCapacity(all.count)
        for parts in all {
            var key = keyPrefix
            key.reserveCapacity(keyPrefix.count + 48)
            parts.encoded(into: &key)
            let entry: IndexEntry
            switch kind {
            case .nonUnique:
                record.id.appendBytes(to: &key)
                entry = IndexEntry(key: key, value: [])
            case .unique:
                entry = IndexEntry(key: key, value: record.id.bytes)
            }
            if !entries.contains(entry) { entries.append(entry) }
        }
        return entries
    }

    /// `keyPrefix` followed by the encoded parts: where a query's range starts.
    func queryPrefix(_ parts: [KeyPart]) -> [UInt8] {
        var key = keyPrefix
        parts.encoded(into: &key)
        return key
    }

    /// The record an entry points to: the trailing identifier, or the value of a unique entry.
    func recordID(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> RecordID? {
        switch kind {
        case .nonUnique: KeySpace.trailingID(of: key)
        case .unique: RecordID(bytes: value)
        }
    }
}

/// Whether one index value may map to several records.
public enum IndexKind: String, Sendable, Equatable {
    case nonUnique = "non-unique"
    case unique
}

/// An index's name and kind, as the schema lists it.
public struct IndexDescription: Sendable, Equatable {
    public let name: String
    public let kind: IndexKind
}

/// One stored index entry.
struct IndexEntry: Equatable {
    var key: [UInt8]
    var value: [UInt8]
}
