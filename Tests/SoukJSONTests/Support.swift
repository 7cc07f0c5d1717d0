import Foundation
@testable import SoukJSON

/// What the SoukJSON tests share: the registry of the contract and of the conformance types,
/// JSON compared by meaning, and protobuf bytes compared by meaning.
enum Support {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Generated/souk.desc and Fixtures/conformance.desc (every field kind and well-known type).
    static let registry: DescriptorRegistry = {
        let contract = try! Data(contentsOf: repository.appendingPathComponent("Generated/souk.desc"))
        let kinds = try! Data(contentsOf: fixtures.appendingPathComponent("conformance.desc"))
        return try! DescriptorRegistry(sets: [Array(contract), Array(kinds)])
    }()

    static let mapping = ProtoJSON(registry: registry)

    static func parse(_ text: String) throws -> JSONValue {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBytes { try JSONParser.parse(UnsafeRawBufferPointer($0), maxDepth: 200) }
    }

    /// Equal as JSON: members in any order, numbers by value (to float precision when that is all that differs).
    static func jsonEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.object(x), .object(y)):
            guard x.count == y.count else { return false }
            let byKey = Dictionary(uniqueKeysWithValues: y.map { ($0.key, $0.value) })
            return x.allSatisfy { member in byKey[member.key].map { jsonEqual(member.value, $0) } ?? false }
        case let (.array(x), .array(y)):
            return x.count == y.count && zip(x, y).allSatisfy { jsonEqual($0, $1) }
        case let (.number(x), .number(y)):
            guard let dx = Double(x), let dy = Double(y) else { return false }
            return dx == dy || Float(dx) == Float(dy)
        default:
            return a == b
        }
    }

    /// Protobuf bytes by meaning: fields by number, packed or not, the last of a singular field,
    /// message fields merged, maps as dictionaries, implicit defaults dropped, NaNs alike.
    indirect enum Canonical: Hashable {
        case number(UInt64)
        case bytes([UInt8])
        case message([Int32: [Canonical]])
        case map([Canonical: Canonical])
    }

    static func canonical(_ type: String, _ bytes: [UInt8]) throws -> Canonical {
        try canonical(registry.messageIndexes[type]!, bytes)
    }

    static func canonical(_ index: Int, _ bytes: [UInt8]) throws -> Canonical {
        let m = registry.messages[index]
        var values: [Int32: [Canonical]] = [:]
        var parts: [Int32: [UInt8]] = [:]
        var maps: [Int32: [Canonical: Canonical]] = [:]
        var oneofLast: [Int: Int32] = [:]
        try bytes.withUnsafeBytes { raw in
            var reader = WireReader(raw)
            while !reader.isAtEnd {
                let (number, wireType) = try reader.tag()
                guard let fieldIndex = m.fieldIndex(number: number) else {
                    try reader.skip(wireType, number: number)
                    continue
                }
                let f = m.fields[fieldIndex]
                if let oneof = f.oneofIndex { oneofLast[oneof] = number }
                if f.isMap {
                    let payload = Array(raw[try reader.lengthDelimited()])
                    let entry = registry.messages[f.messageIndex]
                    guard case .message(let fields) = try canonical(f.messageIndex, payload) else { continue }
                    let key = fields[1]?.last ?? defaultValue(entry.fields[0])
                    maps[number, default: [:]][key] = fields[2]?.last ?? defaultValue(entry.fields[1])
                } else if f.kind == .message {
                    let payload = Array(raw[try reader.lengthDelimited()])
                    if f.isRepeated {
                        values[number, default: []].append(try canonical(f.messageIndex, payload))
                    } else {
                        parts[number, default: []] += payload
                    }
                } else if f.isRepeated && wireType == .lengthDelimited && f.kind.isPackable {
                    let range = try reader.lengthDelimited()
                    var inner = WireReader(raw, range: range)
                    while !inner.isAtEnd { values[number, default: []].append(try scalar(f, f.kind.wireType, &inner)) }
                } else {
                    let value = try scalar(f, wireType, &reader)
                    if f.isRepeated { values[number, default: []].append(value) } else { values[number] = [value] }
                }
            }
        }
        for (number, payload) in parts {
            values[number] = [try canonical(m.fields[m.fieldIndex(number: number)!].messageIndex, payload)]
        }
        for (number, map) in maps { values[number] = [.map(map)] }
        // An Any's value by its type, so the order of the fields packed in it does not count.
        if m.wellKnownType == .any, case .bytes(let url)? = values[1]?.last, case .bytes(let packed)? = values[2]?.last,
           let type = String(decoding: url, as: UTF8.self).split(separator: "/").last,
           let packedIndex = registry.messageIndexes[String(type)] {
            values[2] = [try canonical(packedIndex, packed)]
        }
        for f in m.fields {
            if let oneof = f.oneofIndex, oneofLast[oneof] != f.number { values[f.number] = nil }
            if !f.hasPresence, !f.isRepeated, let value = values[f.number]?.last, value == .number(0) || value == .bytes([]) {
                values[f.number] = nil
            }
        }
        return .message(values)
    }

    static func defaultValue(_ f: FieldDescriptor) -> Canonical {
        switch f.kind {
        case .message: .message([:])
        case .string, .bytes: .bytes([])
        default: .number(0)
        }
    }

    static func scalar(_ f: FieldDescriptor, _ wireType: WireType, _ reader: inout WireReader) throws -> Canonical {
        switch wireType {
        case .lengthDelimited: return .bytes(Array(UnsafeRawBufferPointer(rebasing: reader.base[try reader.lengthDelimited()])))
        case .fixed32:
            let bits = try reader.fixed32()
            if f.kind == .float, Float(bitPattern: bits).isNaN { return .number(0x7fc0_0000) }
            return .number(UInt64(bits))
        case .fixed64:
            let bits = try reader.fixed64()
            if f.kind == .double, Double(bitPattern: bits).isNaN { return .number(0x7ff8_0000_0000_0000) }
            return .number(bits)
        default:
            let raw = try reader.varint()
            switch f.kind {
            case .int32, .enumeration: return .number(UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: raw))))
            case .bool: return .number(raw == 0 ? 0 : 1)
            case .uint32, .sint32: return .number(UInt64(UInt32(truncatingIfNeeded: raw)))
            default: return .number(raw)
            }
        }
    }
}
