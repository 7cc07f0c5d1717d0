import SoukJSON

/// A JSON value as scenarios use it: request templates, captured answers, data files. Numbers
/// keep their text, so 64-bit ids and amounts pass through unchanged; objects keep their order.
public indirect enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x), .number(y)): x == y || Double(x) == Double(y)
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members.last(where: { $0.0 == key })?.1 }
        return nil
    }

    /// Text for a template: strings as they are, numbers and booleans as written, others as JSON.
    public var text: String {
        switch self {
        case .string(let s): s
        case .number(let n): n
        case .bool(let b): b ? "true" : "false"
        case .null: ""
        default: serialized()
        }
    }

    /// True for null, empty strings, arrays and objects (what proto3 JSON leaves out).
    var isEmpty: Bool {
        switch self {
        case .null: true
        case .string(let s): s.isEmpty
        case .array(let a): a.isEmpty
        case .object(let o): o.isEmpty
        case .bool(let b): !b
        case .number(let n): Double(n) == 0
        }
    }

    /// Compact JSON text.
    public func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                JSON.quote(key, into: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    static func quote(_ s: String, into out: inout String) {
        out += JSONText.quoted(s)
    }

    /// Parses JSON text.
    public static func parse(_ text: String) throws(LoadError) -> JSON {
        var parser = JSONReader(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    /// Parses JSON text, or JSON lines (one value a line) into an array.
    public static func parseDocumentOrLines(_ text: String) throws(LoadError) -> JSON {
        if let value = try? parse(text) { return value }
        var items: [JSON] = []
        for line in text.split(separator: "\n") where !line.allSatisfy({ $0 == " " || $0 == "\r" || $0 == "\t" }) {
            items.append(try parse(String(line)))
        }
        return .array(items)
    }
}

/// A small strict JSON reader (scenario files and answers: not a hot path).
struct JSONReader {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func error(_ reason: String) -> LoadError {
        var line = 1
        for byte in bytes[..<min(position, bytes.count)] where byte == 10 { line += 1 }
        return LoadError("invalid JSON at line \(line): \(reason)")
    }

    mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[position]) { position += 1 }
    }

    mutating func value(depth: Int) throws(LoadError) -> JSON {
        guard depth < 200 else { throw error("nested too deeply") }
        guard position < bytes.count else { throw error("unexpected end") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var members: [(String, JSON)] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
            while true {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a member name") }
                let key = try string()
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard position < bytes.count else { throw error("unexpected end") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                throw error("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            position += 1
            var items: [JSON] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard position < bytes.count else { throw error("unexpected end") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
                throw error("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            let start = position
            while position < bytes.count, "+-0123456789.eE".utf8.contains(bytes[position]) { position += 1 }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            guard !text.isEmpty, Double(text) != nil else { throw error("unexpected character") }
            return .number(text)
        }
    }

    mutating func literal(_ word: String) throws(LoadError) {
        let utf8 = Array(word.utf8)
        guard position + utf8.count <= bytes.count, Array(bytes[position..<position + utf8.count]) == utf8 else { throw error("unexpected character") }
        position += utf8.count
    }

    mutating func string() throws(LoadError) -> String {
        position += 1
        var out: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw error("unexpected end") }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try hex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    out += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
                default: out.append(escaped)
                }
            default:
                out.append(byte)
            }
        }
        throw error("unterminated string")
    }

    mutating func hex4() throws(LoadError) -> UInt32 {
        guard position + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
            throw error("invalid \\u escape")
        }
        position += 4
        return value
    }
}
