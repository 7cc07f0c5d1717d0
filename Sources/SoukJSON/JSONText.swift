/// A small JSON reader and writer over UTF-8 bytes (RFC 8259): the mapping needs numbers kept as
/// their text (an int64 must not pass through a Double), duplicate keys refused, a nesting limit,
/// and no Foundation round trip on the server path.

/// A parsed JSON value; numbers keep their text. (Not `indirect`: arrays already hold their
/// elements out of line, and boxing every scalar would cost an allocation each.)
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Why JSON text could not be read, with the byte offset.
struct JSONSyntaxError: Error {
    var offset: Int
    var reason: String
}

/// Parses JSON text; rejects invalid UTF-8, duplicate object keys, trailing text and nesting
/// deeper than `maxDepth`.
struct JSONParser {
    let bytes: UnsafeRawBufferPointer
    var position = 0
    let maxDepth: Int

    static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    func error(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(offset: position, reason: reason) }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0a, 0x0d: position += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of JSON") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            guard depth < maxDepth else { throw error("nested deeper than \(maxDepth) levels") }
            position += 1
            var members: [(key: String, value: JSONValue)] = []
            var keys: Set<String>? = nil
            skipWhitespace()
            if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object([])
            }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let keyStart = position
                let key = try string()
                // A linear scan is cheapest for the usual few dozen keys; a set past that.
                if members.count < 32 {
                    if members.contains(where: { $0.key == key }) { throw JSONSyntaxError(offset: keyStart, reason: "duplicate key \"\(key)\"") }
                } else {
                    if keys == nil { keys = Set(members.map(\.key)) }
                    if !keys!.insert(key).inserted { throw JSONSyntaxError(offset: keyStart, reason: "duplicate key \"\(key)\"") }
                }
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of JSON") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                } else {
                    throw error("expected ',' or '}'")
                }
            }
        case UInt8(ascii: "["):
            guard depth < maxDepth else { throw error("nested deeper than \(maxDepth) levels") }
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array([])
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of JSON") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                } else {
                    throw error("expected ',' or ']'")
                }
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw error("invalid literal") }
        for i in 0..<count where bytes[position + i] != word.utf8Start[i] { throw error("invalid literal") }
        position += count
    }

    /// A number's text, checked against the JSON grammar.
    mutating func number() throws(JSONSyntaxError) -> String {
        let start = position
        func digit(_ p: Int) -> Bool { p < bytes.count && bytes[p] >= 0x30 && bytes[p] <= 0x39 }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard digit(position) else { throw error("invalid number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while digit(position) { position += 1 }
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digit(position) else { throw error("invalid number") }
            while digit(position) { position += 1 }
        }
        if position < bytes.count && (bytes[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) { position += 1 }
            guard digit(position) else { throw error("invalid number") }
            while digit(position) { position += 1 }
        }
        guard position - start <= 400 else { throw JSONSyntaxError(offset: start, reason: "number too long") }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// The end of the run of bytes from `start` that need no look in a string: ASCII, not a
    /// control character, a quote or a backslash. Checks eight bytes at once; stops at the first
    /// group of eight holding any other byte (the byte loop then takes over).
    @inline(__always)
    static func plainASCIIEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var position = start
        while bytes.count - position >= 8 {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5c)
            // A byte's high bit is set in each term when it is 0 (quote, backslash) or below 0x20;
            // `word` itself has it for non-ASCII bytes.
            let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word) | word
            if special & highs != 0 { break }
            position += 8
        }
        return position
    }

    /// A string (the opening quote at `position`), its escapes resolved and its UTF-8 validated.
    mutating func string() throws(JSONSyntaxError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes (and ASCII needs no UTF-8 validation). Eight bytes at a time while
        // they are plain ASCII (long strings are mostly base64 bytes fields).
        position = Self.plainASCIIEnd(bytes, from: position)
        var ascii = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                position += 1
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard validUTF8(slice) else { throw JSONSyntaxError(offset: start, reason: "invalid UTF-8 in a string") }
                return String(decoding: slice, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string") }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        var buffer = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while true {
            guard position < bytes.count else { throw error("unterminated string") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                let valid = buffer.withUnsafeBytes { validUTF8($0) }
                guard valid else { throw JSONSyntaxError(offset: start, reason: "invalid UTF-8 in a string") }
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw error("unterminated string") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0c)
                case UInt8(ascii: "n"): buffer.append(0x0a)
                case UInt8(ascii: "r"): buffer.append(0x0d)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xd800..<0xdc00).contains(scalar) {
                        guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in a string")
                        }
                        position += 2
                        let low = try hex4()
                        guard (0xdc00..<0xe000).contains(low) else { throw error("unpaired surrogate in a string") }
                        scalar = 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00)
                    } else if (0xdc00..<0xe000).contains(scalar) {
                        throw error("unpaired surrogate in a string")
                    }
                    buffer.append(contentsOf: Character(Unicode.Scalar(scalar)!).utf8)
                default: throw error("invalid escape in a string")
                }
            default:
                if byte < 0x20 { throw error("control character in a string") }
                buffer.append(byte)
            }
        }
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw error("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[position]
            position += 1
            let digit: UInt8
            switch c {
            case 0x30...0x39: digit = c - 0x30
            case 0x41...0x46: digit = c - 0x41 + 10
            case 0x61...0x66: digit = c - 0x61 + 10
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}

/// Writes JSON, compact or indented by two spaces.
struct JSONWriter {
    var bytes: [UInt8] = []
    let pretty: Bool
    private var depth = 0
    /// Whether the innermost open object or array has no member yet.
    private var empty = true

    init(pretty: Bool) {
        self.pretty = pretty
        bytes.reserveCapacity(256)
    }

    @inline(__always) mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func newline() {
        bytes.append(0x0a)
        for _ in 0..<depth { bytes.append(0x20); bytes.append(0x20) }
    }

    mutating func beginObject() { bytes.append(UInt8(ascii: "{")); depth += 1; empty = true }
    mutating func beginArray() { bytes.append(UInt8(ascii: "[")); depth += 1; empty = true }

    mutating func endObject() {
        depth -= 1
        if pretty && !empty { newline() }
        bytes.append(UInt8(ascii: "}"))
        empty = false
    }

    mutating func endArray() {
        depth -= 1
        if pretty && !empty { newline() }
        bytes.append(UInt8(ascii: "]"))
        empty = false
    }

    /// Starts a member: the separator, then the quoted and escaped key with its colon.
    @inline(__always)
    mutating func key(quoted: [UInt8]) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        if pretty { newline() }
        bytes.append(contentsOf: quoted)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(0x20) }
        empty = true
    }

    mutating func key(_ name: String) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        if pretty { newline() }
        string(name)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(0x20) }
        empty = true
    }

    /// Starts an array element (after the key of a member, nothing).
    @inline(__always)
    mutating func element() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        if pretty { newline() }
    }

    /// Marks that a value was written (the member or element is done).
    @inline(__always) mutating func wrote() { empty = false }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(utf8: UnsafeRawBufferPointer($0)) }
        empty = false
    }

    /// A string from UTF-8 the caller has validated.
    mutating func string(utf8: UnsafeRawBufferPointer) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for i in 0..<utf8.count {
            let byte = utf8[i]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < i { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[runStart..<i])) }
            runStart = i + 1
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0a: raw("\\n")
            case 0x0d: raw("\\r")
            case 0x09: raw("\\t")
            case 0x08: raw("\\b")
            case 0x0c: raw("\\f")
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                raw("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 15)])
            }
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
        empty = false
    }

    mutating func integer<T: FixedWidthInteger>(_ value: T, quoted: Bool) {
        if quoted { bytes.append(UInt8(ascii: "\"")) }
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
        } else {
            var magnitude = value.magnitude
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &digits) { buffer in
                while magnitude > 0 {
                    let (q, r) = magnitude.quotientAndRemainder(dividingBy: 10)
                    buffer[count] = UInt8(truncatingIfNeeded: r) + 0x30
                    count += 1
                    magnitude = q
                }
                for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
            }
        }
        if quoted { bytes.append(UInt8(ascii: "\"")) }
        empty = false
    }

    mutating func double(_ value: Double) {
        if value.isNaN {
            raw("\"NaN\"")
        } else if value.isInfinite {
            if value < 0 { raw("\"-Infinity\"") } else { raw("\"Infinity\"") }
        } else if value == value.rounded(), abs(value) < 1e15 {
            // Whole numbers without Swift's trailing ".0" (as protobuf's other runtimes write them).
            integer(Int64(value), quoted: false)
            if value == 0 && value.sign == .minus { bytes.removeLast(); raw("-0") }
        } else {
            var text = value.description
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }
        empty = false
    }

    mutating func float(_ value: Float) {
        if value.isNaN || value.isInfinite || (value == value.rounded() && abs(value) < 1e7) {
            double(Double(value))
        } else {
            var text = value.description
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }
        empty = false
    }

    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
        empty = false
    }

    mutating func null() { raw("null"); empty = false }
}

/// JSON text for callers that assemble a document of their own.
public enum JSONText {
    /// `text` as a quoted JSON string, escaped as this module writes strings.
    public static func quoted(_ text: String) -> String {
        var writer = JSONWriter(pretty: false)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
