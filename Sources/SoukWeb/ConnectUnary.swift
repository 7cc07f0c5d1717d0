import ExtrasBase64
import NIOCore
import SoukGRPC
import SoukHTTP2
import SoukJSON
import SoukMessages

/// The Connect protocol's unary calls (`POST /souk.v1.Catalog/ListProducts` with
/// `application/json` or `application/proto`), so that `curl` and scripts reach every unary RPC:
/// the body is the request message itself, the answer the response message, with HTTP status 200;
/// an error has the HTTP status Connect gives its code and a JSON body `{"code", "message",
/// "details"}` whose details carry the same ErrorInfo, BadRequest, RetryInfo and LocalizedMessage
/// as gRPC's `grpc-status-details-bin` (each with its bytes in `value` and as JSON in `debug`).
/// Response metadata comes as headers, trailing metadata as `trailer-` headers.
///
/// The call runs through the gRPC router unchanged: the request is handed over as one gRPC
/// message, and the gRPC response is read back (the whole answer waits for the status, which
/// decides the HTTP status).
final class ConnectUnaryCall: HTTP2StreamHandler, HTTP2ResponseStream {
    /// `application/json` or `application/proto`.
    enum Codec {
        case json
        case proto
    }

    private let base: any HTTP2ResponseStream
    private let codec: Codec
    /// Nil for a path that names no unary method (the call is refused at once).
    private let method: SoukJSON.MethodDescriptor?
    private let json: ProtoJSON
    private let corsHeaders: [HTTP2Header]
    private let maxRequestBytes: Int
    private var inner: (any HTTP2StreamHandler)?
    private var body = ByteBuffer()
    private var responseHeaders: [HTTP2Header] = []
    private var response = ByteBuffer()
    private var answered = false

    init(
        _ base: any HTTP2ResponseStream, codec: Codec, method: SoukJSON.MethodDescriptor?, json: ProtoJSON,
        corsHeaders: [HTTP2Header], maxRequestBytes: Int
    ) {
        self.base = base
        self.codec = codec
        self.method = method
        self.json = json
        self.corsHeaders = corsHeaders
        self.maxRequestBytes = maxRequestBytes
    }

    /// Starts the gRPC call (`grpcHeaders` are the request's, translated) on `router`.
    func start(router: GRPCRouter, grpcHeaders: [HTTP2Header]) {
        inner = router.openStream(self, headers: grpcHeaders, endStream: false)
    }

    /// Answers the request with `error` at once; its body is ignored.
    func refuse(_ error: RPCError) {
        answer(error: error)
    }

    // MARK: The request, from the transport

    func receiveData(_ data: ByteBuffer, endStream: Bool) {
        base.consumed(data.readableBytes)
        guard !answered, let method else { return }
        var data = data
        guard body.readableBytes + data.readableBytes <= maxRequestBytes else {
            return answer(error: RPCError(.resourceExhausted, "the request is larger than the server accepts (\(maxRequestBytes) bytes)"))
        }
        body.writeBuffer(&data)
        guard endStream else { return }
        let message: [UInt8]
        switch codec {
        case .proto:
            message = Array(body.readableBytesView)
        case .json:
            do throws(ProtoJSONError) {
                // An empty body is the empty message.
                message = body.readableBytes == 0
                    ? [] : try body.withUnsafeReadableBytes { raw throws(ProtoJSONError) in try json.binary(fromJSON: raw, messageType: method.inputType) }
            } catch {
                let field = error.path.isEmpty ? "body" : error.path
                return answer(error: RPCError.invalidArgument(field: field, error.reason))
            }
        }
        var framed = ByteBuffer()
        framed.reserveCapacity(5 + message.count)
        framed.writeInteger(UInt8(0))
        framed.writeInteger(UInt32(message.count))
        framed.writeBytes(message)
        inner?.receiveData(framed, endStream: true)
    }

    func receiveTrailers(_ trailers: [HTTP2Header]) {
        receiveData(ByteBuffer(), endStream: true)
    }

    func streamClosed(_ reason: HTTP2StreamCloseReason) {
        answered = true
        inner?.streamClosed(reason)
        inner = nil
    }

    // MARK: The gRPC response, from the gRPC layer

    var streamID: Int32 { base.streamID }
    var eventLoop: any EventLoop { base.eventLoop }
    var remoteAddress: SocketAddress? { base.remoteAddress }

    func sendHeaders(_ headers: [HTTP2Header], endStream: Bool) {
        if endStream { return finish(headers) }
        responseHeaders = headers
    }

    func sendData(_ data: ByteBuffer, promise: EventLoopPromise<Void>?) {
        var data = data
        response.writeBuffer(&data)
        promise?.succeed()
    }

    func sendTrailers(_ trailers: [HTTP2Header]) { finish(trailers) }

    func reset(errorCode: UInt32) { base.reset(errorCode: errorCode) }

    /// The body is taken whole as it arrives (`receiveData`).
    func consumed(_ byteCount: Int) {}

    // MARK: The answer

