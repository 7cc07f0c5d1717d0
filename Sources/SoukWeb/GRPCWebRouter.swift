import NIOCore
import SoukGRPC
import SoukHTTP2
import SoukJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves gRPC-Web (`application/grpc-web`, `+proto`, and the base64 `application/grpc-web-text`)
/// beside gRPC on the same port, over HTTP/2 and HTTP/1.1, as the gRPC-Web protocol document
/// describes: the same methods, interceptors and errors, with the status in a trailer frame at the
/// end of the body (browsers cannot read HTTP trailers). Unary and server-streaming calls only:
/// browsers cannot stream a request body, so client and bidirectional streaming methods are
/// refused with UNIMPLEMENTED. Answers CORS preflights for the allowed origins.
///
/// Every other request goes to the gRPC router unchanged.
public struct GRPCWebRouter: HTTP2StreamRouter {
    private let grpc: GRPCRouter
    private let cors: CORSPolicy
    private let json: ProtoJSON
    private let routes: [any HTTPRoute]
    /// The routes' path prefixes as UTF-8 bytes, in the order of `routes`: matched against each
    /// request's path bytes, without a String comparison.
    private let routePrefixes: [[UInt8]]

    /// gRPC-Web and Connect in front of `grpc`, reading JSON with the message types of `json`;
    /// browsers on the policy's origins may call it from their pages. Requests under a route's
    /// prefix (but CORS preflights) go to that route, which answers 405 to methods it does not serve.
    public init(grpc: GRPCRouter, cors: CORSPolicy, json: ProtoJSON, routes: [any HTTPRoute] = []) {
        self.grpc = grpc
        self.cors = cors
        self.json = json
        self.routes = routes
        routePrefixes = routes.map { Array($0.pathPrefix.utf8) }
    }

    public func openStream(
        _ stream: any HTTP2ResponseStream,
        headers: [HTTP2Header],
        endStream: Bool
    ) -> any HTTP2StreamHandler {
        var method: String?
        var path: String?
        var contentType: String?
        var origin: String?
        for header in headers {
            // By length first: comparing Strings of different contents costs a call each, and
            // every request passes here.
            let name = header.name
            switch name.utf8.count {
            case 7 where name == ":method": method = header.value
            case 5 where name == ":path": path = header.value
            case 12 where name == "content-type": contentType = header.value
            case 6 where name == "origin": origin = header.value
            default: break
            }
        }
        let isOptions = method.map { $0.utf8.count == 7 && $0 == "OPTIONS" } ?? false
        if isOptions, origin != nil {
            return preflight(stream, headers: headers, allowedOrigin: origin.flatMap { cors.allows($0) ? $0 : nil })
        }
        if let method, !isOptions, let path, let index = routeIndex(path) {
            return routes[index].openStream(stream, request: HTTPRequest(method: method, target: path, headers: headers), endStream: endStream)
        }
        // Plain gRPC as nearly every client spells it: no other protocol's type to look for.
        if let contentType, contentType == "application/grpc" {
            return grpc.openStream(stream, headers: headers, endStream: endStream)
        }
        let allowedOrigin = origin.flatMap { cors.allows($0) ? $0 : nil }
        let corsHeaders = allowedOrigin.map(cors.responseHeaders(origin:)) ?? []
        if method == "POST", let contentType, let codec = Self.connectCodec(contentType) {
            return connectCall(stream, codec: codec, path: path ?? "", headers: headers, corsHeaders: corsHeaders)
        }
        guard let contentType, let format = GRPCWebFormat(contentType: contentType) else {
            return grpc.openStream(stream, headers: headers, endStream: endStream)
        }
        let web = GRPCWebResponseStream(stream, format: format, corsHeaders: corsHeaders)
        if let path, let kind = grpc.kind(atPath: path), kind == .clientStreaming || kind == .bidirectionalStreaming {
            return grpc.refuse(web, status: RPCError(
                .unimplemented, "\(path.dropFirst()) streams its requests, which gRPC-Web cannot carry; call it over gRPC"))
        }
        // The gRPC layer sees a gRPC request; the wrappers translate the body both ways.
        var rewritten = headers.map { $0.name == "content-type" ? HTTP2Header("content-type", "application/grpc") : $0 }
        guard format.isJSON else {
            let handler = grpc.openStream(web, headers: rewritten, endStream: endStream)
            return format.isText ? GRPCWebTextRequest(handler, stream: stream) : handler
        }
        // JSON messages cannot be compressed: the response comes uncompressed.
        rewritten.removeAll { $0.name == "grpc-accept-encoding" || $0.name == "grpc-encoding" }
        guard let path, let method = json.registry.method(named: path) else {
            return grpc.openStream(web, headers: rewritten, endStream: endStream)
        }
        let messages = GRPCWebJSONMessages(json: json, inputType: method.inputType, outputType: method.outputType)
        web.jsonMessages = messages
        let handler = grpc.openStream(web, headers: rewritten, endStream: endStream)
        let grpc = self.grpc
        return GRPCWebJSONRequest(handler, stream: stream, messages: messages) { [weak web] error in
            if let web { _ = grpc.refuse(web, status: error) }
        }
    }

