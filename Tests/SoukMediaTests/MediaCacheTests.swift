import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing
import SoukHTTP2
import SoukKit
import SoukMessages
import SoukWeb
@testable import SoukMedia
@testable import SoukStore

@Suite struct MediaCacheBoundsTests {
    private func entry(_ bytes: Int) -> MediaCacheEntry {
        MediaCacheEntry(
            marketplaceID: RecordID(high: 1, low: 1), isPublic: true, etag: "\"x\"", contentType: "image/jpeg",
            lastModified: "Thu, 01 Jan 1970 00:00:00 GMT", body: ByteBuffer(repeating: 7, count: bytes))
    }

    private func key(_ n: UInt64, _ size: MediaSize? = nil) -> MediaCache.Key { MediaCache.Key(media: RecordID(high: 0, low: n), size: size) }

    @Test func theBytesAreBoundedAndRecentlyUsedEntriesStay() {
        let cache = MediaCache(capacityBytes: 8 * (1000 + MediaCache.entryOverhead))
        #expect(cache.maxEntryBytes == 1000 + MediaCache.entryOverhead)
        for n in 0..<8 { cache.add(key(UInt64(n)), entry(1000), readAt: cache.generation) }
        #expect(cache.usage.entries == 8 && cache.usage.bytes == cache.capacityBytes)
        // Used since the hand last passed: 0 and 1 are spared, 2 goes.
        _ = cache.entry(key(0))
        _ = cache.entry(key(1))
        cache.add(key(8), entry(1000), readAt: cache.generation)
        #expect(cache.usage.entries == 8 && cache.usage.bytes <= cache.capacityBytes)
        #expect(cache.entry(key(0)) != nil && cache.entry(key(1)) != nil && cache.entry(key(8)) != nil)
        #expect(cache.entry(key(2)) == nil)
        // Larger than an eighth of the capacity: not kept.
        cache.add(key(9), entry(cache.maxEntryBytes + 1), readAt: cache.generation)
        #expect(cache.entry(key(9)) == nil)
    }

    @Test func aChangeDropsEveryFormAndWhatWasReadBeforeIt() {
        let cache = MediaCache(capacityBytes: 1 << 20)
        let generation = cache.generation
        cache.add(key(1), entry(10), readAt: generation)
        cache.add(key(1, .thumb), entry(10), readAt: generation)
        cache.add(key(1, .screen), entry(10), readAt: generation)
        cache.add(key(2), entry(10), readAt: generation)
        cache.invalidate([RecordID(high: 0, low: 1)])
        #expect(cache.entry(key(1)) == nil && cache.entry(key(1, .thumb)) == nil && cache.entry(key(1, .screen)) == nil)
        #expect(cache.entry(key(2)) != nil, "another record's entry stays")
        // Read before the change: it may be the old record, so it is not kept.
        cache.add(key(1), entry(10), readAt: generation)
        #expect(cache.entry(key(1)) == nil)
        cache.add(key(1), entry(10), readAt: cache.generation)
        #expect(cache.entry(key(1)) != nil)
    }

    @Test func noCapacityKeepsNothing() {
        let cache = MediaCache(capacityBytes: 0)
        #expect(!cache.isEnabled)
        cache.add(key(1), entry(0), readAt: cache.generation)
        #expect(cache.entry(key(1)) == nil)
    }
}

/// What a request to the media route answered, and whether it did before `openStream` returned
/// (on the event loop, without a hop).
struct RouteAnswer: Sendable {
    var status = 0
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    var atOnce = false
}

/// A response stream on a real event loop that records the answer.
final class RecordingStream: HTTP2ResponseStream, @unchecked Sendable {
    let streamID: Int32 = 1
    let eventLoop: any EventLoop
    var remoteAddress: SocketAddress? { nil }
    private let done: EventLoopPromise<RouteAnswer>
    private(set) var answer = RouteAnswer()
    private(set) var finished = false

    init(eventLoop: any EventLoop, done: EventLoopPromise<RouteAnswer>) {
        self.eventLoop = eventLoop
        self.done = done
    }

    func sendHeaders(_ headers: [HTTP2Header], endStream: Bool) {
        eventLoop.preconditionInEventLoop()
        for header in headers {
            if header.name == ":status" { answer.status = Int(header.value) ?? 0 } else { answer.headers[header.name] = header.value }
        }
        if endStream { finish() }
    }

    func sendData(_ data: ByteBuffer, promise: EventLoopPromise<Void>?) {
        eventLoop.preconditionInEventLoop()
        answer.body += Array(data.readableBytesView)
        promise?.succeed()
    }

    func sendTrailers(_ trailers: [HTTP2Header]) { finish() }
    func reset(errorCode: UInt32) { done.fail(HTTP2StreamWriteError.streamClosed) }
    func consumed(_ byteCount: Int) {}

    private func finish() {
        finished = true
        done.succeed(answer)
    }
}

@Suite struct MediaRouteCacheTests {
    static let loop = MultiThreadedEventLoopGroup.singleton.next()

    /// One request through the route, opened on the event loop as the HTTP layers do.
    func request(
        _ route: MediaHTTPRoute, _ target: String, method: String = "GET", headers: [HTTP2Header] = []
    ) async throws -> RouteAnswer {
        let loop = Self.loop
        let done = loop.makePromise(of: RouteAnswer.self)
        let atOnce = try await loop.submit {
            let stream = RecordingStream(eventLoop: loop, done: done)
            _ = route.openStream(stream, request: HTTPRequest(method: method, target: target, headers: headers), endStream: true)
            return stream.finished
        }.get()
        var answer = try await done.futureResult.get()
        answer.atOnce = atOnce
        return answer
    }