    /// The gRPC call ended with these trailers (or a Trailers-Only block): answer the HTTP request.
    private func finish(_ trailers: [HTTP2Header]) {
        guard !answered else { return }
        let status = Int(trailers.first { $0.name == "grpc-status" }?.value ?? "") ?? StatusCode.unknown.rawValue
        guard status == 0 else {
            let message = trailers.first { $0.name == "grpc-message" }.map { GRPCMessageEncoding.decode($0.value) } ?? ""
            let details = trailers.first { $0.name == "grpc-status-details-bin" }.flatMap { MetadataBase64.decode($0.value[...]) }
            return answer(code: StatusCode(rawValue: status) ?? .unknown, message: message, details: details, trailers: trailers)
        }
        // One gRPC message: its 5-byte prefix, then the response message.
        guard response.readableBytes >= 5, response.getInteger(at: response.readerIndex, as: UInt8.self) == 0 else {
            return answer(error: RPCError(.internalError, "the response could not be read as one uncompressed message"))
        }
        let message = response.getSlice(at: response.readerIndex + 5, length: response.readableBytes - 5) ?? ByteBuffer()
        var payload: ByteBuffer
        switch codec {
        case .proto:
            payload = message
        case .json:
            do throws(ProtoJSONError) {
                let outputType = method?.outputType ?? ""
                payload = ByteBuffer(bytes: try message.withUnsafeReadableBytes { raw throws(ProtoJSONError) in
                    try json.json(fromBinary: raw, messageType: outputType)
                })
            } catch {
                return answer(error: RPCError(.internalError, "the response could not be written as JSON: \(error)"))
            }
        }
        send(status: "200", contentType: contentType, trailers: trailers, body: payload)
    }

    private func answer(error: RPCError) {
        let details = error.statusDetails.map { Array($0.encoded()) }
        answer(code: error.code, message: error.message, details: details, trailers: [])
    }

    /// A Connect error: the HTTP status of its code and the JSON error body.
    private func answer(code: StatusCode, message: String, details: [UInt8]?, trailers: [HTTP2Header]) {
        send(
            status: String(Self.httpStatus(code)), contentType: "application/json", trailers: trailers,
            body: ByteBuffer(string: errorBody(code: code, message: message, details: details)))
    }

    /// The answer: its head (status, content type, the call's metadata as headers, CORS, length)
    /// built in one array, then the body.
    private func send(status: String, contentType: String, trailers: [HTTP2Header], body: ByteBuffer) {
        answered = true
        var headers: [HTTP2Header] = []
        headers.reserveCapacity(3 + responseHeaders.count + trailers.count + corsHeaders.count)
        headers.append(HTTP2Header(":status", status))
        headers.append(HTTP2Header("content-type", contentType))
        Self.appendMetadata(of: responseHeaders, prefix: "", to: &headers)
        Self.appendMetadata(of: trailers, prefix: "trailer-", to: &headers)
        headers += corsHeaders
        headers.append(HTTP2Header("content-length", String(body.readableBytes)))
        base.sendHeaders(headers, endStream: false)
        base.sendData(body, promise: nil)
        base.sendTrailers([])
    }

    private var contentType: String {
        switch codec {
        case .json: "application/json"
        case .proto: "application/proto"
        }
    }

    /// `{"code": "invalid_argument", "message": "…", "details": [{"type", "value", "debug"}]}`.
    private func errorBody(code: StatusCode, message: String, details: [UInt8]?) -> String {
        var body = #"{"code":"# + JSONText.quoted(Self.connectCode(code)) + #","message":"# + JSONText.quoted(message)
        let anys = details.flatMap { bytes in try? bytes.withUnsafeBytes { try GoogleRPC.Status(decoding: $0) } }?.details ?? []
        if !anys.isEmpty {
            let items = anys.map { any -> String in
                let type = String(any.typeName)
                var item = #"{"type":"# + JSONText.quoted(type) + #","value":"# + JSONText.quoted(Base64.encodeToString(bytes: any.value, options: .omitPaddingCharacter))
                if let debug = try? json.json(fromBinary: any.value, messageType: type) {
                    item += #","debug":"# + String(decoding: debug, as: UTF8.self)
                }
                return item + "}"
            }
            body += #","details":["# + items.joined(separator: ",") + "]"
        }
        return body + "}"
    }

    /// Appends the custom metadata of a gRPC header block as Connect headers.
    private static func appendMetadata(of block: [HTTP2Header], prefix: String, to headers: inout [HTTP2Header]) {
        for header in block {
            let name = header.name
            guard name.utf8.first != UInt8(ascii: ":"), !name.hasPrefix("grpc-"), name != "content-type" else { continue }
            headers.append(prefix.isEmpty ? header : HTTP2Header(prefix + name, header.value))
        }
    }

    /// The HTTP status Connect gives a code.
    static func httpStatus(_ code: StatusCode) -> Int {
        switch code {
        case .ok: 200
        case .cancelled: 499
        case .invalidArgument, .failedPrecondition, .outOfRange: 400
        case .deadlineExceeded: 504
        case .notFound: 404
        case .alreadyExists, .aborted: 409
        case .permissionDenied: 403
        case .resourceExhausted: 429
        case .unimplemented: 501
        case .unavailable: 503
        case .unauthenticated: 401
        case .unknown, .internalError, .dataLoss: 500
        }
    }

    /// Connect's name of a code: `invalid_argument`.
    static func connectCode(_ code: StatusCode) -> String {
        code == .cancelled ? "canceled" : code.description.lowercased()
    }
}
