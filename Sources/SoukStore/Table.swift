/// A table of records of one type, keyed by `RecordID`, with its secondary indexes.
///
/// Declare it once, as a static value next to the record type:
///
///     static let byStatus = Index<Order>.nonUnique("orders.marketplace_status") {
///         [.string($0.marketplace), .enumCase($0.status)]
///     }
///     static let table = Table("orders", codec: OrderCodec(), indexes: [byStatus, byOwner])
///
/// Every write through a `Transaction` keeps the indexes in step with the record.
public struct Table<Value>: Sendable {
    public let name: String
    public let codec: any RecordCodec<Value>
    public let indexes: [Index<Value>]
    /// Indexes the table declared once and no longer does: their entries are deleted when the
    /// store opens (`Store.dropRetiredIndexes`), since nothing maintains them any more.
    public private(set) var retiredIndexes: [String] = []
    /// Whether two values give the same entries in every index, when the table can tell more
    /// cheaply than by computing them: an update between two such values writes no index entry.
    /// For example a stock count that the indexes read only as "in stock or not".
    let sameIndexEntries: (@Sendable (Value, Value) -> Bool)?
    /// The files of the schema's file folders a record needs (paths from the store's directory,
    /// see `ContentAddress.path`): `verify` reports a record whose file is missing.
    let files: (@Sendable (Value) -> [String])?
    /// `R | name`.
    let recordPrefix: [UInt8]

    public init(
        _ name: String, codec: some RecordCodec<Value>, indexes: [Index<Value>] = [],
        sameIndexEntries: (@Sendable (Value, Value) -> Bool)? = nil, files: (@Sendable (Value) -> [String])? = nil
    ) {
        self.name = name
        self.codec = codec
        self.indexes = indexes
        self.sameIndexEntries = sameIndexEntries
        self.files = files
        recordPrefix = KeySpace.prefix(KeySpace.record, name)
    }

    func recordKey(_ id: RecordID) -> [UInt8] {
        KeySpace.recordKey(table: recordPrefix, id: id)
    }

    /// The record keys of `ids` laid end to end, and their sizes, for `RocksDatabase.multiGet(flat:)`.
    func recordKeys(_ ids: [RecordID]) -> (flat: [UInt8], sizes: [Int]) {
        var flat = [UInt8]()
        flat.reserveCapacity(ids.count * (recordPrefix.count + 16))
        for id in ids {
            flat.append(contentsOf: recordPrefix)
            id.appendBytes(to: &flat)
        }
        return (flat, [Int](repeating: recordPrefix.count + 16, count: ids.count))
    }

    /// Envelope plus payload, checksummed.
    func encode(_ record: StoredRecord<Value>) throws -> [UInt8] {
        let envelope = Envelope(version: record.version, createdAt: record.createdAt, updatedAt: record.updatedAt)
        var bytes = envelope.beginValue()
        do {
            try codec.encode(record.value, into: &bytes)
        } catch {
            throw StoreError.encodingFailed(table: name, reason: "\(error)")
        }
        Envelope.seal(&bytes)
        return bytes
    }

    /// Reads a stored value; any damage becomes `StoreError.corruptRecord` naming this record.
    func decode(id: RecordID, _ bytes: UnsafeRawBufferPointer) throws -> StoredRecord<Value> {
        let envelope: Envelope
        let payload: UnsafeRawBufferPointer
        do {
            (envelope, payload) = try Envelope.open(bytes)
        } catch {
            throw StoreError.corruptRecord(table: name, id: id, reason: error.description)
        }
        let value: Value
        do {
            value = try codec.decode(payload)
        } catch {
            throw StoreError.corruptRecord(table: name, id: id, reason: "payload does not decode: \(error)")
        }
        return StoredRecord(
            id: id, version: envelope.version, createdAt: envelope.createdAt, updatedAt: envelope.updatedAt, value: value)
    }

    /// The record's stored bytes (envelope and payload), to keep a copy of it as it is now
    /// elsewhere: an event that carries its resource as it was.
    public func snapshot(_ record: StoredRecord<Value>) throws -> [UInt8] {
        try encode(record)
    }

