/// Protobuf bytes to JSON: each message is scanned once, recording where each known field's
/// values are, then written field by field in number order (the last value of a singular field
/// wins, repeated occurrences of a message field merge, as the wire format has it).

private let zeros = [UInt8](repeating: 0, count: 16)
private let maxNesting = 100

struct BinaryToJSON {
    let registry: DescriptorRegistry
    let useProtoNames: Bool
    var writer: JSONWriter
    var path: [PathComponent] = []
    var depth = 0

    init(registry: DescriptorRegistry, options: JSONEncodingOptions) {
        self.registry = registry
        useProtoNames = options.useProtoNames
        writer = JSONWriter(pretty: options.pretty)
    }

    /// Where one value of a field is: the payload of a length-delimited value, else the value's bytes.
    struct Occurrence {
        var field: Int
        var start: Int
        var end: Int
        var wireType: WireType
    }

    func fail(_ reason: String) -> ProtoJSONError {
        ProtoJSONError(path: PathComponent.render(path), reason: reason)
    }

    func wire<T>(_ body: () throws(WireError) -> T) throws(ProtoJSONError) -> T {
        do {
            return try body()
        } catch {
            throw fail("invalid protobuf: \(error.reason)")
        }
    }

    /// The known fields' values of a message in wire order, fields of the wrong wire type left out as unknown.
    func scan(_ m: MessageDescriptor, _ base: UnsafeRawBufferPointer, _ range: Range<Int>) throws(ProtoJSONError) -> [Occurrence] {
        var occurrences: [Occurrence] = []
        try wire { () throws(WireError) in
            var reader = WireReader(base, range: range)
            while !reader.isAtEnd {
                let (number, wireType) = try reader.tag()
                let start = reader.position
                guard let index = m.fieldIndex(number: number) else {
                    try reader.skip(wireType, number: number)
                    continue
                }
                let kind = m.fields[index].kind
                if wireType == .lengthDelimited {
                    let payload = try reader.lengthDelimited()
                    if kind.wireType == .lengthDelimited || (m.fields[index].isRepeated && kind.isPackable) {
                        occurrences.append(Occurrence(field: index, start: payload.lowerBound, end: payload.upperBound, wireType: wireType))
                    }
                } else {
                    try reader.skip(wireType, number: number)
                    if wireType == kind.wireType && kind != .group {
                        occurrences.append(Occurrence(field: index, start: start, end: reader.position, wireType: wireType))
                    }
                }
            }
        }
        return occurrences
    }

    /// Writes a message as JSON (a well-known type in its own form).
    mutating func message(_ index: Int, _ base: UnsafeRawBufferPointer, _ range: Range<Int>) throws(ProtoJSONError) {
        guard depth < maxNesting else { throw fail("messages nested deeper than \(maxNesting) levels") }
        depth += 1
        defer { depth -= 1 }
        let m = registry.messages[index]
        if let wellKnown = m.wellKnownType {
            try wellKnownMessage(wellKnown, m, base, range)
            return
        }
        writer.beginObject()
        try fields(m, base, range)
        writer.endObject()
    }

