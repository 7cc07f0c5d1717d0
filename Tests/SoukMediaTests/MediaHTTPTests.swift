import Foundation
import Testing
import SoukStore
@testable import SoukMedia

@Suite struct ByteRangeTests {
    @Test func singleRangesAreRead() {
        #expect(ByteRangeRequest(header: "bytes=0-99", length: 1000) == .part(0...99))
        #expect(ByteRangeRequest(header: "bytes=900-", length: 1000) == .part(900...999))
        #expect(ByteRangeRequest(header: "bytes=-10", length: 1000) == .part(990...999))
        #expect(ByteRangeRequest(header: "bytes=-5000", length: 1000) == .part(0...999), "a suffix longer than the body is all of it")
        #expect(ByteRangeRequest(header: "bytes=500-5000", length: 1000) == .part(500...999), "the end is cut to the body")
        #expect(ByteRangeRequest(header: "bytes= 1 - 2", length: 1000) == .part(1...2))
    }

    @Test func rangesOutsideTheBodyAreUnsatisfiable() {
        #expect(ByteRangeRequest(header: "bytes=1000-", length: 1000) == .unsatisfiable)
        #expect(ByteRangeRequest(header: "bytes=1000-2000", length: 1000) == .unsatisfiable)
        #expect(ByteRangeRequest(header: "bytes=-0", length: 1000) == .unsatisfiable)
        #expect(ByteRangeRequest(header: "bytes=0-", length: 0) == .unsatisfiable)
    }

    @Test func otherRangesGetTheWholeBody() {
        #expect(ByteRangeRequest(header: nil, length: 1000) == .whole)
        #expect(ByteRangeRequest(header: "items=0-1", length: 1000) == .whole)
        #expect(ByteRangeRequest(header: "bytes=0-1,5-6", length: 1000) == .whole, "several ranges: the whole body")
        #expect(ByteRangeRequest(header: "bytes=5-1", length: 1000) == .whole, "last before first: invalid, ignored")
        #expect(ByteRangeRequest(header: "bytes=a-b", length: 1000) == .whole)
        #expect(ByteRangeRequest(header: "bytes=-", length: 1000) == .whole)
    }
}

@Suite struct EntityTagTests {
    @Test func ifNoneMatchComparesWeakly() {
        let tag = "\"abc-thumb\""
        #expect(EntityTag.noneMatchMatches("\"abc-thumb\"", tag: tag))
        #expect(EntityTag.noneMatchMatches("W/\"abc-thumb\"", tag: tag))
        #expect(EntityTag.noneMatchMatches("\"x\", \"abc-thumb\"", tag: tag))
        #expect(EntityTag.noneMatchMatches("*", tag: tag))
        #expect(!EntityTag.noneMatchMatches("\"abc\"", tag: tag), "the original's tag is not the size's")
        #expect(!EntityTag.noneMatchMatches("abc-thumb", tag: tag), "unquoted is not the tag")
        #expect(!EntityTag.noneMatchMatches("", tag: tag))
    }

    @Test func httpDatesAreIMFFixdates() {
        #expect(HTTPDate.format(secondsSinceEpoch: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(secondsSinceEpoch: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }
}

@Suite struct MediaURLSignatureTests {
    let urls = MediaURLs(key: Array(repeating: 7, count: 32), settings: MediaURLSettings(publicURL: "https://souk.example/", signedLifetime: .seconds(60)))
    let path = "/media/m/x"

    @Test func aSignatureHoldsUntilItsExpiry() {
        let signature = urls.signature(path: path, expires: 1_000)
        #expect(signature.count == 64)
        #expect(urls.verify(path: path, expires: 1_000, signature: signature, now: 999))
        #expect(urls.verify(path: path, expires: 1_000, signature: signature, now: 1_000))
        #expect(!urls.verify(path: path, expires: 1_000, signature: signature, now: 1_001), "expired")
    }

    @Test func aSignatureCoversThePathAndTheExpiry() {
        let signature = urls.signature(path: path, expires: 1_000)
        #expect(!urls.verify(path: "/media/m/y", expires: 1_000, signature: signature, now: 0))
        #expect(!urls.verify(path: path, expires: 2_000, signature: signature, now: 0))
        #expect(!urls.verify(path: path, expires: 1_000, signature: String(signature.dropLast()) + "0", now: 0) || signature.hasSuffix("0"))
        #expect(!urls.verify(path: path, expires: 1_000, signature: "", now: 0))
        let other = MediaURLs(key: Array(repeating: 8, count: 32), settings: MediaURLSettings())
        #expect(!other.verify(path: path, expires: 1_000, signature: signature, now: 0), "another server key")
    }

    @Test func theKeyIsMadeOnceWithMode0600() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("souk-media-key-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try MediaURLs.loadKey(at: directory + "/.url-key")
        let second = try MediaURLs.loadKey(at: directory + "/.url-key")
        #expect(first.count == 32 && first == second)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/.url-key")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}

@Suite struct VipsTests {
    @Test func aFileThatIsNoImageFailsWithLibvipsMessage() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("souk-vips-\(UUID()).txt").path
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try Vips.thumbnail(path: path, longSide: 256)
            Issue.record("a text file has no thumbnail")
        } catch let error as VipsError {
            #expect(error.description.hasPrefix("libvips thumbnail of \(path): "))
            #expect(error.description.count > "libvips thumbnail of \(path): failed".count - 7, "libvips says why")
        }
        // The error buffer was cleared: the next failure carries only its own message.
        #expect(throws: VipsError.self) { try Vips.thumbnail(path: path + ".missing", longSide: 256) }
    }
}
