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
    var scratch: [Occurrence] = []

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

    /// Appends the known fields' values of a message to `scratch`, in wire order, and returns
    /// where they start; fields of the wrong wire type are left out as unknown. One buffer serves
    /// every nesting level (each level removes its own when done), so a message costs no allocation.
    mutating func scan(_ m: MessageDescriptor, _ base: UnsafeRawBufferPointer, _ range: Range<Int>) throws(ProtoJSONError) -> Int {
        let start = scratch.count
        var reader = WireReader(base, range: range)
        do {
            while !reader.isAtEnd {
                let (number, wireType) = try reader.tag()
                let valueStart = reader.position
                guard let index = m.fieldIndex(number: number) else {
                    try reader.skip(wireType, number: number)
                    continue
                }
                let f = m.fields[index]
                if wireType == .lengthDelimited {
                    let payload = try reader.lengthDelimited()
                    if f.kind.wireType == .lengthDelimited || (f.isRepeated && f.kind.isPackable) {
                        scratch.append(Occurrence(field: index, start: payload.lowerBound, end: payload.upperBound, wireType: wireType))
                    }
                } else {
                    try reader.skip(wireType, number: number)
                    if wireType == f.kind.wireType && f.kind != .group {
                        scratch.append(Occurrence(field: index, start: valueStart, end: reader.position, wireType: wireType))
                    }
                }
            }
        } catch {
            scratch.removeSubrange(start...)
            throw fail("invalid protobuf: \(error.reason)")
        }
        return start
    }

    /// The occurrences `scan` found, copied out (for the rarer well-known types).
    mutating func scanned(_ m: MessageDescriptor, _ base: UnsafeRawBufferPointer, _ range: Range<Int>) throws(ProtoJSONError) -> [Occurrence] {
        let start = try scan(m, base, range)
        let result = Array(scratch[start...])
        scratch.removeSubrange(start...)
        return result
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
        let start = try scan(m, base, range)
        let end = scratch.count
        defer { scratch.removeSubrange(start...) }
        if start == end { return }
        // Fields usually arrive in number order; sort (stably, by field then position) only when not.
        var sorted = true
        for i in start + 1..<end where scratch[i].field < scratch[i - 1].field {
            sorted = false
            break
        }
        // Of several members of one oneof, only the last on the wire is set.
        var oneofWinners: [Int]? = nil
        if !m.oneofs.isEmpty {
            var winners = [Int](repeating: -1, count: m.oneofs.count)
            var lastStart = [Int](repeating: -1, count: m.oneofs.count)
            for i in start..<end {
                let occurrence = scratch[i]
                if let oneof = m.fields[occurrence.field].oneofIndex, occurrence.start > lastStart[oneof] {
                    lastStart[oneof] = occurrence.start
                    winners[oneof] = occurrence.field
                }
            }
            oneofWinners = winners
        }
        if !sorted { scratch[start..<end].sort { ($0.field, $0.start) < ($1.field, $1.start) } }

        var groupStart = start
        while groupStart < end {
            let fieldIndex = scratch[groupStart].field
            var groupEnd = groupStart + 1
            while groupEnd < end && scratch[groupEnd].field == fieldIndex { groupEnd += 1 }
            defer { groupStart = groupEnd }
            let f = m.fields[fieldIndex]
            if let oneof = f.oneofIndex, oneofWinners![oneof] != fieldIndex { continue }
            let group = groupStart..<groupEnd
            path.append(.descriptor(f))
            defer { path.removeLast() }
            if f.isMap {
                writer.key(quoted: useProtoNames ? f.protoKey : f.jsonKey)
                try map(f, base, group)
            } else if f.isRepeated {
                let packed = f.kind.isPackable
                if !group.contains(where: { !(packed && scratch[$0].wireType == .lengthDelimited) || scratch[$0].end > scratch[$0].start }) { continue }
                writer.key(quoted: useProtoNames ? f.protoKey : f.jsonKey)
                writer.beginArray()
                var elementIndex = 0
                for i in group {
                    let occurrence = scratch[i]
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
                    try message(f.messageIndex, base, scratch[group.lowerBound].start..<scratch[group.lowerBound].end)
                } else {
                    // Occurrences of a message field merge: read their payloads as one.
                    var merged: [UInt8] = []
                    for i in group { merged.append(contentsOf: UnsafeRawBufferPointer(rebasing: base[scratch[i].start..<scratch[i].end])) }
                    try withBytes(merged) { (raw: UnsafeRawBufferPointer) throws(ProtoJSONError) in try message(f.messageIndex, raw, 0..<raw.count) }
                }
            } else {
                let last = scratch[group.upperBound - 1]
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
    mutating func map(_ f: FieldDescriptor, _ base: UnsafeRawBufferPointer, _ group: Range<Int>) throws(ProtoJSONError) {
        let entryType = registry.messages[f.messageIndex]
        guard entryType.fields.count == 2, entryType.fields[0].number == 1, entryType.fields[1].number == 2 else {
            throw fail("map entry type \(entryType.fullName) is not a key and a value")
        }
        let keyField = entryType.fields[0]
        let valueField = entryType.fields[1]
        var entries: [(key: String, value: Occurrence?)] = []
        var positions: [String: Int] = [:]
        for i in group {
            let occurrence = scratch[i]
            let inner = try scanned(entryType, base, occurrence.start..<occurrence.end)
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
            if e.isNullValue {
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
        // Not through `wire`: a closure writing to self there would make Swift copy self, and
        // with it the output buffer, for every scalar.
        do throws(WireError) {
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
        } catch {
            throw fail("invalid protobuf: \(error.reason)")
        }
    }

    // MARK: Well-known types

    /// The last value of field `number` in a message's bytes, if any.
    func lastOccurrence(_ m: MessageDescriptor, _ number: Int32, in occurrences: [Occurrence]) -> Occurrence? {
        guard let index = m.fieldIndex(number: number) else { return nil }
        return occurrences.last { $0.field == index }
    }

    mutating func wellKnownMessage(_ type: WellKnownType, _ m: MessageDescriptor, _ base: UnsafeRawBufferPointer, _ range: Range<Int>) throws(ProtoJSONError) {
        if type == .timestamp || type == .duration {
            // Read in place: these are the most common well-known types by far.
            var seconds: UInt64 = 0
            var nanos: UInt64 = 0
            var reader = WireReader(base, range: range)
            try wire { () throws(WireError) in
                while !reader.isAtEnd {
                    let (number, wireType) = try reader.tag()
                    if wireType == .varint && number == 1 {
                        seconds = try reader.varint()
                    } else if wireType == .varint && number == 2 {
                        nanos = try reader.varint()
                    } else {
                        try reader.skip(wireType, number: number)
                    }
                }
            }
            try timeValue(type, Int64(bitPattern: seconds), Int32(truncatingIfNeeded: nanos))
            return
        }
        let occurrences = try scanned(m, base, range)
        switch type {
        case .timestamp, .duration:
            break
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
            let start = scratch.count
            scratch.append(contentsOf: occurrences)
            defer { scratch.removeSubrange(start...) }
            try map(m.fields[index], base, start..<scratch.count)
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

extension BinaryToJSON {
    mutating func timeValue(_ type: WellKnownType, _ seconds: Int64, _ nanos: Int32) throws(ProtoJSONError) {
        if type == .timestamp {
            guard TimeText.appendTimestamp(seconds: seconds, nanos: nanos, into: &writer.bytes) else { throw fail("timestamp out of range") }
        } else {
            guard let text = TimeText.formatDuration(seconds: seconds, nanos: nanos) else { throw fail("duration out of range") }
            writer.string(text)
        }
        writer.wrote()
    }
}

/// Whether bytes are well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
func validUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var i = 0
    let n = bytes.count
    while i < n {
        let b0 = bytes[i]
        if b0 < 0x80 {
            i += 1
            continue
        }
        func continuation(_ at: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xbf) -> Bool {
            at < n && bytes[at] >= low && bytes[at] <= high
        }
        switch b0 {
        case 0xc2...0xdf:
            guard continuation(i + 1) else { return false }
            i += 2
        case 0xe0...0xef:
            let low: UInt8 = b0 == 0xe0 ? 0xa0 : 0x80
            let high: UInt8 = b0 == 0xed ? 0x9f : 0xbf
            guard continuation(i + 1, low, high), continuation(i + 2) else { return false }
            i += 3
        case 0xf0...0xf4:
            let low: UInt8 = b0 == 0xf0 ? 0x90 : 0x80
            let high: UInt8 = b0 == 0xf4 ? 0x8f : 0xbf
            guard continuation(i + 1, low, high), continuation(i + 2), continuation(i + 3) else { return false }
            i += 4
        default:
            return false
        }
    }
    return true
}