    /// Writes a message's fields as members of the object already open.
    mutating func fields(_ m: MessageDescriptor, _ base: UnsafeRawBufferPointer, _ range: Range<Int>) throws(ProtoJSONError) {
        var occurrences = try scan(m, base, range)
        if occurrences.isEmpty { return }
        // Fields usually arrive in number order; sort (stably, by field then position) only when not.
        var sorted = true
        for i in 1..<occurrences.count where occurrences[i].field < occurrences[i - 1].field {
            sorted = false
            break
        }
        // Of several members of one oneof, only the last on the wire is set.
        var oneofWinners: [Int]? = nil
        if !m.oneofs.isEmpty {
            var winners = [Int](repeating: -1, count: m.oneofs.count)
            var lastStart = [Int](repeating: -1, count: m.oneofs.count)
            for occurrence in occurrences {
                if let oneof = m.fields[occurrence.field].oneofIndex, occurrence.start > lastStart[oneof] {
                    lastStart[oneof] = occurrence.start
                    winners[oneof] = occurrence.field
                }
            }
            oneofWinners = winners
        }
        if !sorted { occurrences.sort { ($0.field, $0.start) < ($1.field, $1.start) } }

        var groupStart = 0
        while groupStart < occurrences.count {
            let fieldIndex = occurrences[groupStart].field
            var groupEnd = groupStart + 1
            while groupEnd < occurrences.count && occurrences[groupEnd].field == fieldIndex { groupEnd += 1 }
            defer { groupStart = groupEnd }
            let f = m.fields[fieldIndex]
            if let oneof = f.oneofIndex, oneofWinners![oneof] != fieldIndex { continue }
            let group = occurrences[groupStart..<groupEnd]
            path.append(.field(f.name))
            defer { path.removeLast() }
            if f.isMap {
                writer.key(quoted: useProtoNames ? f.protoKey : f.jsonKey)
                try map(f, base, group)
            } else if f.isRepeated {
                let packed = f.kind.isPackable
                if !group.contains(where: { !(packed && $0.wireType == .lengthDelimited) || $0.end > $0.start }) { continue }
                writer.key(quoted: useProtoNames ? f.protoKey : f.jsonKey)
                writer.beginArray()
                var elementIndex = 0
                for occurrence in group {
                    if packed && occurrence.wireType == .lengthDelimited {
                        var reader = WireReader(base, range: occurrence.start..<occurrence.end)
                        while !reader.isAtEnd {
                            path.append(.index(elementIndex))
                            writer.element()
                            let start = reader.position
                            try wire { () throws(WireError) in try reader.skip(f.kind.wireType, number: f.number) }
                            try value(f, base, Occurrence(field: fieldIndex, start: start, end: reader.position, wireType: f.kind.wireType))
                            path.removeLast()
                            elementIndex += 1
                        }
                    } else {
                        path.append(.index(elementIndex))
                        writer.element()
                        try value(f, base, occurrence)
                        path.removeLast()
                        elementIndex += 1
                    }
                }
                writer.endArray()
            } else if f.kind == .message {
                writer.key(quoted: useProtoNames ? f.protoKey : f.jsonKey)
                if group.count == 1 {
                    try message(f.messageIndex, base, group.first!.start..<group.first!.end)
                } else {
                    // Occurrences of a message field merge: read their payloads as one.
                    var merged: [UInt8] = []
                    for occurrence in group { merged.append(contentsOf: UnsafeRawBufferPointer(rebasing: base[occurrence.start..<occurrence.end])) }
                    try withBytes(merged) { (raw: UnsafeRawBufferPointer) throws(ProtoJSONError) in try message(f.messageIndex, raw, 0..<raw.count) }
                }
            } else {
                let last = group.last!
                if !f.hasPresence && isDefault(base, last) { continue }
                writer.key(quoted: useProtoNames ? f.protoKey : f.jsonKey)
                try value(f, base, last)
            }
        }
    }

    func isDefault(_ base: UnsafeRawBufferPointer, _ occurrence: Occurrence) -> Bool {
        switch occurrence.wireType {
        case .lengthDelimited: return occurrence.end == occurrence.start
        case .varint: return occurrence.end - occurrence.start == 1 && base[occurrence.start] == 0
        default:
            for i in occurrence.start..<occurrence.end where base[i] != 0 { return false }
            return true
        }
    }

