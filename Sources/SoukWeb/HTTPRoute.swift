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
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = Self.percentDecoded(parts[0], plusIsSpace: false)
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = Self.percentDecoded(nameValue[0], plusIsSpace: true)
                if query[name] == nil { query[name] = nameValue.count == 2 ? Self.percentDecoded(nameValue[1], plusIsSpace: true) : "" }
            }
        }
        self.query = query
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