    /// The record `snapshot` stored.
    public func record(id: RecordID, snapshot bytes: [UInt8]) throws -> StoredRecord<Value> {
        try bytes.withUnsafeBytes { try decode(id: id, $0) }
    }

    func index(named name: String) -> Index<Value>? {
        indexes.first { $0.name == name }
    }

    /// The type-erased form the schema keeps.
    public var erased: AnyTable { AnyTable(self) }

    /// The table with the indexes `names` retired (see `retiredIndexes`).
    public func retiring(_ names: String...) -> Table<Value> {
        var table = self
        table.retiredIndexes += names
        return table
    }
}

/// A table without its value type, as the schema and the maintenance tools see it.
public struct AnyTable: Sendable {
    public let name: String
    /// The table's indexes: name and kind.
    public let indexes: [IndexDescription]
    public let retiredIndexes: [String]
    let recordPrefix: [UInt8]
    let indexPrefixes: [[UInt8]]
    /// Decodes a stored value and returns the entries each index should hold for it (in index order).
    let entriesForValue: @Sendable (RecordID, UnsafeRawBufferPointer) throws -> [[IndexEntry]]
    /// Decodes a stored value and returns the entries one index (by position) should hold for it.
    let entriesForValueInIndex: @Sendable (Int, RecordID, UnsafeRawBufferPointer) throws -> [IndexEntry]
    /// Decodes a stored value and returns the files it needs; nil when the table declares none.
    let filesForValue: (@Sendable (RecordID, UnsafeRawBufferPointer) throws -> [String])?

    public init<Value>(_ table: Table<Value>) {
        name = table.name
        indexes = table.indexes.map { IndexDescription(name: $0.name, kind: $0.kind) }
        retiredIndexes = table.retiredIndexes
        recordPrefix = table.recordPrefix
        indexPrefixes = table.indexes.map(\.keyPrefix)
        entriesForValue = { id, bytes in
            let record = try table.decode(id: id, bytes)
            return table.indexes.map { $0.entries(for: record) }
        }
        entriesForValueInIndex = { position, id, bytes in
            try table.indexes[position].entries(for: table.decode(id: id, bytes))
        }
        if let files = table.files {
            filesForValue = { id, bytes in files(try table.decode(id: id, bytes).value) }
        } else {
            filesForValue = nil
        }
    }

    func recordKey(_ id: RecordID) -> [UInt8] {
        KeySpace.recordKey(table: recordPrefix, id: id)
    }
}

/// Every table the store holds, and the folders of files kept beside it. Index names are
/// unique across the whole schema.
public struct Schema: Sendable {
    public let tables: [AnyTable]
    /// Folders inside the store's directory whose content-addressed files (a file's name names
    /// its content, and it never changes) are copied into the store's backups and restored with
    /// them, for example `media`.
    public let fileFolders: [String]

    public init(_ tables: [AnyTable], fileFolders: [String] = []) {
        self.tables = tables
        self.fileFolders = fileFolders
    }

    public init<each Value>(_ table: repeat Table<each Value>) {
        var tables = [AnyTable]()
        for t in repeat each table { tables.append(AnyTable(t)) }
        self.tables = tables
        fileFolders = []
    }

    func validate() throws {
        for folder in fileFolders where folder.isEmpty || folder.hasPrefix(".") || folder.contains("/") {
            throw StoreError.invalidSchema("file folder \"\(folder)\" must be one plain directory name")
        }
        var tableNames = Set<String>()
        var indexNames = Set<String>()
        for table in tables {
            guard tableNames.insert(table.name).inserted else { throw StoreError.invalidSchema("table \(table.name) declared twice") }
            for index in table.indexes {
                guard indexNames.insert(index.name).inserted else {
                    throw StoreError.invalidSchema("index \(index.name) declared twice")
                }
            }
        }
        for name in tables.flatMap(\.retiredIndexes) where indexNames.contains(name) {
            throw StoreError.invalidSchema("index \(name) is both declared and retired")
        }
    }
}