    func path(_ marketplace: SoukV1.Marketplace, _ media: SoukV1.MediaObject) -> String { "/media/\(marketplace.id)/\(media.id)" }

    @Test func aCachedAnswerComesAtOnceWithoutTheStore() async throws {
        let fixture = try MediaFixture()
        let route = MediaHTTPRoute(media: fixture.media, cacheBytes: 1 << 20)
        let marketplace = try await fixture.marketplace(slug: "mara")
        let alice = try await fixture.customer(marketplace, "alice")
        let avatar = try await fixture.upload(Samples.jpeg, type: "image/jpeg", marketplace: marketplace, token: alice.token)
        _ = try await fixture.setAvatar(avatar.id, marketplace: marketplace, token: alice.token)
        let url = path(marketplace, avatar)

        let first = try await request(route, url)
        #expect(first.status == 200 && first.body == Samples.jpeg && !first.atOnce, "a miss reads the store off the event loop")
        let calls = fixture.store.calls.load(ordering: .sequentiallyConsistent)
        let hit = try await request(route, url)
        #expect(hit.atOnce && hit.status == 200 && hit.body == Samples.jpeg)
        #expect(hit.headers == first.headers, "the same headers as the full answer")
        let head = try await request(route, url, method: "HEAD")
        #expect(head.atOnce && head.status == 200 && head.body.isEmpty && head.headers["content-length"] == String(Samples.jpeg.count))
        let notModified = try await request(route, url, headers: [HTTP2Header("if-none-match", first.headers["etag"]!)])
        #expect(notModified.atOnce && notModified.status == 304 && notModified.body.isEmpty)
        let range = try await request(route, url, headers: [HTTP2Header("range", "bytes=100-199")])
        #expect(range.atOnce && range.status == 206 && range.body == Array(Samples.jpeg[100...199]))
        #expect(range.headers["content-range"] == "bytes 100-199/\(Samples.jpeg.count)")
        #expect(fixture.store.calls.load(ordering: .sequentiallyConsistent) == calls, "no store call for a cached answer")

        let other = try await fixture.marketplace(slug: "dineswift")
        #expect(try await request(route, "/media/\(other.id)/\(avatar.id)").status == 404, "another marketplace's URL")
        #expect(try await request(route, url + "?size=huge").status == 400)
        #expect(try await request(route, url, method: "DELETE").status == 405)
    }

    @Test func aSignedURLIsCheckedOnEveryCachedAnswer() async throws {
        let fixture = try MediaFixture()
        let route = MediaHTTPRoute(media: fixture.media, cacheBytes: 1 << 20)
        let marketplace = try await fixture.marketplace(slug: "mara")
        let alice = try await fixture.customer(marketplace, "alice")
        let upload = try await fixture.upload(Samples.pdf, type: "application/pdf", marketplace: marketplace, token: alice.token, purpose: .attachment)
        let url = path(marketplace, upload)
        let now = StoreTime.now().microsecondsSinceEpoch / 1_000_000
        func signed(_ expires: Int64) -> String {
            url + "?expires=\(expires)&signature=\(fixture.media.urls.signature(path: url, expires: expires))"
        }

        #expect(try await request(route, signed(now + 600)).status == 200)
        let hit = try await request(route, signed(now + 600))
        #expect(hit.atOnce && hit.status == 200 && hit.body == Samples.pdf)
        #expect(hit.headers["cache-control"].map { $0.hasPrefix("private, max-age=") } == true)
        for refused in [signed(now - 1), url, url + "?expires=\(now + 6000)&signature=\(fixture.media.urls.signature(path: url, expires: now + 600))"] {
            let answer = try await request(route, refused)
            #expect(answer.atOnce && answer.status == 403, "\(refused)")
        }
    }

    @Test func purgedMediaIsNotServedFromMemory() async throws {
        let fixture = try MediaFixture()
        let route = MediaHTTPRoute(media: fixture.media, cacheBytes: 1 << 20)
        let marketplace = try await fixture.marketplace(slug: "mara")
        let alice = try await fixture.customer(marketplace, "alice")
        let upload = try await fixture.upload(Samples.pdf, type: "application/pdf", marketplace: marketplace, token: alice.token, purpose: .attachment)
        let url = path(marketplace, upload)
        let expires = StoreTime.now().microsecondsSinceEpoch / 1_000_000 + 600
        let signed = url + "?expires=\(expires)&signature=\(fixture.media.urls.signature(path: url, expires: expires))"
        #expect(try await request(route, signed).status == 200)
        #expect(try await request(route, signed).atOnce)

        fixture.clock.advance(.seconds(25 * 3600))
        #expect(try await fixture.media.purgeUnreferenced() == 1)
        let after = try await request(route, signed)
        #expect(after.status == 404 && !after.atOnce, "deleted: the store is asked, and has no such media")
        #expect(route.cache.usage.entries == 0)
    }

    @Test func withoutACacheEveryAnswerReadsTheStore() async throws {
        let fixture = try MediaFixture()
        let route = MediaHTTPRoute(media: fixture.media, cacheBytes: 0)
        let marketplace = try await fixture.marketplace(slug: "mara")
        let alice = try await fixture.customer(marketplace, "alice")
        let avatar = try await fixture.upload(Samples.jpeg, type: "image/jpeg", marketplace: marketplace, token: alice.token)
        _ = try await fixture.setAvatar(avatar.id, marketplace: marketplace, token: alice.token)
        for _ in 0..<2 {
            let answer = try await request(route, path(marketplace, avatar), headers: [HTTP2Header("range", "bytes=-10")])
            #expect(answer.status == 206 && answer.body == Array(Samples.jpeg.suffix(10)) && !answer.atOnce)
        }
    }
}