    /// The index of the first route whose prefix the path starts with.
    private func routeIndex(_ path: String) -> Int? {
        guard !routePrefixes.isEmpty else { return nil }
        return path.withUTF8Bytes { bytes in
            routePrefixes.firstIndex { prefix in
                prefix.isEmpty
                    || prefix.count <= bytes.count && prefix.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, prefix.count) == 0 }
            }
        }
    }

    /// A Connect unary call: the request becomes a gRPC one (content type, `connect-timeout-ms` as
    /// `grpc-timeout`), run by the gRPC router.
    private func connectCall(
        _ stream: any HTTP2ResponseStream, codec: ConnectUnaryCall.Codec, path: String, headers: [HTTP2Header],
        corsHeaders: [HTTP2Header]
    ) -> any HTTP2StreamHandler {
        let method = json.registry.method(named: path).flatMap { $0.clientStreaming || $0.serverStreaming ? nil : $0 }
        let call = ConnectUnaryCall(
            stream, codec: codec, method: method, json: json, corsHeaders: corsHeaders,
            maxRequestBytes: grpc.configuration.maxReceiveMessageSize)
        guard method != nil else {
            call.refuse(RPCError(.unimplemented, "\(path) is not a unary method: JSON calls reach unary methods only"))
            return call
        }
        var translated: [HTTP2Header] = []
        translated.reserveCapacity(headers.count + 1)
        for header in headers {
            // By length first, as in `openStream`: every header of every JSON call passes here.
            let name = header.name
            switch name.utf8.count {
            case 12 where name == "content-type": translated.append(HTTP2Header("content-type", "application/grpc"))
            case 14 where name == "content-length", 24 where name == "connect-protocol-version": continue
            case 18 where name == "connect-timeout-ms":
                // Connect allows 10 digits of milliseconds; grpc-timeout 8 digits of a unit.
                guard header.value.count <= 10, let milliseconds = Int64(header.value), milliseconds >= 0 else {
                    call.refuse(RPCError.invalidArgument(field: "connect-timeout-ms", "must be a whole number of milliseconds, at most 10 digits"))
                    return call
                }
                translated.append(HTTP2Header("grpc-timeout", GRPCTimeout(rounding: .milliseconds(milliseconds)).headerValue))
            default: translated.append(header)
            }
        }
        call.start(router: grpc, grpcHeaders: translated)
        return call
    }

    /// The codec a Connect unary request's content type names; nil for other requests.
    private static func connectCodec(_ contentType: String) -> ConnectUnaryCall.Codec? {
        switch MediaType.index(of: contentType, in: ["application/json", "application/proto"]) {
        case 0: .json
        case 1: .proto
        default: nil
        }
    }

    /// Answers a CORS preflight: 204 with what the origin may send and read, or 403.
    private func preflight(
        _ stream: any HTTP2ResponseStream, headers: [HTTP2Header], allowedOrigin: String?
    ) -> any HTTP2StreamHandler {
        guard let allowedOrigin else {
            stream.sendHeaders([HTTP2Header(":status", "403")], endStream: true)
            return DiscardingStreamHandler(stream: stream)
        }
        var response = [HTTP2Header(":status", "204")] + cors.responseHeaders(origin: allowedOrigin)
        response.append(HTTP2Header("access-control-allow-methods", "POST, GET, OPTIONS"))
        if let requested = headers.first(where: { $0.name == "access-control-request-headers" }) {
            response.append(HTTP2Header("access-control-allow-headers", requested.value))
        }
        response.append(HTTP2Header("access-control-max-age", String(cors.maxAgeSeconds)))
        stream.sendHeaders(response, endStream: true)
        return DiscardingStreamHandler(stream: stream)
    }
}

/// Which origins may call from a browser page, and what their pages may read.
public struct CORSPolicy: Sendable {
    /// Exact origins (`https://admin.example.com`); `*` allows every origin.
    public var allowedOrigins: Set<String>
    /// How long a browser may keep a preflight's answer.
    public var maxAgeSeconds = 600

    public init(allowedOrigins: Set<String>) {
        self.allowedOrigins = allowedOrigins
    }

    func allows(_ origin: String) -> Bool {
        allowedOrigins.contains("*") || allowedOrigins.contains(origin)
    }

    /// The headers a response to a page of `origin` carries: the origin allowed, and the gRPC
    /// status headers readable by the page (a Trailers-Only answer puts them in the headers).
    func responseHeaders(origin: String) -> [HTTP2Header] {
        [
            HTTP2Header("access-control-allow-origin", origin),
            HTTP2Header("access-control-expose-headers", "grpc-status, grpc-message, grpc-status-details-bin"),
            HTTP2Header("vary", "Origin"),
        ]
    }
}
