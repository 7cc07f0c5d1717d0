import ExtrasBase64
import NIOCore
import SoukGRPC
import SoukHTTP2

/// The gRPC-Web body encodings: binary or base64 text frames, of protobuf or JSON messages.
struct GRPCWebFormat {
    /// `application/grpc-web-text`: the body is base64.
    var isText: Bool
    /// `application/grpc-web+json`: each message is proto3 JSON (what a page can write without a
    /// protobuf library).
    var isJSON: Bool
    /// The response's content type: the request's, with the message format spelled out.
    var responseContentType: String

    /// The gRPC layer's usual response headers (`ResponseHeaders.plain`) in this format.
    var plainResponseHeaders: [HTTP2Header]

    /// The format a request's content type names; nil when it is not gRPC-Web.
    init?(contentType: String) {
        switch MediaType.index(of: contentType, in: Self.mediaTypes) {
        case 0, 1: self = Self.binary
        case 2, 3: self = Self.text
        case 4: self = Self.json
        default: return nil
        }
    }

    private init(isText: Bool, isJSON: Bool, responseContentType: String) {
        (self.isText, self.isJSON, self.responseContentType) = (isText, isJSON, responseContentType)
        plainResponseHeaders = Self.translated(ResponseHeaders.plain, contentType: responseContentType)
    }

    /// A gRPC response header block with this format's content type.
    func translated(_ headers: [HTTP2Header]) -> [HTTP2Header] {
        Self.translated(headers, contentType: responseContentType)
    }

    private static func translated(_ headers: [HTTP2Header], contentType: String) -> [HTTP2Header] {
        headers.map { $0.name == "content-type" ? HTTP2Header("content-type", contentType) : $0 }
    }

    private static let binary = GRPCWebFormat(isText: false, isJSON: false, responseContentType: "application/grpc-web+proto")
    private static let text = GRPCWebFormat(isText: true, isJSON: false, responseContentType: "application/grpc-web-text+proto")
    private static let json = GRPCWebFormat(isText: false, isJSON: true, responseContentType: "application/grpc-web+json")

    private static let mediaTypes: [StaticString] = [
        "application/grpc-web", "application/grpc-web+proto", "application/grpc-web-text", "application/grpc-web-text+proto",
        "application/grpc-web+json",
    ]
}

/// A gRPC response stream seen through gRPC-Web: the content type and CORS headers set on the
/// response headers, the status and trailing metadata sent as a trailer frame (flag 0x80, then
/// `name: value` lines) at the end of the body, and every body chunk base64-encoded in text mode
/// (each chunk padded on its own, as gRPC-Web clients read it).
final class GRPCWebResponseStream: HTTP2ResponseStream {
    private let base: any HTTP2ResponseStream
    private let format: GRPCWebFormat
    private let corsHeaders: [HTTP2Header]
    /// The JSON form of the response messages, for `+json`.
    var jsonMessages: GRPCWebJSONMessages?

    init(_ base: any HTTP2ResponseStream, format: GRPCWebFormat, corsHeaders: [HTTP2Header]) {
        self.base = base
        self.format = format
        self.corsHeaders = corsHeaders
    }

    var streamID: Int32 { base.streamID }
    var eventLoop: any EventLoop { base.eventLoop }
    var remoteAddress: SocketAddress? { base.remoteAddress }

    /// A Trailers-Only response (`endStream`) keeps its status in the headers, which gRPC-Web allows.
    func sendHeaders(_ headers: [HTTP2Header], endStream: Bool) {
        // Nearly every call answers with the gRPC layer's one constant block (the comparison
        // finds the same storage at once): its translation is built once per format.
        if headers == ResponseHeaders.plain, corsHeaders.isEmpty {
            return base.sendHeaders(format.plainResponseHeaders, endStream: endStream)
        }
        var translated = format.translated(headers)
        translated += corsHeaders
        base.sendHeaders(translated, endStream: endStream)
    }

    func sendData(_ data: ByteBuffer, promise: EventLoopPromise<Void>?) {
        guard let jsonMessages else { return base.sendData(encoded(data), promise: promise) }
        var frames = data
        do {
            base.sendData(try jsonMessages.responseFrames(&frames), promise: promise)
        } catch {
            promise?.fail(error)
            // RST_STREAM INTERNAL_ERROR (2): a response message the mapping cannot write.
            base.reset(errorCode: 2)
        }
    }

    func sendTrailers(_ trailers: [HTTP2Header]) {
        base.sendData(encoded(Self.trailerFrame(trailers)), promise: nil)
        base.sendTrailers([])
    }

