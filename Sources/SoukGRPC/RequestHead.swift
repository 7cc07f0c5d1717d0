import SoukHTTP2

/// What a request's header block says about the call, read in one pass.
struct RequestHead {
    var httpMethod: String?
    var path: String?
    var contentType: String?
    var timeout: GRPCTimeout?
    var encoding: String?
    var acceptEncoding: String?
    var metadata: Metadata
    /// How many times the client sent this call before (`grpc-previous-rpc-attempts`; 0 when
    /// absent or unreadable).
    var previousAttempts: Int
    /// The first header that could not be read (malformed `grpc-timeout` or `-bin` value).
    var headerError: RPCError?
}

extension RequestHead {
    // Fields are gathered in locals and handed to the memberwise initializer: building `self` field
    // by field, or a local `RequestHead` returned or assigned to `self`, made the optimizer copy the
    // whole struct (a retain and release per field) on every request. Hence the second field list.
    init(_ headers: [HTTP2Header]) {
        var httpMethod: String?
        var path: String?
        var contentType: String?
        var timeout: GRPCTimeout?
        var encoding: String?
        var acceptEncoding: String?
        var metadata = Metadata()
        var previousAttempts = 0
        var headerError: RPCError?
        for header in headers {
            let name = header.name
            if name.utf8.first == UInt8(ascii: ":") {
                if name.isHeaderName(":method") {
                    httpMethod = header.value
                } else if name.isHeaderName(":path") {
                    path = header.value
                }
                continue
            }
            if name.isHeaderName("content-type") {
                contentType = header.value
            } else if name.isHeaderName("grpc-timeout") {
                if let parsed = GRPCTimeout(parsing: header.value) {
                    timeout = parsed
                } else if headerError == nil {
                    headerError = RPCError(.internalError, "malformed grpc-timeout \"\(header.value)\"")
                }
            } else if name.isHeaderName("grpc-encoding") {
                encoding = header.value
            } else if name.isHeaderName("grpc-accept-encoding") {
                // Repeated headers are one comma-separated list.
                acceptEncoding = acceptEncoding.map { $0 + "," + header.value } ?? header.value
            } else if name.isHeaderName("grpc-previous-rpc-attempts") {
                previousAttempts = max(0, Int(header.value) ?? 0)
            } else if !MetadataHeaders.isReserved(name) {
                do throws(RPCError) {
                    try MetadataHeaders.appendReceived(name: name, value: header.value, to: &metadata)
                } catch {
                    if headerError == nil { headerError = error }
                }
            }
        }
        self.init(
            httpMethod: httpMethod, path: path, contentType: contentType, timeout: timeout, encoding: encoding,
            acceptEncoding: acceptEncoding, metadata: metadata, previousAttempts: previousAttempts, headerError: headerError)
    }

    /// Whether a content type names gRPC: `application/grpc`, optionally followed by `+subtype`
    /// or `;parameters`.
    static func isGRPCContentType(_ value: String) -> Bool {
        if value == "application/grpc" { return true }
        guard value.hasPrefix("application/grpc") else { return false }
        let next = value.utf8[value.utf8.index(value.utf8.startIndex, offsetBy: 16)]
        return next == UInt8(ascii: "+") || next == UInt8(ascii: ";")
    }
}

/// A request refused before any handler runs, answered with one Trailers-Only block.
struct RequestRefusal: Error {
    /// `:status`: 200 for gRPC errors, or 405, 415, 400 for requests that are not valid gRPC.
    var httpStatus: String
    var status: RPCError
}
