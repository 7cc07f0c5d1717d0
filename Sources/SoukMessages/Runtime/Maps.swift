import CProtobufC

// Protobuf maps are repeated entry messages with a `key` (field 1) and a `value` (field 2);
// protoc-c generates one entry struct per map field. A map field is a Swift Dictionary:
//
//     (c.n_labels, c.labels) = arena.map(labels)               // [String: String] → entries
//     labels = try Unpacked.map(c.n_labels, c.labels, "labels")
//
// after declaring the entry struct once:
//
//     extension Souk__V1__Listing__LabelsEntry: MapEntryStruct {
//         static func initialise(_ c: UnsafeMutablePointer<Self>) { souk__v1__listing__labels_entry__init(c) }
//     }

/// The protobuf-c struct of a map entry whose key and value are strings.
/// (Other key or value types: add a protocol like this one when a map needs it.)
protocol MapEntryStruct {
    var key: UnsafeMutablePointer<CChar>! { get set }
    var value: UnsafeMutablePointer<CChar>! { get set }
    static func initialise(_ c: UnsafeMutablePointer<Self>)
}

/// Mirrors one map entry so the message helpers can pack and unpack it.
struct MapEntryMirror<C: MapEntryStruct>: CStructConvertible {
    var key: String
    var value: String

    init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    static func cInit(_ c: UnsafeMutablePointer<C>) { C.initialise(c) }

    init(c: C) throws {
        key = try Unpacked.string(c.key, "key")
        value = try Unpacked.string(c.value, "value")
    }

    func fill(_ c: inout C, _ arena: inout EncodingArena) {
        c.key = arena.string(key)
        c.value = arena.string(value)
    }
}

extension EncodingArena {
    /// A `map<string, string>` field: its entry count and entries, sorted by key so the same map
    /// always packs to the same bytes.
    mutating func map<C: MapEntryStruct>(_ map: [String: String]) -> (Int, UnsafeMutablePointer<UnsafeMutablePointer<C>?>?) {
        let entries = map.sorted { $0.key < $1.key }.map { MapEntryMirror<C>(key: $0.key, value: $0.value) }
        return (entries.count, messages(entries))
    }
}

extension Unpacked {
    /// A `map<string, string>` field. A key repeated on the wire keeps its last value, as protobuf specifies.
    static func map<C: MapEntryStruct>(_ count: Int, _ c: UnsafePointer<UnsafeMutablePointer<C>?>?, _ field: String) throws -> [String: String] {
        let entries: [MapEntryMirror<C>] = try messages(count, c, field)
        return Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