    /// A map field as an object; of entries with the same key, the last wins.
    mutating func map(_ f: FieldDescriptor, _ base: UnsafeRawBufferPointer, _ group: ArraySlice<Occurrence>) throws(ProtoJSONError) {
        let entryType = registry.messages[f.messageIndex]
        guard entryType.fields.count == 2, entryType.fields[0].number == 1, entryType.fields[1].number == 2 else {
            throw fail("map entry type \(entryType.fullName) is not a key and a value")
        }
        let keyField = entryType.fields[0]
        let valueField = entryType.fields[1]
        var entries: [(key: String, value: Occurrence?)] = []
        var positions: [String: Int] = [:]
        for occurrence in group {
            let inner = try scan(entryType, base, occurrence.start..<occurrence.end)
            var keyOccurrence: Occurrence? = nil
            var valueOccurrence: Occurrence? = nil
            var valueParts: [Occurrence] = []
            for o in inner {
                if o.field == 0 { keyOccurrence = o } else { valueOccurrence = o; valueParts.append(o) }
            }
            if valueParts.count > 1 && valueField.kind == .message {
                throw fail("a map value message given in parts is not supported")
            }
            let key = try keyText(keyField, base, keyOccurrence)
            if let existing = positions[key] {
                entries[existing].value = valueOccurrence
            } else {
                positions[key] = entries.count
                entries.append((key, valueOccurrence))
            }
        }
        writer.beginObject()
        for entry in entries {
            path.append(.key(entry.key))
            writer.key(entry.key)
            if let occurrence = entry.value {
                try value(valueField, base, occurrence)
            } else {
                try defaultValue(valueField)
            }
            path.removeLast()
        }
        writer.endObject()
    }

    func keyText(_ f: FieldDescriptor, _ base: UnsafeRawBufferPointer, _ occurrence: Occurrence?) throws(ProtoJSONError) -> String {
        guard let occurrence else { return f.kind == .bool ? "false" : f.kind == .string ? "" : "0" }
        var reader = WireReader(base, range: occurrence.start..<occurrence.end)
        return try wire { () throws(WireError) in
            switch f.kind {
            case .string:
                guard let text = reader.string(occurrence.start..<occurrence.end) else { throw WireError("map key is not valid UTF-8") }
                return text
            case .bool: return try reader.varint() != 0 ? "true" : "false"
            case .int32: return String(Int32(truncatingIfNeeded: try reader.varint()))
            case .int64: return String(Int64(bitPattern: try reader.varint()))
            case .uint32: return String(UInt32(truncatingIfNeeded: try reader.varint()))
            case .uint64: return String(try reader.varint())
            case .sint32: return String(zigZagDecode32(try reader.varint()))
            case .sint64: return String(zigZagDecode64(try reader.varint()))
            case .fixed32: return String(try reader.fixed32())
            case .fixed64: return String(try reader.fixed64())
            case .sfixed32: return String(Int32(bitPattern: try reader.fixed32()))
            case .sfixed64: return String(Int64(bitPattern: try reader.fixed64()))
            default: throw WireError("map key of type \(f.kind) is not allowed")
            }
        }
    }

    /// A field's default value (a map entry without its value).
    mutating func defaultValue(_ f: FieldDescriptor) throws(ProtoJSONError) {
        try withBytes(zeros) { (raw: UnsafeRawBufferPointer) throws(ProtoJSONError) in
            switch f.kind.wireType {
            case .lengthDelimited: try value(f, raw, Occurrence(field: 0, start: 0, end: 0, wireType: .lengthDelimited))
            case .fixed32: try value(f, raw, Occurrence(field: 0, start: 0, end: 4, wireType: .fixed32))
            case .fixed64: try value(f, raw, Occurrence(field: 0, start: 0, end: 8, wireType: .fixed64))
            default: try value(f, raw, Occurrence(field: 0, start: 0, end: 1, wireType: .varint))
            }
        }
    }

