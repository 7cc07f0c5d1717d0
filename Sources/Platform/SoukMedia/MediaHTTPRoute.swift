import Logging
import NIOCore
import SoukGRPC
import SoukHTTP2
import SoukKit
import SoukStore
import SoukWeb
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves media at its URL (`GET|HEAD /media/<marketplace id>/<media id>[?size=…]`) on the gRPC
/// port, as HTTP caches and image loaders expect (see `MediaURLs` for the signatures).
///
/// The store read, the making of a size and the file reads run in a task off the event loop;
/// each chunk hops to the stream's event loop to be sent, and the next waits until nghttp2 took
/// the previous one (the client's flow-control window paces a large file).
public struct MediaHTTPRoute: HTTPRoute {
    /// Bytes per DATA write.
    static let chunkBytes = 64 << 10

    let media: Media

    public init(media: Media) {
        self.media = media
    }

    public var pathPrefix: String { MediaURLs.pathPrefix }

    public func openStream(_ stream: any HTTP2ResponseStream, request: HTTPRequest, endStream: Bool) -> any HTTP2StreamHandler {
        let eventLoop = stream.eventLoop
        let bound = NIOLoopBound(stream, eventLoop: eventLoop)
        let media = self.media
        Task {
            let answer = await media.answer(request, now: StoreTime.now().microsecondsSinceEpoch / 1_000_000)
            await Self.send(answer, to: bound, on: eventLoop, logger: media.logger)
        }
        return DiscardingStreamHandler(stream: stream)
    }

    private static func send(_ answer: MediaHTTPAnswer, to stream: NIOLoopBound<any HTTP2ResponseStream>, on eventLoop: any EventLoop, logger: Logger) async {
        let headers = [HTTP2Header(":status", String(answer.status))] + answer.headers
        switch answer.body {
        case .none:
            eventLoop.execute { stream.value.sendHeaders(headers, endStream: true) }
        case .bytes(let bytes):
            eventLoop.execute {
                stream.value.sendHeaders(headers, endStream: false)
                stream.value.sendData(ByteBuffer(bytes: bytes), promise: nil)
                stream.value.sendTrailers([])
            }
        case .file(let path, let range):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                // Deleted since it was looked up (purged): as if it had never been there.
                logger.warning("media file vanished", metadata: ["path": "\(path)"])
                await send(.text(404, "no such media"), to: stream, on: eventLoop, logger: logger)
                return
            }
            defer { close(descriptor) }
            var offset = range.lowerBound
            var first = true
            while true {
                let count = Int(min(Int64(chunkBytes), range.upperBound + 1 - offset))
                var buffer = ByteBuffer()
                buffer.reserveCapacity(count)
                let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
                guard read == count else {
                    // The file is shorter than its size said: end the stream rather than lie.
                    logger.error("media file shorter than expected", metadata: ["path": "\(path)"])
                    eventLoop.execute { stream.value.reset(errorCode: 2) }
                    return
                }
                offset += Int64(count)
                let last = offset > range.upperBound
                let sent = eventLoop.makePromise(of: Void.self)
                let isFirst = first
                let chunk = buffer
                eventLoop.execute {
                    if isFirst { stream.value.sendHeaders(headers, endStream: false) }
                    stream.value.sendData(chunk, promise: last ? nil : sent)
                    if last {
                        stream.value.sendTrailers([])
                        sent.succeed()
                    }
                }
                first = false
                if last { return }
                do { try await sent.futureResult.get() } catch { return }  // the stream closed
            }
        }
    }
}

/// A media URL's answer, made off the event loop.
struct MediaHTTPAnswer: Sendable {
    enum Body: Sendable {
        case none
        case bytes([UInt8])
        /// These bytes of the file.
        case file(path: String, range: ClosedRange<Int64>)
    }

    var status: Int
    var headers: [HTTP2Header]
    var body: Body

    /// A refusal with a short plain-text reason.
    static func text(_ status: Int, _ message: String, headers: [HTTP2Header] = []) -> MediaHTTPAnswer {
        let bytes = Array((message + "\n").utf8)
        return MediaHTTPAnswer(
            status: status,
            headers: headers + [
                HTTP2Header("content-type", "text/plain; charset=utf-8"), HTTP2Header("content-length", String(bytes.count)),
                HTTP2Header("cache-control", "no-store"),
            ],
            body: .bytes(bytes))
    }
}