    func sendTrailersNow(_ trailers: [HTTP2Header]) {
        // The trailer frame is body data: it goes after what is queued.
        sendTrailers(trailers)
    }

    func reset(errorCode: UInt32) { base.reset(errorCode: errorCode) }

    /// In text and JSON modes the request's wire bytes are reported as they are translated
    /// (`GRPCWebTextRequest`, `GRPCWebJSONRequest`), not the bytes the gRPC layer reports.
    func consumed(_ byteCount: Int) {
        if !format.isText && !format.isJSON { base.consumed(byteCount) }
    }

    var queuedByteCount: Int { base.queuedByteCount }
    var queuedWriteCount: Int { base.queuedWriteCount }
    func dropUnsentWrites() -> Int { base.dropUnsentWrites() }

    private func encoded(_ data: ByteBuffer) -> ByteBuffer {
        guard format.isText else { return data }
        let text = data.withUnsafeReadableBytes { Base64.encodeToBytes(bytes: $0) }
        return ByteBuffer(bytes: text)
    }

    /// The trailer frame of nearly every call: success, without trailing metadata.
    private static let okTrailerFrame = writeTrailerFrame([HTTP2Header("grpc-status", "0")])

    /// The trailers as a gRPC-Web trailer frame.
    static func trailerFrame(_ trailers: [HTTP2Header]) -> ByteBuffer {
        if trailers.count == 1, trailers[0].name == "grpc-status", trailers[0].value == "0" { return okTrailerFrame }
        return writeTrailerFrame(trailers)
    }

    private static func writeTrailerFrame(_ trailers: [HTTP2Header]) -> ByteBuffer {
        // Written straight into the frame: a String built line by line first (an interpolation
        // and a concatenation per trailer) cost more than the rest of a gRPC-Web call's translation.
        let length = trailers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        var frame = ByteBuffer()
        frame.reserveCapacity(5 + length)
        frame.writeInteger(UInt8(0x80))
        frame.writeInteger(UInt32(length))
        for trailer in trailers {
            frame.writeString(trailer.name)
            frame.writeStaticString(": ")
            frame.writeString(trailer.value)
            frame.writeStaticString("\r\n")
        }
        return frame
    }
}

/// The request side of a `grpc-web-text` call: decodes the base64 body (in 4-character groups, each
/// padded segment on its own) before the gRPC layer reads it. A body that is not base64 resets the
/// stream.
final class GRPCWebTextRequest: HTTP2StreamHandler {
    private let handler: any HTTP2StreamHandler
    private weak var stream: (any HTTP2ResponseStream)?
    private var decoder = Base64StreamDecoder()

    init(_ handler: any HTTP2StreamHandler, stream: any HTTP2ResponseStream) {
        self.handler = handler
        self.stream = stream
    }

    func receiveData(_ data: ByteBuffer, endStream: Bool) {
        stream?.consumed(data.readableBytes)
        guard let decoded = decoder.decode(data), !endStream || decoder.isEmpty else {
            // RST_STREAM PROTOCOL_ERROR (1): the body is not what its content type says.
            stream?.reset(errorCode: 1)
            return
        }
        handler.receiveData(ByteBuffer(bytes: decoded), endStream: endStream)
    }

    func receiveTrailers(_ trailers: [HTTP2Header]) {
        handler.receiveTrailers(trailers)
    }

    func streamClosed(_ reason: HTTP2StreamCloseReason) {
        handler.streamClosed(reason)
    }
}

/// Decodes base64 that arrives in pieces, possibly as several padded segments one after another.
struct Base64StreamDecoder {
    /// Characters of an incomplete 4-character group, kept for the next piece.
    private var pending: [UInt8] = []

    /// No incomplete group is waiting (the body may end here).
    var isEmpty: Bool { pending.isEmpty }

    /// The bytes of every complete group so far; nil when the text is not base64.
    mutating func decode(_ piece: ByteBuffer) -> [UInt8]? {
        pending.append(contentsOf: piece.readableBytesView.lazy.filter { !Self.isWhitespace($0) })
        let usable = pending.count / 4 * 4
        var decoded: [UInt8] = []
        var segmentStart = 0
        var group = 0
        while group < usable {
            // A group ending in '=' ends a padded segment.
            if pending[group + 3] == UInt8(ascii: "=") {
                guard let bytes = try? Base64.decode(bytes: pending[segmentStart ..< group + 4]) else { return nil }
                decoded += bytes
                segmentStart = group + 4
            }
            group += 4
        }
        if segmentStart < usable {
            guard let bytes = try? Base64.decode(bytes: pending[segmentStart ..< usable]) else { return nil }
            decoded += bytes
        }
        pending.removeFirst(usable)
        return decoded
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
    }
}
