/// JSON to protobuf bytes: the parsed JSON tree is walked with the message's descriptor, fields
/// written in number order (map entries in the order given).

/// One encoded scalar, kept until it is known whether it is a default to leave out.
enum ScalarValue {
    case varint(UInt64)
    case fixed32(UInt32)
    case fixed64(UInt64)
    case bytes([UInt8])
    case text(String)

    var isZero: Bool {
        switch self {
        case .varint(let v): v == 0
        case .fixed32(let v): v == 0
        case .fixed64(let v): v == 0
        case .bytes(let b): b.isEmpty
        case .text(let t): t.isEmpty
        }
    }

    func write(_ number: Int32, into w: inout WireWriter) {
        switch self {
        case .varint(let v): w.tag(number, .varint); w.varint(v)
        case .fixed32(let v): w.tag(number, .fixed32); w.fixed32(v)
        case .fixed64(let v): w.tag(number, .fixed64); w.fixed64(v)
        case .bytes(let b): w.lengthDelimited(number, b)
        case .text(let t): w.lengthDelimited(number, t.utf8)
        }
    }

    /// Without a tag, inside a packed run.
    func writePacked(into w: inout WireWriter) {
        switch self {
        case .varint(let v): w.varint(v)
        case .fixed32(let v): w.fixed32(v)
        case .fixed64(let v): w.fixed64(v)
        case .bytes, .text: break
        }
    }
}

struct JSONToBinary {
    let registry: DescriptorRegistry
    let ignoreUnknownFields: Bool
    var path: [PathComponent] = []

    init(registry: DescriptorRegistry, options: JSONDecodingOptions) {
        self.registry = registry
        ignoreUnknownFields = options.ignoreUnknownFields
    }

    func fail(_ reason: String) -> ProtoJSONError {
        ProtoJSONError(path: PathComponent.render(path), reason: reason)
    }

    /// Writes the fields of a message given as JSON.
    mutating func message(_ index: Int, _ json: JSONValue, into w: inout WireWriter) throws(ProtoJSONError) {
        let m = registry.messages[index]
        if let wellKnown = m.wellKnownType {
            try wellKnownMessage(wellKnown, m, json, into: &w)
            return
        }
        guard case .object(let members) = json else { throw fail("expected an object, got \(json.kindName)") }
        try fields(m, members, into: &w)
    }

    mutating func fields(_ m: MessageDescriptor, _ members: [(key: String, value: JSONValue)], into w: inout WireWriter) throws(ProtoJSONError) {
        var given: [(field: Int, value: JSONValue)] = []
        given.reserveCapacity(members.count)
        var oneofMembers: [Int]? = m.oneofs.isEmpty ? nil : [Int](repeating: -1, count: m.oneofs.count)
        for member in members {
            guard let index = m.nameIndex[member.key] else {
                if ignoreUnknownFields { continue }
                path.append(.field(member.key))
                defer { path.removeLast() }
                throw fail("unknown field of \(m.fullName)")
            }
            let f = m.fields[index]
            if given.contains(where: { $0.field == index }) {
                path.append(.descriptor(f))
                defer { path.removeLast() }
                throw fail("given twice (as \(f.name) and \(f.jsonName))")
            }
            if let oneof = f.oneofIndex, !isNull(member.value, for: f) {
                if oneofMembers![oneof] >= 0 {
                    path.append(.descriptor(f))
                    defer { path.removeLast() }
                    throw fail("oneof \(m.oneofs[oneof]) already has \(m.fields[oneofMembers![oneof]].name)")
                }
                oneofMembers![oneof] = index
            }
            given.append((index, member.value))
        }
        given.sort { $0.field < $1.field }
        for (index, value) in given {
            let f = m.fields[index]
            path.append(.descriptor(f))
            try field(f, value, into: &w)
            path.removeLast()
        }
    }

    /// Whether a JSON null means "not set" for a field (it is a value for google.protobuf.Value and NullValue).
    func isNull(_ value: JSONValue, for f: FieldDescriptor) -> Bool {
        guard case .null = value else { return false }
        return !takesNull(f)
    }

    func takesNull(_ f: FieldDescriptor) -> Bool {
        if f.kind == .message { return registry.messages[f.messageIndex].wellKnownType == .value }
        if f.kind == .enumeration { return registry.enums[f.enumIndex].isNullValue }
        return false
    }

