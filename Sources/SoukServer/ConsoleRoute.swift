import Foundation
import NIOCore
import SoukGRPC
import SoukHTTP2
import SoukWeb

/// The admin console's static pages (HTML, CSS, ES modules in `Console/`, shipped as this
/// module's resources), served under `/console/` on the gRPC port: the pages call the server
/// back through gRPC-Web on the same origin, so no CORS is needed.
struct ConsoleRoute: HTTPRoute {
    /// One file, read once at start: the console is a few small files.
    struct File: Sendable {
        var bytes: ByteBuffer
        var contentType: String
        /// A strong validator from the content, so a browser revalidates with a cheap 304.
        var etag: String
    }

    let pathPrefix = "/console"
    /// By path below the prefix (`index.html`, `js/app.js`): only what is in this table is
    /// served, so no request path can reach another file of the disk.
    private let files: [String: File]

    init(files: [String: File]) {
        self.files = files
    }

    /// The files of a directory, recursively (the console shipped in the bundle by default).
    init(directory: URL) throws {
        var files: [String: File] = [:]
        let root = directory.standardizedFileURL.path
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(root + "/") else { continue }
            let relative = String(path.dropFirst(root.count + 1))
            let data = try Data(contentsOf: url)
            files[relative] = File(
                bytes: ByteBuffer(bytes: data), contentType: Self.contentType(of: relative),
                etag: "\"\(String(Self.fnv1a(data), radix: 16))\"")
        }
        self.init(files: files)
    }

    /// The console shipped beside the executable in its resource bundle (where SwiftPM puts
    /// `Console/` on Linux and macOS); nil when the bundle is not there (the executable was copied
    /// alone), so the server still starts, without the console. Not `Bundle.module`: it stops the
    /// process when the bundle is missing.
    static func bundled() throws -> ConsoleRoute? {
        guard let directory = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() else { return nil }
        let candidates = [
            directory.appendingPathComponent("Souk_SoukServer.resources/Console"),
            directory.appendingPathComponent("Souk_SoukServer.bundle/Contents/Resources/Console"),
            directory.appendingPathComponent("Souk_SoukServer.bundle/Console"),
        ]
        var isDirectory: ObjCBool = false
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory) && isDirectory.boolValue })
        else { return nil }
        return try ConsoleRoute(directory: found)
    }

    func openStream(_ stream: any HTTP2ResponseStream, request: HTTPRequest, endStream: Bool) -> any HTTP2StreamHandler {
        let handler = DiscardingStreamHandler(stream: stream)
        // `/console` itself (and `/consoleX`, which the prefix also matches).
        guard request.path.hasPrefix("/console/") else {
            if request.path == "/console" {
                stream.sendHeaders([HTTP2Header(":status", "301"), HTTP2Header("location", "/console/")], endStream: true)
            } else {
                notFound(stream)
            }
            return handler
        }
        var relative = String(request.path.dropFirst("/console/".count))
        if relative.isEmpty || relative.hasSuffix("/") { relative += "index.html" }
        // The table holds only real files, so `..` cannot escape it; refusing it anyway keeps
        // the answer plain.
        let segments = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }), let file = files[relative] else {
            notFound(stream)
            return handler
        }
        var headers = [
            HTTP2Header(":status", "200"), HTTP2Header("content-type", file.contentType),
            HTTP2Header("etag", file.etag),
            // The file names carry no version: every use revalidates, which costs a 304.
            HTTP2Header("cache-control", "no-cache"),
            HTTP2Header("x-content-type-options", "nosniff"),
            HTTP2Header("referrer-policy", "no-referrer"),
            HTTP2Header(
                "content-security-policy",
                "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
        ]
        if let tags = request.header("if-none-match"), Self.matches(tags, file.etag) {
            headers[0] = HTTP2Header(":status", "304")
            stream.sendHeaders(headers.filter { $0.name != "content-type" }, endStream: true)
            return handler
        }
        headers.append(HTTP2Header("content-length", String(file.bytes.readableBytes)))
        if request.method == "HEAD" {
            // Headers, then the end without a body: a headers-only answer would be sent over
            // HTTP/1.1 with `content-length: 0` in place of the file's length.
            stream.sendHeaders(headers, endStream: false)
            stream.sendTrailers([])
            return handler
        }
        stream.sendHeaders(headers, endStream: false)
        stream.sendData(file.bytes, promise: nil)
        stream.sendTrailers([])
        return handler
    }

    private func notFound(_ stream: any HTTP2ResponseStream) {
        let body = ByteBuffer(string: "not found\n")
        stream.sendHeaders(
            [
                HTTP2Header(":status", "404"), HTTP2Header("content-type", "text/plain; charset=utf-8"),
                HTTP2Header("content-length", String(body.readableBytes)), HTTP2Header("cache-control", "no-store"),
            ], endStream: false)
        stream.sendData(body, promise: nil)
        stream.sendTrailers([])
    }

    /// `If-None-Match`: `*` or a list of entity tags, weak ones compared weakly (RFC 9110 13.1.2).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { tag in
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == etag || trimmed == "W/" + etag
        }
    }

    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last.map({ $0.lowercased() }) {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "txt", "md": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    /// 64-bit FNV-1a: a content fingerprint for the ETag (not a security boundary).
    static func fnv1a(_ data: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
