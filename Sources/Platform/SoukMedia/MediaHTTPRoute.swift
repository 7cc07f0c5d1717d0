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
/// A request whose answer is in the `MediaCache` is answered at once on the event loop (the
/// signature of a private URL checked there). Otherwise the store read, the making of a size and
/// the file reads run in a task off the event loop: a file small enough for the cache is read
/// whole, kept, and answered like a hit; a larger one is sent in chunks, each hopping to the
/// stream's event loop, the next waiting until nghttp2 took the previous one (the client's
/// flow-control window paces a large file).
public struct MediaHTTPRoute: HTTPRoute {
    /// Bytes per DATA write.
    static let chunkBytes = 64 << 10

    let media: Media
    /// The answers kept in memory.
    public let cache: MediaCache

    /// The route of `media`'s URLs, keeping up to `cacheBytes` of answers in memory (0: none).
    public init(media: Media, cacheBytes: Int = MediaCache.defaultCapacityBytes) {
        self.media = media
        cache = MediaCache(capacityBytes: cacheBytes)
        if cache.isEnabled { cache.invalidate(on: media.store) }
    }

    public var pathPrefix: String { MediaURLs.pathPrefix }

    public func openStream(_ stream: any HTTP2ResponseStream, request: HTTPRequest, endStream: Bool) -> any HTTP2StreamHandler {
        if let answer = media.cachedAnswer(request, cache: cache) {
            Self.send(answer, to: stream)
            // A request without a body has nothing more to say: one shared handler, not one each.
            return endStream ? EndedRequestHandler.shared : DiscardingStreamHandler(stream: stream)
        }
        let now = Media.nowSeconds()
        let eventLoop = stream.eventLoop
        let bound = NIOLoopBound(stream, eventLoop: eventLoop)
        let media = self.media
        let cache = self.cache
        Task {
            let answer = await media.answer(request, now: now, cache: cache)
            await Self.send(answer, to: bound, on: eventLoop, logger: media.logger)
        }
        return DiscardingStreamHandler(stream: stream)
    }

    /// Sends an answer whose body is in memory (or none), on the stream's event loop.
    private static func send(_ answer: MediaHTTPAnswer, to stream: any HTTP2ResponseStream) {
        switch answer.body {
        case .none:
            stream.sendHeaders(answer.headers, endStream: true)
        case .bytes(let bytes):
            stream.sendHeaders(answer.headers, endStream: false)
            stream.sendData(bytes, promise: nil)
            stream.sendTrailers([])
        case .file:
            preconditionFailure("a file is sent from a task")
        }
    }

