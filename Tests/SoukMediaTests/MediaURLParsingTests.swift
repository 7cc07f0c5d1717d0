import Foundation
import Testing
import SoukWeb
@testable import SoukMedia
@testable import SoukStore

/// The request target read in place, as cached media answers read it, gives what the decoded
/// path and the query dictionary give.
@Suite struct MediaURLParsingTests {
    private func request(_ target: String) -> HTTPRequest { HTTPRequest(method: "GET", target: target, headers: []) }

    @Test func queryValuesAreTheDictionarysValues() {
        let targets = [
            "/media/a/b", "/media/a/b?", "/media/a/b?size=thumb", "/media/a/b?size=thumb&size=screen", "/media/a/b?expires=12&signature=ab&size=",
            "/media/a/b?size", "/media/a/b?&&size=screen&", "/media/a/b?si%7Ae=thu%6Db", "/media/a/b?s+ize=x&size=a+b%20c", "/media/a/b?=x&size==y",
            "/x?signature=%ZZ&expires=1%2",
        ]
        for target in targets {
            let request = request(target)
            let query = request.query
            for name in ["size", "expires", "signature", "s ize", "", "missing"] {
                #expect(request.queryValue(name) == query[name], "\(target) \(name)")
            }
        }
        #expect(request("/media/a/b?si%7Ae=thu%6Db").queryValue("size") == "thumb")
        #expect(request("/media/a/b?size=thumb&size=screen").queryValue("size") == "thumb", "the first of a repeated name")
        #expect(request("/media/a/b?size").queryValue("size") == "")
    }

    @Test func thePathIsDecodedAndSharedWhenPlain() {
        #expect(request("/media/a/b").path == "/media/a/b")
        #expect(request("/media/a/b?size=thumb").path == "/media/a/b")
        #expect(request("/media/a%2Db/c+d?x").path == "/media/a-b/c+d", "a path's + is not a space")
        request("/media/a/b?size=thumb").withRawPath { #expect(String(decoding: $0, as: UTF8.self) == "/media/a/b") }
        request("/media/a%2Db").withRawPath { #expect(String(decoding: $0, as: UTF8.self) == "/media/a%2Db", "as received") }
    }

    @Test func thePathPrefixBytesAreThePathPrefix() {
        #expect(String(MediaURLs.pathPrefixUTF8.description) == MediaURLs.pathPrefix)
    }

    @Test func aTargetNamesItsRecordAndSize() {
        let marketplace = RecordID.generate(), media = RecordID.generate()
        let path = "/media/\(marketplace)/\(media)"
        let target = MediaTarget(request(path + "?size=thumb"))
        #expect(target?.marketplaceID == marketplace && target?.mediaID == media && target?.size == .thumb)
        #expect(MediaTarget(request(path))?.size == nil)
        #expect(MediaTarget(request(path.replacingOccurrences(of: "-", with: "%2D")))?.mediaID == media, "escapes are decoded")
        #expect(MediaTarget(request(path + "?size=huge")) == nil)
        #expect(MediaTarget(request(path + "/")) == nil)
        #expect(MediaTarget(request("/media/\(marketplace)")) == nil)
        #expect(MediaTarget(request("/mediA/\(marketplace)/\(media)")) == nil)
    }
}
