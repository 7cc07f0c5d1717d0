import SoukHTTP2

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
public struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, …
    public var method: String
    /// The path without its query, percent-decoded.
    public var path: String
    /// The query's parameters, percent-decoded; the first value of a repeated name.
    public var query: [String: String]
    /// Every header field, names in lower case.
    public var headers: [HTTP2Header]

    public init(method: String, target: String, headers: [HTTP2Header]) {
        self.method = method
        self.headers = headers
        var target = target
        (path, query) = target.withUTF8(Self.parse)
    }

    /// The path and the query of a request target, read from its UTF-8 bytes: `?`, `&` and `=`
    /// are ASCII, never part of another character's bytes, and splitting by Character (grapheme
    /// clusters) cost more than the rest of a cached media answer.
    private static func parse(_ target: UnsafeBufferPointer<UInt8>) -> (path: String, query: [String: String]) {
        let mark = target.firstIndex(of: UInt8(ascii: "?")) ?? target.count
        let path = decoded(target, 0..<mark, plusIsSpace: false)
        var query: [String: String] = [:]
        var start = mark + 1
        while start < target.count {
            var end = start
            while end < target.count, target[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                var equals = start
                while equals < end, target[equals] != UInt8(ascii: "=") { equals += 1 }
                let name = decoded(target, start..<equals, plusIsSpace: true)
                if query[name] == nil { query[name] = equals < end ? decoded(target, (equals + 1)..<end, plusIsSpace: true) : "" }
            }
            start = end + 1
        }
        return (path, query)
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
