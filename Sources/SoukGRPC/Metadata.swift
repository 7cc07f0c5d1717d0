import SoukHTTP2

/// gRPC custom metadata: ordered key/value pairs. Keys ending in `-bin` carry bytes
/// (base64 on the wire); all others carry printable ASCII strings.
public struct Metadata: Sendable, Equatable, Sequence {
    /// One metadata value.
    public enum Value: Sendable, Equatable {
        case string(String)
        case binary([UInt8])
    }

    /// One entry; keys are lower-case.
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: Value
    }

    private var entries: [Entry] = []

    public init() {}

    /// Metadata holding these string pairs, in order.
    public init(_ pairs: [(String, String)]) {
        for (key, value) in pairs { add(key, value) }
    }

    /// Appends a string value (the key is lower-cased).
    public mutating func add(_ key: String, _ value: String) {
        entries.append(Entry(key: key.lowercasedFieldName, value: .string(value)))
    }

    /// Appends a binary value; the key must end in `-bin`.
    public mutating func add(_ key: String, bytes: [UInt8]) {
        entries.append(Entry(key: key.lowercasedFieldName, value: .binary(bytes)))
    }

    /// Appends an entry as it is; its key must already be lower-case (HTTP/2 header names are).
    package mutating func append(_ entry: Entry) {
        entries.append(entry)
    }

    /// Removes every value of a key.
    public mutating func removeAll(_ key: String) {
        let key = key.lowercasedFieldName
        entries.removeAll { $0.key == key }
    }

    /// The first string value of a key.
    public subscript(_ key: String) -> String? {
        // Most calls carry no metadata: no key to lower-case then.
        if entries.isEmpty { return nil }
        let key = key.lowercasedFieldName
        for entry in entries where entry.key == key {
            if case .string(let value) = entry.value { return value }
        }
        return nil
    }

    /// Every binary value of a `-bin` key.
    public func binaryValues(_ key: String) -> [[UInt8]] {
        if entries.isEmpty { return [] }
        let key = key.lowercasedFieldName
        return entries.compactMap { entry in
            guard entry.key == key, case .binary(let bytes) = entry.value else { return nil }
            return bytes
        }
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }
}