    mutating func field(_ f: FieldDescriptor, _ value: JSONValue, into w: inout WireWriter) throws(ProtoJSONError) {
        if case .null = value, f.isRepeated || !takesNull(f) { return }
        if f.isMap {
            guard case .object(let entries) = value else { throw fail("expected an object, got \(value.kindName)") }
            let entryType = registry.messages[f.messageIndex]
            let keyField = entryType.fields[0]
            let valueField = entryType.fields[1]
            for entry in entries {
                path.append(.key(entry.key))
                let key = try mapKey(keyField, entry.key)
                if case .null = entry.value, !takesNull(valueField) { throw fail("a map value may not be null") }
                try w.nested(f.number) { (inner: inout WireWriter) throws(ProtoJSONError) in
                    key.write(1, into: &inner)
                    try singular(valueField, entry.value, alwaysWrite: true, into: &inner)
                }
                path.removeLast()
            }
        } else if f.isRepeated {
            guard case .array(let elements) = value else { throw fail("expected an array, got \(value.kindName)") }
            if f.isPacked {
                var values: [ScalarValue] = []
                values.reserveCapacity(elements.count)
                for (i, element) in elements.enumerated() {
                    path.append(.index(i))
                    if case .null = element { throw fail("an array element may not be null") }
                    if let scalar = try scalar(f, element) { values.append(scalar) }
                    path.removeLast()
                }
                if values.isEmpty { return }
                w.nested(f.number) { inner in
                    for v in values { v.writePacked(into: &inner) }
                }
            } else {
                for (i, element) in elements.enumerated() {
                    path.append(.index(i))
                    if case .null = element, !takesNull(f) { throw fail("an array element may not be null") }
                    try singular(f, element, alwaysWrite: true, into: &w)
                    path.removeLast()
                }
            }
        } else {
            try singular(f, value, alwaysWrite: f.hasPresence, into: &w)
        }
    }

    /// One value of a field, with its tag; a default is left out unless `alwaysWrite`.
    mutating func singular(_ f: FieldDescriptor, _ value: JSONValue, alwaysWrite: Bool, into w: inout WireWriter) throws(ProtoJSONError) {
        if f.kind == .message {
            try w.nested(f.number) { (inner: inout WireWriter) throws(ProtoJSONError) in try message(f.messageIndex, value, into: &inner) }
            return
        }
        guard let scalar = try scalar(f, value) else { return }
        if alwaysWrite || !scalar.isZero { scalar.write(f.number, into: &w) }
    }

    func mapKey(_ f: FieldDescriptor, _ key: String) throws(ProtoJSONError) -> ScalarValue {
        switch f.kind {
        case .string: return .text(key)
        case .bool:
            switch key {
            case "true": return .varint(1)
            case "false": return .varint(0)
            default: throw fail("expected a boolean map key, got \"\(key)\"")
            }
        default:
            guard let scalar = try scalar(f, .string(key)) else { throw fail("invalid map key") }
            return scalar
        }
    }

    /// A scalar field's value from JSON; nil for an unknown enum name that is to be skipped.
    func scalar(_ f: FieldDescriptor, _ value: JSONValue) throws(ProtoJSONError) -> ScalarValue? {
        switch f.kind {
        case .int32: return .varint(UInt64(bitPattern: Int64(try integer(value, min: Int64(Int32.min), max: Int64(Int32.max), "int32"))))
        case .sint32: return .varint(zigZagEncode32(Int32(try integer(value, min: Int64(Int32.min), max: Int64(Int32.max), "sint32"))))
        case .sfixed32: return .fixed32(UInt32(bitPattern: Int32(try integer(value, min: Int64(Int32.min), max: Int64(Int32.max), "sfixed32"))))
        case .uint32: return .varint(UInt64(try integer(value, min: 0, max: Int64(UInt32.max), "uint32")))
        case .fixed32: return .fixed32(UInt32(try integer(value, min: 0, max: Int64(UInt32.max), "fixed32")))
        case .int64: return .varint(UInt64(bitPattern: try integer(value, min: .min, max: .max, "int64")))
        case .sint64: return .varint(zigZagEncode64(try integer(value, min: .min, max: .max, "sint64")))
        case .sfixed64: return .fixed64(UInt64(bitPattern: try integer(value, min: .min, max: .max, "sfixed64")))
        case .uint64: return .varint(try unsigned64(value, "uint64"))
        case .fixed64: return .fixed64(try unsigned64(value, "fixed64"))
        case .double: return .fixed64(try floating(value, isFloat: false).bitPattern)
        case .float: return .fixed32(Float(try floating(value, isFloat: true)).bitPattern)
        case .bool:
            guard case .bool(let b) = value else { throw fail("expected a boolean, got \(value.kindName)") }
            return .varint(b ? 1 : 0)
        case .string:
            guard case .string(let s) = value else { throw fail("expected a string, got \(value.kindName)") }
            return .text(s)
        case .bytes:
            guard case .string(let s) = value else { throw fail("expected base64 bytes, got \(value.kindName)") }
            guard let bytes = Base64.decode(s) else { throw fail("invalid base64") }
            return .bytes(bytes)
        case .enumeration:
            let e = registry.enums[f.enumIndex]
            switch value {
            case .null where e.isNullValue: return .varint(0)
            case .string(let name):
                if let number = e.numbers[name] { return .varint(UInt64(bitPattern: Int64(number))) }
                if ignoreUnknownFields { return nil }
                throw fail("unknown value \"\(name)\" of enum \(e.fullName)")
            case .number:
                return .varint(UInt64(bitPattern: Int64(try integer(value, min: Int64(Int32.min), max: Int64(Int32.max), "enum"))))
            default: throw fail("expected an enum name or number, got \(value.kindName)")
            }
        case .message, .group: throw fail("not a scalar")
        }
    }

