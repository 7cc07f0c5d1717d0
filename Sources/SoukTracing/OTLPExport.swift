#if canImport(Glibc)
import Glibc
#endif
import SoukJSON

/// OTLP's JSON encoding of spans (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding):
/// ids as hex strings, times as decimal strings of Unix nanoseconds.
enum OTLPJSON {
    static func traces(_ spans: [SpanRecord], serviceName: String) -> String {
        var out = #"{"resourceSpans":[{"resource":{"attributes":["#
        out += attribute("service.name", .string(serviceName))
        out += #"]},"scopeSpans":[{"scope":{"name":"souk"},"spans":["#
        out += spans.map(span).joined(separator: ",")
        out += "]}]}]}"
        return out
    }

    private static func span(_ span: SpanRecord) -> String {
        var out = #"{"traceId":""# + span.context.traceIDHex + #"","spanId":""# + span.context.spanIDHex + "\""
        if let parent = span.parentSpanID { out += #","parentSpanId":""# + TraceContext.hex(parent) + "\"" }
        out += #","name":"# + quoted(span.name) + #","kind":"# + String(span.kind.rawValue)
        out += #","startTimeUnixNano":""# + String(span.start) + #"","endTimeUnixNano":""# + String(span.end) + "\""
        out += #","attributes":["# + span.attributes.map { attribute($0.0, $0.1) }.joined(separator: ",") + "]"
        if let error = span.error {
            out += #","status":{"code":2,"message":"# + quoted(error) + "}"
        } else {
            out += #","status":{"code":1}"#
        }
        return out + "}"
    }

    private static func attribute(_ key: String, _ value: SpanRecord.Value) -> String {
        let encoded: String
        switch value {
        case .string(let text): encoded = #"{"stringValue":"# + quoted(text) + "}"
        case .int(let number): encoded = #"{"intValue":""# + String(number) + #""}"#
        case .bool(let flag): encoded = #"{"boolValue":"# + (flag ? "true" : "false") + "}"
        }
        return #"{"key":"# + quoted(key) + #","value":"# + encoded + "}"
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}

/// An OTLP/HTTP collector's address (`http://HOST:PORT`), and one POST to it over a new
/// connection: the exporter sends a batch at most every 200 ms, so a connection per batch costs
/// nothing worth a pool.
struct CollectorEndpoint: Sendable {
    let host: String
    let port: UInt16

    init(_ url: String) throws {
        guard url.hasPrefix("http://") else { throw TracingError("the collector endpoint must be http://HOST:PORT, not \(url)") }
        var rest = url.dropFirst("http://".count)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]), colon > rest.startIndex else {
            throw TracingError("the collector endpoint must name a port: \(url)")
        }
        host = String(rest[..<colon]).trimmingBrackets()
        self.port = port
    }

    /// Sends `json`; true when the collector answered 2xx.
    func post(path: String, json: String) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return false }
        defer { freeaddrinfo(first) }
        let socket = Glibc.socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(socket, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { return false }
        let body = Array(json.utf8)
        let head = "POST \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        guard sendAll(socket, Array(head.utf8) + body) else { return false }
        var response = [UInt8](repeating: 0, count: 64)
        let count = recv(socket, &response, response.count, 0)
        guard count >= 12 else { return false }
        // "HTTP/1.1 200 OK": the status's first digit.
        return response[9] == UInt8(ascii: "2")
    }

    private func sendAll(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }
}

/// A tracing setting that cannot work.
public struct TracingError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension String {
    /// `[::1]` as `::1`.
    fileprivate func trimmingBrackets() -> String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
