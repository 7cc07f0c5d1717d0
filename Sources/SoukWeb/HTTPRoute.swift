import SoukHTTP2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain HTTP requests under a path prefix (media files, the admin console's pages), served on
/// the gRPC port beside the RPCs, over HTTP/1.1 and HTTP/2 alike.
public protocol HTTPRoute: Sendable {
    /// Requests whose path starts with it come here, for example `/media/`.
    var pathPrefix: String { get }
    /// Answers one request on `stream` (called on the connection's event loop: work that may
    /// block, such as a store read, must run elsewhere and hop back to `stream.eventLoop`).
    func openStream(_ stream: any HTTP2ResponseStream, request: HTTPRequest, endStream: Bool) -> any HTTP2StreamHandler
}

/// A plain HTTP request's head, as a route sees it.
///
/// The target is kept as received and read on demand: a route answering from memory (a cached
/// media file) looks at one query parameter and the path's bytes, and building the decoded path
/// and a dictionary of the query for every request cost more than the rest of such an answer.
public struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, …
    public var method: String
    /// The request target as received: the path and the query, still percent-encoded.
    public var target: String
    /// Every header field, names in lower case.
    public var headers: [HTTP2Header]

    public init(method: String, target: String, headers: [HTTP2Header]) {
        self.method = method
        self.target = target
        self.headers = headers
    }

    /// The path without its query, percent-decoded.
    public var path: String {
        withTarget { target in
            let mark = target.firstIndex(of: UInt8(ascii: "?")) ?? target.count
            // A target without query or escape is its own path: shared, not copied.
            if mark == target.count, !target.contains(UInt8(ascii: "%")) { return self.target }
            return Self.decoded(target, 0..<mark, plusIsSpace: false)
        }
    }

    /// The query's parameters, percent-decoded; the first value of a repeated name.
    public var query: [String: String] {
        withTarget { target in
            var query: [String: String] = [:]
            Self.forEachParameter(target) { name, value in
                let name = Self.decoded(target, name, plusIsSpace: true)
                if query[name] == nil { query[name] = value.map { Self.decoded(target, $0, plusIsSpace: true) } ?? "" }
                return true
            }
            return query
        }
    }

    /// The first value of the query parameter `name`, percent-decoded (as `query[name]`, without
    /// making the dictionary: one pass over the bytes, and a String only for the value found).
    public func queryValue(_ name: String) -> String? {
        var wanted = name
        return wanted.withUTF8 { wanted in
            withTarget { target -> String? in
                var found: String?
                Self.forEachParameter(target) { name, value in
                    guard Self.decodedEquals(target, name, wanted) else { return true }
                    found = value.map { Self.decoded(target, $0, plusIsSpace: true) } ?? ""
                    return false
                }
                return found
            }
        }
    }

    /// Calls `body` with the UTF-8 bytes of the path as received (before the `?`, not decoded).
    /// Inlinable, so that it is specialized for the caller's closure rather than run generically.
    @inlinable
    public func withRawPath<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withTarget { target in
            let mark = Self.offset(of: UInt8(ascii: "?"), in: target) ?? target.count
            return try body(UnsafeBufferPointer(rebasing: target[0..<mark]))
        }
    }

    /// The target's UTF-8 bytes, read in place: `?`, `&` and `=` are ASCII, never part of another
    /// character's bytes, and splitting by Character (grapheme clusters) costs far more.
    @inlinable
    func withTarget<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try target.withUTF8Bytes(body)
    }

    /// Where `byte` first is in `bytes` (memchr: a target is some 100 bytes, read per request).
    @usableFromInline
    static func offset(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// Calls `body` with the byte ranges of each parameter's name and value (nil: no `=`), in
    /// order, until it returns false.
    private static func forEachParameter(
        _ target: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, Range<Int>?) -> Bool
    ) {
        guard let mark = offset(of: UInt8(ascii: "?"), in: target) else { return }
        var start = mark + 1
        while start < target.count {
            var end = start
            while end < target.count, target[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                var equals = start
                while equals < end, target[equals] != UInt8(ascii: "=") { equals += 1 }
                guard body(start..<equals, equals < end ? (equals + 1)..<end : nil) else { return }
            }
            start = end + 1
        }
    }

    /// Whether the query name at `range`, decoded, is `wanted`; compared in place unless it is escaped.
    private static func decodedEquals(_ target: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let part = UnsafeBufferPointer(rebasing: target[range])
        guard part.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return part.count == wanted.count && (part.isEmpty || memcmp(part.baseAddress!, wanted.baseAddress!, part.count) == 0)
        }
        var name = decoded(target, range, plusIsSpace: true)
        return name.withUTF8 { $0.elementsEqual(wanted) }
    }

    private static func decoded(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, plusIsSpace: Bool) -> String {
        let part = UnsafeBufferPointer(rebasing: bytes[range])
        let text = String(decoding: part, as: UTF8.self)
        guard part.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else { return text }
        return percentDecoded(text[...], plusIsSpace: plusIsSpace)
    }

    /// The first value of a header field.
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// `%XX` escapes (and `+`, a space in a query) decoded; a malformed escape is kept as it is.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String {
        guard text.contains("%") || (plusIsSpace && text.contains("+")) else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if plusIsSpace, byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), utf8.count >= 2,
                      let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
