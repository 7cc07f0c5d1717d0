import SoukStore

/// Reads one record by id, from the store or inside a transaction: what a view built from
/// several owners' tables (an account and a vertical's profile of it) reads with.
public protocol RecordLookup {
    func get<Value>(_ table: Table<Value>, _ id: RecordID) throws -> StoredRecord<Value>?
}

extension Store: RecordLookup {}
extension Transaction: RecordLookup {}