    /// One value of a field.
    mutating func value(_ f: FieldDescriptor, _ base: UnsafeRawBufferPointer, _ occurrence: Occurrence) throws(ProtoJSONError) {
        var reader = WireReader(base, range: occurrence.start..<occurrence.end)
        switch f.kind {
        case .message:
            try message(f.messageIndex, base, occurrence.start..<occurrence.end)
        case .string:
            let bytes = UnsafeRawBufferPointer(rebasing: base[occurrence.start..<occurrence.end])
            guard validUTF8(bytes) else { throw fail("string is not valid UTF-8") }
            writer.string(utf8: bytes)
        case .bytes:
            writer.bytes.append(UInt8(ascii: "\""))
            Base64.encode(UnsafeRawBufferPointer(rebasing: base[occurrence.start..<occurrence.end]), into: &writer.bytes)
            writer.bytes.append(UInt8(ascii: "\""))
            writer.wrote()
        case .enumeration:
            let number = Int32(truncatingIfNeeded: try wire { () throws(WireError) in try reader.varint() })
            let e = registry.enums[f.enumIndex]
            if e.fullName == "google.protobuf.NullValue" {
                writer.null()
            } else if let name = e.names[number] {
                writer.string(name)
            } else {
                writer.integer(number, quoted: false)
            }
        default:
            try scalar(f.kind, &reader)
        }
    }

    mutating func scalar(_ kind: FieldKind, _ reader: inout WireReader) throws(ProtoJSONError) {
        try wire { () throws(WireError) in
            switch kind {
            case .double: writer.double(Double(bitPattern: try reader.fixed64()))
            case .float: writer.float(Float(bitPattern: try reader.fixed32()))
            case .int64: writer.integer(Int64(bitPattern: try reader.varint()), quoted: true)
            case .uint64: writer.integer(try reader.varint(), quoted: true)
            case .int32: writer.integer(Int32(truncatingIfNeeded: try reader.varint()), quoted: false)
            case .fixed64: writer.integer(try reader.fixed64(), quoted: true)
            case .fixed32: writer.integer(try reader.fixed32(), quoted: false)
            case .bool: writer.bool(try reader.varint() != 0)
            case .uint32: writer.integer(UInt32(truncatingIfNeeded: try reader.varint()), quoted: false)
            case .sfixed32: writer.integer(Int32(bitPattern: try reader.fixed32()), quoted: false)
            case .sfixed64: writer.integer(Int64(bitPattern: try reader.fixed64()), quoted: true)
            case .sint32: writer.integer(zigZagDecode32(try reader.varint()), quoted: false)
            case .sint64: writer.integer(zigZagDecode64(try reader.varint()), quoted: true)
            case .string, .bytes, .message, .group, .enumeration: throw WireError("not a scalar")
            }
        }
    }

    // MARK: Well-known types

    /// The last value of field `number` in a message's bytes, if any.
    func lastOccurrence(_ m: MessageDescriptor, _ number: Int32, in occurrences: [Occurrence]) -> Occurrence? {
        guard let index = m.fieldIndex(number: number) else { return nil }
        return occurrences.last { $0.field == index }
    }

    func varintField(_ m: MessageDescriptor, _ number: Int32, _ base: UnsafeRawBufferPointer, _ occurrences: [Occurrence]) throws(ProtoJSONError) -> UInt64 {
        guard let occurrence = lastOccurrence(m, number, in: occurrences) else { return 0 }
        var reader = WireReader(base, range: occurrence.start..<occurrence.end)
        return try wire { () throws(WireError) in try reader.varint() }
    }

