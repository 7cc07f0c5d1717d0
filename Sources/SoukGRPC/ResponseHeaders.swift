import SoukMessages
import SoukHTTP2

/// The header blocks of a response: Response-Headers, Trailers and Trailers-Only.
///
/// The constant parts are built once; a call only appends its status and custom metadata.
package enum ResponseHeaders {
    static let contentType = HTTP2Header("content-type", "application/grpc")
    static let acceptEncoding = HTTP2Header("grpc-accept-encoding", CompressionAlgorithm.acceptEncodingHeaderValue)

    /// `:status 200`, content type and the encodings this server reads.
    package static let plain: [HTTP2Header] = [HTTP2Header(":status", "200"), contentType, acceptEncoding]
    /// The same, announcing gzip-compressed response messages.
    static let gzip: [HTTP2Header] = plain + [HTTP2Header("grpc-encoding", "gzip")]
    /// Trailers of a successful call without trailing metadata.
    static let okTrailers: [HTTP2Header] = [HTTP2Header("grpc-status", "0")]

    /// `grpc-status` values, indexed by code.
    private static let statusValues: [String] = StatusCode.allCases.map { String($0.rawValue) }

    /// The response header block: `base` (plain or gzip) plus the handler's metadata.
    static func headers(base: [HTTP2Header], metadata: Metadata) -> (headers: [HTTP2Header], rejectedKeys: [String]) {
        guard !metadata.isEmpty else { return (base, []) }
        var headers = base
        let rejected = MetadataHeaders.append(metadata, to: &headers)
        return (headers, rejected)
    }

    /// The trailer block for a status (nil: OK) and trailing metadata.
    static func trailers(status: RPCError?, metadata: Metadata) -> (headers: [HTTP2Header], rejectedKeys: [String]) {
        if status == nil, metadata.isEmpty { return (okTrailers, []) }
        var headers: [HTTP2Header] = []
        headers.reserveCapacity(3 + metadata.count)
        return appendStatus(status, metadata: metadata, to: &headers)
    }

    /// A Trailers-Only block: `:status`, content type and the status, ending the stream at once.
    /// `httpStatus` is 200 except for requests that are not gRPC at all (405, 415, 400).
    static func trailersOnly(
        status: RPCError?,
        metadata: Metadata,
        httpStatus: String = "200"
    ) -> (headers: [HTTP2Header], rejectedKeys: [String]) {
        var headers: [HTTP2Header] = []
        headers.reserveCapacity(6 + metadata.count)
        headers.append(HTTP2Header(":status", httpStatus))
        headers.append(contentType)
        headers.append(acceptEncoding)
        return appendStatus(status, metadata: metadata, to: &headers)
    }

    private static func appendStatus(
        _ status: RPCError?,
        metadata: Metadata,
        to headers: inout [HTTP2Header]
    ) -> (headers: [HTTP2Header], rejectedKeys: [String]) {
        var rejected: [String] = []
        if let status {
            headers.append(HTTP2Header("grpc-status", statusValues[status.code.rawValue]))
            if !status.message.isEmpty {
                headers.append(HTTP2Header("grpc-message", GRPCMessageEncoding.encode(status.message)))
            }
            if let details = status.statusDetails {
                headers.append(HTTP2Header("grpc-status-details-bin", MetadataBase64.encode(details.encoded())))
            }
            rejected += MetadataHeaders.append(status.trailers, to: &headers)
        } else {
            headers.append(okTrailers[0])
        }
        rejected += MetadataHeaders.append(metadata, to: &headers)
        return (headers, rejected)
    }
}