    private static func send(_ answer: MediaHTTPAnswer, to stream: NIOLoopBound<any HTTP2ResponseStream>, on eventLoop: any EventLoop, logger: Logger) async {
        let headers = answer.headers
        switch answer.body {
        case .none, .bytes:
            eventLoop.execute { send(answer, to: stream.value) }
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

/// A media URL's answer.
struct MediaHTTPAnswer: Sendable {
    enum Body: Sendable {
        case none
        /// These bytes (a cached body is shared, not copied).
        case bytes(ByteBuffer)
        /// These bytes of the file.
        case file(path: String, range: ClosedRange<Int64>)
    }

    /// The response's headers, `:status` first.
    var headers: [HTTP2Header]
    var body: Body

    /// Cache-Control of public media. One year: the content at a URL never changes (a new upload
    /// is a new media id).
    static let publicCacheControl = "public, max-age=\(Media.publicMaxAge), immutable"

    init(status: Int, headers: [HTTP2Header], body: Body) {
        self.headers = [HTTP2Header(":status", String(status))] + headers
        self.body = body
    }

    /// An answer whose headers start with `:status` already.
    init(responseHeaders: [HTTP2Header], body: Body) {
        headers = responseHeaders
        self.body = body
    }

    /// The status code.
    var status: Int { Int(headers[0].value) ?? 0 }

    /// A refusal with a short plain-text reason.
    static func text(_ status: Int, _ message: String, headers: [HTTP2Header] = []) -> MediaHTTPAnswer {
        let bytes = ByteBuffer(string: message + "\n")
        return MediaHTTPAnswer(
            status: status,
            headers: headers + [
                HTTP2Header("content-type", "text/plain; charset=utf-8"), HTTP2Header("content-length", String(bytes.readableBytes)),
                HTTP2Header("cache-control", "no-store"),
            ],
            body: .bytes(bytes))
    }

    /// The same answer without its body, for HEAD.
    var withoutBody: MediaHTTPAnswer {
        var answer = self
        answer.body = .none
        return answer
    }
}

/// What a media URL names: the record and the form (original or size).
struct MediaTarget {
    let marketplaceID: RecordID
    let mediaID: RecordID
    let size: MediaSize?

    /// The target of a request's path and `size`; nil when the path names no record, or the
    /// size is not one offered (the full answer says why).
    init?(_ request: HTTPRequest) {
        // From the bytes as received, with no String made: this runs for every request on the
        // event loop. A path with escapes (never one of ours: ids need none) is decoded first.
        let ids: (RecordID, RecordID)?
        let plain = request.withRawPath { raw -> (RecordID, RecordID)?? in
            guard let base = raw.baseAddress else { return .some(nil) }
            return memchr(base, Int32(UInt8(ascii: "%")), raw.count) != nil ? nil : .some(Self.ids(raw))
        }
        if let plain {
            ids = plain
        } else {
            var path = request.path
            ids = path.withUTF8(Self.ids)
        }
        guard let (marketplaceID, mediaID) = ids else { return nil }
        var size: MediaSize?
        if let sizeName = request.queryValue("size") {
            guard let offered = MediaSize(rawValue: sizeName) else { return nil }
            size = offered
        }
        self.marketplaceID = marketplaceID
        self.mediaID = mediaID
        self.size = size
    }

    /// The ids of `/media/<marketplace id>/<media id>`.
    private static func ids(_ path: UnsafeBufferPointer<UInt8>) -> (RecordID, RecordID)? {
        let prefix = MediaURLs.pathPrefixUTF8
        let prefixLength = prefix.utf8CodeUnitCount
        // The canonical form, two 36-character ids, is checked by position.
        guard path.count == prefixLength + 36 + 1 + 36, memcmp(path.baseAddress!, prefix.utf8Start, prefixLength) == 0,
              path[prefixLength + 36] == UInt8(ascii: "/"),
              let marketplaceID = RecordID(utf8: UnsafeBufferPointer(rebasing: path[prefixLength..<(prefixLength + 36)])),
              let mediaID = RecordID(utf8: UnsafeBufferPointer(rebasing: path[(prefixLength + 37)...]))
        else { return nil }
        return (marketplaceID, mediaID)
    }

    var cacheKey: MediaCache.Key { MediaCache.Key(media: mediaID, size: size) }
}

/// The handler of a request that ended with its header block and was answered at once: nothing
/// can come for it, so one instance serves them all.
final class EndedRequestHandler: HTTP2StreamHandler, Sendable {
    static let shared = EndedRequestHandler()

    func receiveData(_ data: ByteBuffer, endStream: Bool) {}
    func receiveTrailers(_ trailers: [HTTP2Header]) {}
    func streamClosed(_ reason: HTTP2StreamCloseReason) {}
}

extension Media {
    /// One year: the content at a URL never changes (a new upload is a new media id).
    static let publicMaxAge: Int64 = 365 * 24 * 3600

    /// The answer to a request whose form of the media `cache` holds, made on the calling
    /// thread without reading the store or a file; nil when the request needs them (a miss, a
    /// URL naming no cached record, a method or size the full answer refuses).
    func cachedAnswer(_ request: HTTPRequest, cache: MediaCache) -> MediaHTTPAnswer? {
        guard cache.isEnabled else { return nil }
        let isHead: Bool
        switch request.method {
        case "GET": isHead = false
        case "HEAD": isHead = true
        default: return nil
        }
        guard let target = MediaTarget(request), let entry = cache.entry(target.cacheKey), entry.marketplaceID == target.marketplaceID
        else { return nil }
        let answer = answer(request, from: entry, now: Self.nowSeconds)
        return isHead ? answer.withoutBody : answer
    }

    /// Seconds since 1970 on the store's clock.
    static func nowSeconds() -> Int64 { StoreTime.now().microsecondsSinceEpoch / 1_000_000 }

    /// The answer to a request for a media URL at `now` (seconds since 1970), reading the store
    /// and the files (not on an event loop); what it read is kept in `cache` when it fits.
    func answer(_ request: HTTPRequest, now: Int64, cache: MediaCache) async -> MediaHTTPAnswer {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .text(405, "media URLs answer GET and HEAD", headers: [HTTP2Header("allow", "GET, HEAD")])
        }
        do {
            let answer = try await answerReading(request, now: now, cache: cache)
            return request.method == "HEAD" ? answer.withoutBody : answer
        } catch {
            logger.error("media URL failed", metadata: ["path": "\(request.path)", "error": "\(error)"])
            return .text(500, "the media could not be read")
        }
    }

    private func answerReading(_ request: HTTPRequest, now: Int64, cache: MediaCache) async throws -> MediaHTTPAnswer {
        // Read before the record: a change committed after this is not cached from what is read.
        let generation = cache.generation
        let parts = request.path.dropFirst(MediaURLs.pathPrefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let marketplaceID = RecordID(parts[0]), let mediaID = RecordID(parts[1]),
              let record = try store.get(MediaTable.table, mediaID), record.value.marketplaceID == marketplaceID
        else { return .text(404, "no such media") }
        let signedPath = MediaURLs.path(marketplace: String(parts[0]), media: String(parts[1]))

        // Who may read it: anyone when it is public, else whoever holds an unexpired signed URL.
        var cacheControl = MediaHTTPAnswer.publicCacheControl
        if !record.value.isPublic {
            guard let expires = verifiedExpiry(request, signedPath: signedPath, now: now) else { return .forbidden }
            // Not kept by shared caches, nor by the client past the signature's expiry.
            cacheControl = "private, max-age=\(max(0, expires - now))"
        }

        let hex = record.value.sha256Hex
        var path = files.path(ofContent: hex)
        var contentType = record.value.contentType
        var tag = hex
        var size: MediaSize?
        if let sizeName = request.queryValue("size") {
            guard let offered = MediaSize(rawValue: sizeName) else {
                return .text(400, "size must be one of: \(MediaSize.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard MediaSize.offered(for: contentType) else { return .text(400, "\(contentType) media has no sizes: only images do") }
            let variant = try await variants.variant(of: offered, original: hex, at: path)
            path = variant.path
            contentType = variant.contentType
            tag = hex + "-" + offered.rawValue
            size = offered
        }

        var info = stat()
        guard stat(path, &info) == 0 else {
            logger.error("media content missing", metadata: ["media_id": "\(record.id)", "path": "\(path)"])
            return .text(500, "the content of this media is missing on the server")
        }
        let length = Int64(info.st_size)
        let etag = "\"\(tag)\""
        let lastModified = HTTPDate.format(secondsSinceEpoch: record.createdAt.microsecondsSinceEpoch / 1_000_000)
        if cache.isEnabled, length <= Int64(cache.maxEntryBytes), let body = Self.readWhole(path, length: length) {
            let entry = MediaCacheEntry(
                marketplaceID: marketplaceID, isPublic: record.value.isPublic, etag: etag, contentType: contentType,
                lastModified: lastModified, body: body)
            cache.add(MediaCache.Key(media: mediaID, size: size), entry, readAt: generation)
            return Self.answer(request, etag: etag, cacheControl: cacheControl, lastModified: lastModified, contentType: contentType,
                               content: .memory(body), shared: entry)
        }
        return Self.answer(request, etag: etag, cacheControl: cacheControl, lastModified: lastModified, contentType: contentType,
                           content: .file(path: path, length: length), shared: nil)
    }

    /// The answer from a cached form, after the same access check as the full answer: a private
    /// URL's signature and expiry are checked on every request.
    /// `now` (seconds since 1970) is read only for private media, which alone needs it.
    func answer(_ request: HTTPRequest, from entry: MediaCacheEntry, now: () -> Int64) -> MediaHTTPAnswer {
        var cacheControl = MediaHTTPAnswer.publicCacheControl
        if !entry.isPublic {
            let now = now()
            // The path the signature covers, `/media/<marketplace id>/<media id>` as the URL spells it.
            guard let expires = verifiedExpiry(request, signedPath: request.path, now: now) else { return .forbidden }
            cacheControl = "private, max-age=\(max(0, expires - now))"
        }
        return Self.answer(request, etag: entry.etag, cacheControl: cacheControl, lastModified: entry.lastModified,
                           contentType: entry.contentType, content: .memory(entry.body), shared: entry)
    }

    /// The expiry of the request's signed URL when its signature is valid and unexpired at `now`.
    private func verifiedExpiry(_ request: HTTPRequest, signedPath: String, now: Int64) -> Int64? {
        guard let expiresText = request.queryValue("expires"), let expires = Int64(expiresText), let signature = request.queryValue("signature"),
              urls.verify(path: signedPath, expires: expires, signature: signature, now: now)
        else { return nil }
        return expires
    }

    /// Where an answer's bytes are.
    enum Content {
        case memory(ByteBuffer)
        case file(path: String, length: Int64)

        var length: Int64 {
            switch self {
            case .memory(let bytes): Int64(bytes.readableBytes)
            case .file(_, let length): length
            }
        }

        /// These bytes as a body (a slice of a buffer in memory: no copy).
        func body(_ range: ClosedRange<Int64>) -> MediaHTTPAnswer.Body {
            switch self {
            case .memory(let bytes):
                if range.lowerBound == 0 && range.count == bytes.readableBytes { return .bytes(bytes) }
                return .bytes(bytes.getSlice(at: bytes.readerIndex + Int(range.lowerBound), length: range.count)!)
            case .file(let path, _):
                return .file(path: path, range: range)
            }
        }
    }

    /// The answer with content, as validators, `If-None-Match`, `Range` and `If-Range` ask.
    /// `shared`: the cached form, whose header arrays a public answer reuses.
    static func answer(
        _ request: HTTPRequest, etag: String, cacheControl: String, lastModified: String, contentType: String, content: Content,
        shared: MediaCacheEntry?
    ) -> MediaHTTPAnswer {
        let shared = shared.flatMap { $0.isPublic ? $0 : nil }
        let length = content.length
        // The three fields that matter, in one pass over the request's headers.
        var noneMatch: String?
        var ifRange: String?
        var rangeField: String?
        for header in request.headers {
            // By length first: comparing Strings of different contents costs a call each.
            let name = header.name
            switch name.utf8.count {
            case 13 where name == "if-none-match": if noneMatch == nil { noneMatch = header.value }
            case 8 where name == "if-range": if ifRange == nil { ifRange = header.value }
            case 5 where name == "range": if rangeField == nil { rangeField = header.value }
            default: break
            }
        }
        if let match = noneMatch, EntityTag.noneMatchMatches(match, tag: etag) {
            if let shared { return MediaHTTPAnswer(responseHeaders: shared.notModifiedHeaders, body: .none) }
            return MediaHTTPAnswer(
                status: 304, headers: MediaCacheEntry.validatorHeaders(etag: etag, cacheControl: cacheControl, lastModified: lastModified),
                body: .none)
        }
        // If-Range: the range only while the client's copy is this one.
        let rangeApplies = ifRange.map { $0 == etag } ?? true
        let rangeHeader = rangeApplies ? rangeField : nil
        switch ByteRangeRequest(header: rangeHeader, length: length) {
        case .whole:
            let body: MediaHTTPAnswer.Body = length == 0 ? .bytes(ByteBuffer()) : content.body(0...(length - 1))
            if let shared { return MediaHTTPAnswer(responseHeaders: shared.wholeHeaders, body: body) }
            var headers = MediaCacheEntry.validatorHeaders(etag: etag, cacheControl: cacheControl, lastModified: lastModified)
            headers.append(HTTP2Header("content-type", contentType))
            headers.append(HTTP2Header("content-length", String(length)))
            return MediaHTTPAnswer(status: 200, headers: headers, body: body)
        case .part(let range):
            var headers = MediaCacheEntry.validatorHeaders(etag: etag, cacheControl: cacheControl, lastModified: lastModified)
            headers.append(HTTP2Header("content-type", contentType))
            headers.append(HTTP2Header("content-range", "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"))
            headers.append(HTTP2Header("content-length", String(range.count)))
            return MediaHTTPAnswer(status: 206, headers: headers, body: content.body(range))
        case .unsatisfiable:
            return .text(416, "the range is outside the \(length) bytes", headers: [HTTP2Header("content-range", "bytes */\(length)")])
        }
    }

    /// The `length` bytes of the file at `path`; nil when it cannot be read whole (the answer
    /// then streams it, and reports what went wrong).
    static func readWhole(_ path: String, length: Int64) -> ByteBuffer? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let count = Int(length)
        var buffer = ByteBuffer()
        buffer.reserveCapacity(count)
        var done = 0
        while done < count {
            var read = 0
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count - done) {
                read = pread(descriptor, $0.baseAddress, count - done, off_t(done))
                return max(0, read)
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { return nil }
            done += read
        }
        return buffer
    }
}

extension MediaHTTPAnswer {
    /// A private URL without a valid, unexpired signature.
    static var forbidden: MediaHTTPAnswer { .text(403, "this media is private: its URL must carry a valid, unexpired signature") }
}