    mutating func wellKnownMessage(_ type: WellKnownType, _ m: MessageDescriptor, _ base: UnsafeRawBufferPointer, _ range: Range<Int>) throws(ProtoJSONError) {
        let occurrences = try scan(m, base, range)
        switch type {
        case .timestamp, .duration:
            let seconds = Int64(bitPattern: try varintField(m, 1, base, occurrences))
            let nanos = Int32(truncatingIfNeeded: try varintField(m, 2, base, occurrences))
            if type == .timestamp {
                guard let text = TimeText.formatTimestamp(seconds: seconds, nanos: nanos) else { throw fail("timestamp out of range") }
                writer.string(text)
            } else {
                guard let text = TimeText.formatDuration(seconds: seconds, nanos: nanos) else { throw fail("duration out of range") }
                writer.string(text)
            }
        case .fieldMask:
            var paths: [String] = []
            for occurrence in occurrences where m.fields[occurrence.field].number == 1 {
                guard let text = WireReader(base, range: range).string(occurrence.start..<occurrence.end) else { throw fail("path is not valid UTF-8") }
                guard let json = FieldMaskText.toJSON(text) else { throw fail("field mask path \"\(text)\" has no JSON form") }
                paths.append(json)
            }
            writer.string(paths.joined(separator: ","))
        case .structValue:
            guard let index = m.fieldIndex(number: 1), m.fields[index].isMap else { throw fail("Struct without its fields map") }
            try map(m.fields[index], base, occurrences[...])
        case .listValue:
            guard let index = m.fieldIndex(number: 1) else { throw fail("ListValue without its values") }
            writer.beginArray()
            var i = 0
            for occurrence in occurrences where occurrence.field == index {
                path.append(.index(i))
                writer.element()
                try message(m.fields[index].messageIndex, base, occurrence.start..<occurrence.end)
                path.removeLast()
                i += 1
            }
            writer.endArray()
        case .value:
            // Only the last member of the `kind` oneof counts; none set reads as null.
            guard let last = occurrences.last(where: { m.fields[$0.field].oneofIndex != nil }) else {
                writer.null()
                return
            }
            let f = m.fields[last.field]
            if f.kind == .double {
                var reader = WireReader(base, range: last.start..<last.end)
                let number = Double(bitPattern: try wire { () throws(WireError) in try reader.fixed64() })
                guard number.isFinite else { throw fail("a Value's number \(number) has no JSON form") }
                writer.double(number)
            } else if f.kind == .message && f.isRepeated == false {
                let group = occurrences.filter { $0.field == last.field }
                if group.count == 1 {
                    try message(f.messageIndex, base, last.start..<last.end)
                } else {
                    var merged: [UInt8] = []
                    for occurrence in group { merged.append(contentsOf: UnsafeRawBufferPointer(rebasing: base[occurrence.start..<occurrence.end])) }
                    try withBytes(merged) { (raw: UnsafeRawBufferPointer) throws(ProtoJSONError) in try message(f.messageIndex, raw, 0..<raw.count) }
                }
            } else {
                try value(f, base, last)
            }
        case .any:
            let urlOccurrence = lastOccurrence(m, 1, in: occurrences)
            let valueOccurrence = lastOccurrence(m, 2, in: occurrences)
            guard let urlOccurrence, urlOccurrence.end > urlOccurrence.start else {
                if let valueOccurrence, valueOccurrence.end > valueOccurrence.start { throw fail("Any has a value but no type URL") }
                writer.beginObject()
                writer.endObject()
                return
            }
            guard let url = WireReader(base, range: range).string(urlOccurrence.start..<urlOccurrence.end) else { throw fail("type URL is not valid UTF-8") }
            let typeName = url.split(separator: "/").last.map(String.init) ?? ""
            guard let index = registry.messageIndexes[typeName] else { throw fail("Any holds unknown type \(url)") }
            let payload = valueOccurrence.map { $0.start..<$0.end } ?? range.lowerBound..<range.lowerBound
            writer.beginObject()
            writer.key("@type")
            writer.string(url)
            if registry.messages[index].wellKnownType != nil {
                writer.key("value")
                try message(index, base, payload)
            } else {
                try fields(registry.messages[index], base, payload)
            }
            writer.endObject()
        default:
            // Wrappers: the plain value (their default when unset).
            guard let index = m.fieldIndex(number: 1) else { throw fail("wrapper without its value") }
            if let occurrence = occurrences.last(where: { $0.field == index }) {
                try value(m.fields[index], base, occurrence)
            } else {
                try defaultValue(m.fields[index])
            }
        }
    }
}

@inline(__always)
func validUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    // ASCII is the common case and needs no decoding.
    var allASCII = true
    for byte in bytes where byte >= 0x80 {
        allASCII = false
        break
    }
    if allASCII { return true }
    return String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) != nil
}