extension Media {
    /// One year: the content at a URL never changes (a new upload is a new media id).
    static let publicMaxAge: Int64 = 365 * 24 * 3600

    /// The answer to a request for a media URL at `now` (seconds since 1970).
    func answer(_ request: HTTPRequest, now: Int64) async -> MediaHTTPAnswer {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .text(405, "media URLs answer GET and HEAD", headers: [HTTP2Header("allow", "GET, HEAD")])
        }
        do {
            var answer = try await answerReading(request, now: now)
            if request.method == "HEAD", case .bytes = answer.body { answer.body = .none }
            if request.method == "HEAD", case .file = answer.body { answer.body = .none }
            return answer
        } catch {
            logger.error("media URL failed", metadata: ["path": "\(request.path)", "error": "\(error)"])
            return .text(500, "the media could not be read")
        }
    }

    private func answerReading(_ request: HTTPRequest, now: Int64) async throws -> MediaHTTPAnswer {
        let parts = request.path.dropFirst(MediaURLs.pathPrefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let marketplaceID = RecordID(parts[0]), let mediaID = RecordID(parts[1]),
              let record = try store.get(MediaTable.table, mediaID), record.value.marketplaceID == marketplaceID
        else { return .text(404, "no such media") }

        // Who may read it: anyone when it is public, else whoever holds an unexpired signed URL.
        var cacheControl = "public, max-age=\(Self.publicMaxAge), immutable"
        if !record.value.isPublic {
            let path = MediaURLs.path(marketplace: String(parts[0]), media: String(parts[1]))
            guard let expiresText = request.query["expires"], let expires = Int64(expiresText), let signature = request.query["signature"],
                  urls.verify(path: path, expires: expires, signature: signature, now: now)
            else { return .text(403, "this media is private: its URL must carry a valid, unexpired signature") }
            // Not kept by shared caches, nor by the client past the signature's expiry.
            cacheControl = "private, max-age=\(max(0, expires - now))"
        }

        let hex = record.value.sha256Hex
        var path = files.path(ofContent: hex)
        var contentType = record.value.contentType
        var tag = hex
        if let sizeName = request.query["size"] {
            guard let size = MediaSize(rawValue: sizeName) else {
                return .text(400, "size must be one of: \(MediaSize.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard MediaSize.offered(for: contentType) else { return .text(400, "\(contentType) media has no sizes: only images do") }
            let variant = try await variants.variant(of: size, original: hex, at: path)
            path = variant.path
            contentType = variant.contentType
            tag = hex + "-" + size.rawValue
        }

        var info = stat()
        guard stat(path, &info) == 0 else {
            logger.error("media content missing", metadata: ["media_id": "\(record.id)", "path": "\(path)"])
            return .text(500, "the content of this media is missing on the server")
        }
        let length = Int64(info.st_size)
        let etag = "\"\(tag)\""
        var headers = [
            HTTP2Header("etag", etag), HTTP2Header("cache-control", cacheControl),
            HTTP2Header("last-modified", HTTPDate.format(secondsSinceEpoch: record.createdAt.microsecondsSinceEpoch / 1_000_000)),
            HTTP2Header("accept-ranges", "bytes"), HTTP2Header("x-content-type-options", "nosniff"),
        ]
        if let match = request.header("if-none-match"), EntityTag.noneMatchMatches(match, tag: etag) {
            return MediaHTTPAnswer(status: 304, headers: headers, body: .none)
        }
        headers.append(HTTP2Header("content-type", contentType))
        // If-Range: the range only while the client's copy is this one.
        let rangeApplies = request.header("if-range").map { $0 == etag } ?? true
        let rangeHeader = rangeApplies ? request.header("range") : nil
        switch ByteRangeRequest(header: rangeHeader, length: length) {
        case .whole:
            headers.append(HTTP2Header("content-length", String(length)))
            return MediaHTTPAnswer(status: 200, headers: headers, body: length == 0 ? .bytes([]) : .file(path: path, range: 0...(length - 1)))
        case .part(let range):
            headers.append(HTTP2Header("content-range", "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"))
            headers.append(HTTP2Header("content-length", String(range.count)))
            return MediaHTTPAnswer(status: 206, headers: headers, body: .file(path: path, range: range))
        case .unsatisfiable:
            return .text(416, "the range is outside the \(length) bytes", headers: [HTTP2Header("content-range", "bytes */\(length)")])
        }
    }
}