    /// An integer given as a number or a string, exponent notation allowed when it is whole.
    func integer(_ value: JSONValue, min: Int64, max: Int64, _ typeName: String) throws(ProtoJSONError) -> Int64 {
        let text: String
        switch value {
        case .number(let n): text = n
        case .string(let s): text = s
        default: throw fail("expected an integer, got \(value.kindName)")
        }
        if let exact = Int64(text) {
            guard exact >= min, exact <= max else { throw fail("\(text) is out of range for \(typeName)") }
            return exact
        }
        guard isNumberText(text), let double = Double(text) else { throw fail("expected an integer, got \"\(text)\"") }
        guard double == double.rounded() else { throw fail("expected an integer, got \(text)") }
        guard double >= -9.223372036854775808e18, double < 9.223372036854775808e18 else { throw fail("\(text) is out of range for \(typeName)") }
        let result = Int64(double)
        guard result >= min, result <= max else { throw fail("\(text) is out of range for \(typeName)") }
        return result
    }

    func unsigned64(_ value: JSONValue, _ typeName: String) throws(ProtoJSONError) -> UInt64 {
        let text: String
        switch value {
        case .number(let n): text = n
        case .string(let s): text = s
        default: throw fail("expected an integer, got \(value.kindName)")
        }
        if let exact = UInt64(text) { return exact }
        guard isNumberText(text), let double = Double(text) else { throw fail("expected an integer, got \"\(text)\"") }
        guard double == double.rounded() else { throw fail("expected an integer, got \(text)") }
        guard double >= 0, double < 1.8446744073709552e19 else { throw fail("\(text) is out of range for \(typeName)") }
        return UInt64(double)
    }

    /// Whether text is a JSON number (strings holding numbers must be one too, not "0x10" or " 1").
    func isNumberText(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { raw in
            var parser = JSONParser(bytes: UnsafeRawBufferPointer(raw), maxDepth: 1)
            guard !raw.isEmpty, (try? parser.number()) != nil else { return false }
            return parser.position == raw.count
        }
    }

    func floating(_ value: JSONValue, isFloat: Bool) throws(ProtoJSONError) -> Double {
        let double: Double
        switch value {
        case .number(let n):
            guard let d = Double(n) else { throw fail("invalid number \(n)") }
            double = d
        case .string(let s):
            switch s {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default:
                guard isNumberText(s), let d = Double(s) else { throw fail("expected a number, got \"\(s)\"") }
                double = d
            }
        default: throw fail("expected a number, got \(value.kindName)")
        }
        guard double.isFinite else { throw fail("\(value) is out of range for \(isFloat ? "float" : "double")") }
        if isFloat && abs(double) > Double(Float.greatestFiniteMagnitude) { throw fail("out of range for float") }
        return double
    }

    // MARK: Well-known types

