import SoukStore

/// Reads one record by id, from the store or inside a transaction: what a view built from
/// several owners' tables (an account and a vertical's profile of it) reads with.
public protocol RecordLookup {
    /// The record; inside a transaction it is locked until the transaction ends.
    func get<Value>(_ table: Table<Value>, _ id: RecordID) throws -> StoredRecord<Value>?
    /// The record, never locked: inside a transaction, for a record it refers to but does not
    /// change or decide on (`Transaction.read`), so that concurrent transactions do not queue on it.
    func read<Value>(_ table: Table<Value>, _ id: RecordID) throws -> StoredRecord<Value>?
}

extension Store: RecordLookup {
    /// The store's reads take no lock: the same as `get`.
    public func read<Value>(_ table: Table<Value>, _ id: RecordID) throws -> StoredRecord<Value>? {
        try get(table, id)
    }
}
extension Transaction: RecordLookup {}
