import SoukGRPC
import SoukHTTP2
import SoukMessages

/// Reading a call's outcome from what the server sent: the status in the trailers (or a
/// Trailers-Only response), HTTP statuses that are not gRPC, and streams that ended without one.
enum ClientStatus {
    /// The custom metadata of a received header block (protocol headers left out). Malformed
    /// binary values are skipped: metadata never fails a call on the client.
    static func metadata(_ headers: [HTTP2Header]) -> Metadata {
        var metadata = Metadata()
        for header in headers where !MetadataHeaders.isReserved(header.name) {
            try? MetadataHeaders.appendReceived(name: header.name, value: header.value, to: &metadata)
        }
        return metadata
    }

    /// The status a trailer block (or a Trailers-Only block) carries: nil for OK, else the error
    /// with its message, the details of `grpc-status-details-bin` and the trailing metadata.
    static func status(from headers: [HTTP2Header], trailers: Metadata) -> RPCError? {
        var code: StatusCode?
        var rawCode: String?
        var message = ""
        var details: GoogleRPC.Status?
        for header in headers {
            switch header.name {
            case "grpc-status":
                rawCode = header.value
                code = Int(header.value).map { StatusCode(rawValue: $0) ?? .unknown }
            case "grpc-message":
                message = GRPCMessageEncoding.decode(header.value)
            case "grpc-status-details-bin":
                if let bytes = MetadataBase64.decode(header.value[...]) {
                    details = try? GoogleRPC.Status(decoding: bytes)
                }
            default:
                break
            }
        }
        guard let code else {
            let reason = rawCode.map { "malformed grpc-status \"\($0)\"" } ?? "the response ended without grpc-status"
            return RPCError(rawCode == nil ? .internalError : .unknown, reason, trailers: trailers)
        }
        if code == .ok { return nil }
        var error = RPCError(code, message, trailers: trailers)
        for detail in details?.details ?? [] {
            if let info = try? detail.unpack(GoogleRPC.ErrorInfo.self) {
                error.errorInfo = info
            } else if let badRequest = try? detail.unpack(GoogleRPC.BadRequest.self) {
                error.fieldViolations += badRequest.fieldViolations.map { FieldViolation(field: $0.field, description: $0.description) }
            } else if let retry = try? detail.unpack(GoogleRPC.RetryInfo.self) {
                error.retryDelay = retry.retryDelay
            } else if let localized = try? detail.unpack(GoogleRPC.LocalizedMessage.self) {
                error.localizedMessage = localized
            }
        }
        return error
    }

    /// The gRPC status for a response whose `:status` is not 200 (gRPC's HTTP-to-gRPC mapping).
    static func status(httpStatus: String) -> RPCError {
        let code: StatusCode
        switch httpStatus {
        case "400": code = .internalError
        case "401": code = .unauthenticated
        case "403": code = .permissionDenied
        case "404": code = .unimplemented
        case "429", "502", "503", "504": code = .unavailable
        default: code = .unknown
        }
        return RPCError(code, "the server answered HTTP status \(httpStatus)")
    }

    /// The status of a call whose stream closed before its trailers arrived.
    static func status(for reason: HTTP2StreamCloseReason) -> RPCError {
        switch reason {
        case .completed:
            return RPCError(.internalError, "the stream ended without a gRPC status")
        case .connectionClosed:
            return RPCError(.unavailable, "the connection closed before the call ended")
        case .resetByPeer(let code):
            switch code {
            case 7: return RPCError(.unavailable, "the server refused the stream (REFUSED_STREAM)")
            case 8: return RPCError(.cancelled, "the server cancelled the stream")
            case 11: return RPCError(.resourceExhausted, "the server reset the stream (ENHANCE_YOUR_CALM)")
            case 12: return RPCError(.permissionDenied, "the server reset the stream (INADEQUATE_SECURITY)")
            default: return RPCError(.internalError, "the stream was reset (HTTP/2 error code \(code))")
            }
        }
    }
}