    mutating func wellKnownMessage(_ type: WellKnownType, _ m: MessageDescriptor, _ json: JSONValue, into w: inout WireWriter) throws(ProtoJSONError) {
        switch type {
        case .timestamp, .duration:
            guard case .string(let text) = json else { throw fail("expected a \(type == .timestamp ? "timestamp" : "duration") string, got \(json.kindName)") }
            let parsed = type == .timestamp ? TimeText.parseTimestamp(text) : TimeText.parseDuration(text)
            guard let (seconds, nanos) = parsed else {
                throw fail(type == .timestamp ? "invalid RFC 3339 timestamp \"\(text)\"" : "invalid duration \"\(text)\" (seconds with an \"s\", such as \"1.5s\")")
            }
            if seconds != 0 { w.tag(1, .varint); w.varint(UInt64(bitPattern: seconds)) }
            if nanos != 0 { w.tag(2, .varint); w.varint(UInt64(bitPattern: Int64(nanos))) }
        case .fieldMask:
            guard case .string(let text) = json else { throw fail("expected a field mask string, got \(json.kindName)") }
            guard !text.isEmpty else { return }
            for path in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let snake = FieldMaskText.fromJSON(String(path)) else { throw fail("field mask path \"\(path)\" must be lowerCamelCase") }
                w.lengthDelimited(1, Array(snake.utf8))
            }
        case .structValue:
            guard case .object(let members) = json else { throw fail("expected an object, got \(json.kindName)") }
            let valueIndex = registry.messageIndexes["google.protobuf.Value"]!
            for member in members {
                path.append(.key(member.key))
                try w.nested(1) { (entry: inout WireWriter) throws(ProtoJSONError) in
                    entry.lengthDelimited(1, Array(member.key.utf8))
                    try entry.nested(2) { (inner: inout WireWriter) throws(ProtoJSONError) in try message(valueIndex, member.value, into: &inner) }
                }
                path.removeLast()
            }
        case .listValue:
            guard case .array(let elements) = json else { throw fail("expected an array, got \(json.kindName)") }
            let valueIndex = registry.messageIndexes["google.protobuf.Value"]!
            for (i, element) in elements.enumerated() {
                path.append(.index(i))
                try w.nested(1) { (inner: inout WireWriter) throws(ProtoJSONError) in try message(valueIndex, element, into: &inner) }
                path.removeLast()
            }
        case .value:
            switch json {
            case .null: w.tag(1, .varint); w.varint(0)
            case .number(let text):
                guard let d = Double(text), d.isFinite else { throw fail("number \(text) out of range") }
                w.tag(2, .fixed64); w.fixed64(d.bitPattern)
            case .string(let s): w.lengthDelimited(3, Array(s.utf8))
            case .bool(let b): w.tag(4, .varint); w.varint(b ? 1 : 0)
            case .object:
                let index = registry.messageIndexes["google.protobuf.Struct"]!
                try w.nested(5) { (inner: inout WireWriter) throws(ProtoJSONError) in try message(index, json, into: &inner) }
            case .array:
                let index = registry.messageIndexes["google.protobuf.ListValue"]!
                try w.nested(6) { (inner: inout WireWriter) throws(ProtoJSONError) in try message(index, json, into: &inner) }
            }
        case .any:
            guard case .object(let members) = json else { throw fail("expected an object, got \(json.kindName)") }
            if members.isEmpty { return }
            guard let typeMember = members.first(where: { $0.key == "@type" }) else { throw fail("Any without \"@type\"") }
            guard case .string(let url) = typeMember.value else { throw fail("\"@type\" must be a string") }
            let typeName = url.split(separator: "/").last.map(String.init) ?? ""
            guard url.contains("/"), let index = registry.messageIndexes[typeName] else { throw fail("Any holds unknown type \(url)") }
            let rest = members.filter { $0.key != "@type" }
            var inner = WireWriter()
            if registry.messages[index].wellKnownType != nil {
                guard let value = rest.first(where: { $0.key == "value" }), rest.count == 1 else {
                    throw fail("Any of \(typeName) needs exactly one other member, \"value\"")
                }
                path.append(.field("value"))
                try message(index, value.value, into: &inner)
                path.removeLast()
            } else {
                try fields(registry.messages[index], rest, into: &inner)
            }
            w.lengthDelimited(1, Array(url.utf8))
            if !inner.bytes.isEmpty { w.lengthDelimited(2, inner.bytes) }
        default:
            // Wrappers: the plain value.
            guard let index = m.fieldIndex(number: 1) else { throw fail("wrapper without its value") }
            if case .null = json { return }
            try singular(m.fields[index], json, alwaysWrite: false, into: &w)
        }
    }
}
