import Foundation
import Testing
import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
@testable import SoukMedia

@Suite struct ContentTypeTests {
    @Test func leadingBytesDecideTheType() {
        #expect(MediaContentType.matches("image/png", header: Samples.png))
        #expect(MediaContentType.matches("image/jpeg", header: Samples.jpeg))
        #expect(MediaContentType.matches("application/pdf", header: Samples.pdf))
        #expect(MediaContentType.matches("image/webp", header: Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("WEBPVP8 ".utf8)))
        #expect(MediaContentType.matches("image/gif", header: Array("GIF89a".utf8) + [1, 0, 1, 0]))
        #expect(MediaContentType.matches("image/heic", header: [0, 0, 0, 0x18] + Array("ftypheic".utf8)))

        #expect(!MediaContentType.matches("image/jpeg", header: Samples.png))
        #expect(!MediaContentType.matches("image/png", header: Samples.pdf))
        #expect(!MediaContentType.matches("image/webp", header: Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("WAVE".utf8)))
        #expect(!MediaContentType.matches("image/png", header: Samples.png.prefix(4)), "a file shorter than the magic number")
        #expect(!MediaContentType.matches("text/plain", header: Array("hello world!".utf8)), "an unrecognised type never matches")
        for type in MediaContentType.recognised { #expect(!MediaContentType.matches(type, header: [])) }
    }

    @Test func limitsDefaultWhenUnset() {
        #expect(MediaLimits(nil) == MediaLimits(SoukV1.MediaSettings()))
        #expect(MediaLimits(nil).maxUploadBytes == 10 << 20)
        #expect(MediaLimits(nil).allowedContentTypes == ["image/jpeg", "image/png", "image/webp", "application/pdf"])
        let set = MediaLimits(SoukV1.MediaSettings(maxUploadBytes: 1234, allowedContentTypes: ["image/png"]))
        #expect(set.maxUploadBytes == 1234 && set.allowedContentTypes == ["image/png"])
    }
}

@Suite struct MediaUploadTests {
    @Test func uploadStoresTheContentOnceAndDownloadsIt() async throws {
        let fixture = try MediaFixture()
        let marketplace = try await fixture.marketplace(slug: "mara")
        let alice = try await fixture.customer(marketplace, "alice")

        let object = try await fixture.upload(Samples.png, type: "image/png", marketplace: marketplace, token: alice.token)
        #expect(object.sizeBytes == Int64(Samples.png.count))
        #expect(object.ownerAccountID == alice.account.id && object.marketplaceID == marketplace.id)
        #expect(object.sha256 == ContentAddress.hex(SHA256.hash(Samples.png)))
        #expect(!object.referenced && object.fileName == "picture")
        let path = fixture.media.files.path(ofContent: object.sha256)
        #expect(path == fixture.directory + "/db/media/" + object.sha256.prefix(2) + "/" + object.sha256.dropFirst(2))
        #expect(FileManager.default.contents(atPath: path) == Data(Samples.png))

        let responses = try await fixture.download(object.id, marketplace: marketplace, token: alice.token)
        guard case .media(let first)? = responses.first?.part else { throw RPCError(.internalError, "the first response carries no metadata") }
        #expect(first.withoutURL == object.withoutURL)
        #expect(responses.dropFirst().allSatisfy { if case .chunk(let bytes)? = $0.part { bytes.count <= MediaService.chunkBytes } else { false } })
        #expect(try await fixture.downloadedContent(object.id, marketplace: marketplace, token: alice.token) == Samples.png)
        #expect(try await fixture.getMedia(object.id, marketplace: marketplace, token: alice.token).withoutURL == object.withoutURL)

        // The same bytes again: a second record, the same file.
        let again = try await fixture.upload(Samples.png, type: "image/png", marketplace: marketplace, token: alice.token, chunkSize: 777)
        #expect(again.id != object.id && again.sha256 == object.sha256)
        let stored = try FileManager.default.subpathsOfDirectory(atPath: fixture.directory + "/db/media")
            .filter { !$0.hasPrefix(".") && $0.contains("/") }
        #expect(stored == [object.sha256.prefix(2) + "/" + object.sha256.dropFirst(2)])
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.directory + "/db/media/.incoming").isEmpty)
    }

    @Test func refusesWhatDoesNotMatchOrFit() async throws {
        let fixture = try MediaFixture()
        let marketplace = try await fixture.marketplace(
            slug: "small", settings: .init(media: .init(maxUploadBytes: 4000, allowedContentTypes: ["image/png", "image/jpeg", "application/pdf"])))
        let alice = try await fixture.customer(marketplace, "alice")
        func refusal(_ content: [UInt8], _ type: String, purpose: SoukV1.MediaPurpose = .attachment, declared: Int64? = nil) async -> RPCError? {
            await fixture.failure {
                _ = try await fixture.upload(content, type: type, marketplace: marketplace, token: alice.token, purpose: purpose, declaredSize: declared)
            }
        }

        let mismatch = await refusal(Samples.png.prefix(3000).map { $0 }, "image/jpeg")
        #expect(mismatch?.code == .invalidArgument && mismatch?.fieldViolations.first?.field == "metadata.content_type")
        let undeclared = await refusal(Samples.jpeg, "")
        #expect(undeclared?.code == .invalidArgument && undeclared?.fieldViolations.first?.field == "metadata.content_type")
        let notAllowed = await refusal(Samples.jpeg, "image/webp")
        #expect(notAllowed?.code == .invalidArgument && notAllowed?.fieldViolations.first?.field == "metadata.content_type")
        let tooBig = await refusal(Samples.png, "image/png")
        #expect(tooBig?.code == .resourceExhausted && tooBig?.soukReason == .tooLarge)
        #expect(tooBig?.message.contains("4000") == true)
        let moreThanDeclared = await refusal(Samples.jpeg, "image/jpeg", declared: 1000)
        #expect(moreThanDeclared?.code == .invalidArgument && moreThanDeclared?.fieldViolations.first?.field == "chunk")
        let fewerThanDeclared = await refusal(Samples.jpeg, "image/jpeg", declared: 3500)
        #expect(fewerThanDeclared?.code == .invalidArgument && fewerThanDeclared?.fieldViolations.first?.field == "metadata.size_bytes")
        let pdfAvatar = await refusal(Samples.pdf, "application/pdf", purpose: .avatar)
        #expect(pdfAvatar?.code == .invalidArgument && pdfAvatar?.fieldViolations.first?.field == "metadata.content_type")
        let noPurpose = await refusal(Samples.jpeg, "image/jpeg", purpose: .unspecified)
        #expect(noPurpose?.fieldViolations.first?.field == "metadata.purpose")
        let chunkFirst = await fixture.failure {
            _ = try await fixture.upload([.init(marketplaceID: marketplace.id, part: .chunk(Samples.jpeg))], token: alice.token)
        }
        #expect(chunkFirst?.code == .invalidArgument && chunkFirst?.fieldViolations.first?.field == "metadata")

        // Nothing refused left a record or a file behind.
        let records = try fixture.store.list(
            MediaTable.table, MediaTable.byOwner, .starting(with: [.id(RecordID(marketplace.id)!), .id(RecordID(alice.account.id)!)]))
        #expect(records.items.isEmpty)
        let files = try FileManager.default.subpathsOfDirectory(atPath: fixture.directory + "/db/media")
            .filter { !$0.hasPrefix(".") && $0.contains("/") }
        #expect(files.isEmpty)
    }

    @Test func retryWithTheSameRequestIDReturnsTheFirstUpload() async throws {
        let fixture = try MediaFixture()
        let marketplace = try await fixture.marketplace(slug: "mara")
        let alice = try await fixture.customer(marketplace, "alice")
        let first = try await fixture.upload(Samples.jpeg, type: "image/jpeg", marketplace: marketplace, token: alice.token, requestID: "photo-1")
        let retry = try await fixture.upload(
            Samples.jpeg, type: "image/jpeg", marketplace: marketplace, token: alice.token, requestID: "photo-1", chunkSize: 300)
        #expect(retry == first)
        let other = await fixture.failure {
            _ = try await fixture.upload(Samples.png, type: "image/png", marketplace: marketplace, token: alice.token, requestID: "photo-1")
        }
        #expect(other?.code == .invalidArgument && other?.soukReason == .requestIDReused)
    }

    @Test func readersFollowWhatRefersToTheMedia() async throws {
        let fixture = try MediaFixture()
        let marketplace = try await fixture.marketplace(slug: "mara")
        let elsewhere = try await fixture.marketplace(slug: "aqua")
        let alice = try await fixture.customer(marketplace, "alice")
        let bob = try await fixture.customer(marketplace, "bob")
        let carol = try await fixture.customer(elsewhere, "carol")
        let object = try await fixture.upload(Samples.jpeg, type: "image/jpeg", marketplace: marketplace, token: alice.token)

        // Unreferenced: the uploader only.
        #expect(await fixture.failure { _ = try await fixture.getMedia(object.id, marketplace: marketplace, token: nil) }?.code == .unauthenticated)
        #expect(await fixture.failure { _ = try await fixture.download(object.id, marketplace: marketplace, token: bob.token) }?.code == .permissionDenied)
        // Another marketplace: its token cannot act here, and its own marketplace does not have the media.
        #expect(await fixture.failure { _ = try await fixture.getMedia(object.id, marketplace: marketplace, token: carol.token) }?.code == .permissionDenied)
        #expect(await fixture.failure { _ = try await fixture.getMedia(object.id, marketplace: elsewhere, token: carol.token) }?.code == .notFound)
        // Bob cannot make Alice's upload his avatar.
        let stolen = await fixture.failure { _ = try await fixture.setAvatar(object.id, marketplace: marketplace, token: bob.token) }
        #expect(stolen?.code == .invalidArgument && stolen?.fieldViolations.first?.field == "account.avatar_media_id")

        // Alice's avatar is public in the marketplace, guests included.
        let account = try await fixture.setAvatar(object.id, marketplace: marketplace, token: alice.token)
        #expect(account.avatarMediaID == object.id)
        #expect(try await fixture.getMedia(object.id, marketplace: marketplace, token: nil).referenced)
        #expect(try await fixture.downloadedContent(object.id, marketplace: marketplace, token: bob.token) == Samples.jpeg)
        let profile: SoukV1.PersonSummary = try await fixture.call(
            "souk.v1.Accounts", "GetPublicProfile", SoukV1.GetPublicProfileRequest(marketplaceID: marketplace.id, accountID: alice.account.id))
        #expect(profile.avatarMediaID == object.id)
        #expect(await fixture.failure { _ = try await fixture.getMedia(object.id, marketplace: elsewhere, token: nil) }?.code == .notFound)

        // A new avatar lets go of the old one, which is private again.
        let newer = try await fixture.upload(Samples.png, type: "image/png", marketplace: marketplace, token: alice.token)
        _ = try await fixture.setAvatar(newer.id, marketplace: marketplace, token: alice.token)
        #expect(try await !fixture.getMedia(object.id, marketplace: marketplace, token: alice.token).referenced)
        #expect(await fixture.failure { _ = try await fixture.getMedia(object.id, marketplace: marketplace, token: nil) }?.code == .unauthenticated)

        // Not a media id of this marketplace, or not an image.
        let unknown = await fixture.failure { _ = try await fixture.setAvatar(UUID().uuidString.lowercased(), marketplace: marketplace, token: alice.token) }
        #expect(unknown?.fieldViolations.first?.field == "account.avatar_media_id")
        let notUUID = await fixture.failure { _ = try await fixture.setAvatar("https://example.com/a.png", marketplace: marketplace, token: alice.token) }
        #expect(notUUID?.fieldViolations.first?.field == "account.avatar_media_id")
        let pdf = try await fixture.upload(Samples.pdf, type: "application/pdf", marketplace: marketplace, token: alice.token, purpose: .attachment)
        let pdfAvatar = await fixture.failure { _ = try await fixture.setAvatar(pdf.id, marketplace: marketplace, token: alice.token) }
        #expect(pdfAvatar?.fieldViolations.first?.field == "account.avatar_media_id")
        #expect(try await fixture.setAvatar("", marketplace: marketplace, token: alice.token).avatarMediaID.isEmpty)
        #expect(try await !fixture.getMedia(newer.id, marketplace: marketplace, token: alice.token).referenced)
    }

    @Test func privateAttachmentsAreReadByTheirParties() async throws {
        let fixture = try MediaFixture()
        let marketplace = try await fixture.marketplace(slug: "mara")
        let alice = try await fixture.customer(marketplace, "alice")
        let bob = try await fixture.customer(marketplace, "bob")
        let eve = try await fixture.customer(marketplace, "eve")
        let object = try await fixture.upload(Samples.pdf, type: "application/pdf", marketplace: marketplace, token: alice.token, purpose: .attachment)
        let parties: Set<RecordID> = [RecordID(alice.account.id)!, RecordID(bob.account.id)!]
        _ = try await fixture.store.write { transaction in
            try MediaReferences.attach(
                object.id, field: "attachments[0].media_id", to: MediaReferrer(type: .message, id: "m1", field: "attachments"),
                visibility: .parties(parties), marketplaceID: RecordID(marketplace.id)!, uploader: RecordID(alice.account.id)!,
                imagesOnly: false, in: transaction)
        }
        #expect(try await fixture.downloadedContent(object.id, marketplace: marketplace, token: bob.token) == Samples.pdf)
        #expect(await fixture.failure { _ = try await fixture.getMedia(object.id, marketplace: marketplace, token: eve.token) }?.code == .permissionDenied)
        #expect(await fixture.failure { _ = try await fixture.getMedia(object.id, marketplace: marketplace, token: nil) }?.code == .unauthenticated)
    }
}

@Suite struct MediaPurgeTests {
    @Test func unreferencedUploadsGoAfterADayAndSharedFilesStay() async throws {
        let fixture = try MediaFixture()
        let marketplace = try await fixture.marketplace(slug: "mara")
        let alice = try await fixture.customer(marketplace, "alice")
        let lonely = try await fixture.upload(Samples.pdf, type: "application/pdf", marketplace: marketplace, token: alice.token, purpose: .attachment)
        let avatar = try await fixture.upload(Samples.jpeg, type: "image/jpeg", marketplace: marketplace, token: alice.token)
        let copy = try await fixture.upload(Samples.jpeg, type: "image/jpeg", marketplace: marketplace, token: alice.token)
        _ = try await fixture.setAvatar(avatar.id, marketplace: marketplace, token: alice.token)
        let files = fixture.media.files

        fixture.clock.advance(.seconds(23 * 3600))
        #expect(try await fixture.media.purgeUnreferenced() == 0)
        fixture.clock.advance(.seconds(2 * 3600))
        #expect(try await fixture.media.purgeUnreferenced(batchSize: 1) == 2)
        #expect(try fixture.store.get(MediaTable.table, RecordID(lonely.id)!) == nil)
        #expect(try fixture.store.get(MediaTable.table, RecordID(copy.id)!) == nil)
        #expect(!FileManager.default.fileExists(atPath: files.path(ofContent: lonely.sha256)), "no record has that content any more")
        #expect(FileManager.default.fileExists(atPath: files.path(ofContent: avatar.sha256)), "the avatar shares the copy's content")
        #expect(try await fixture.downloadedContent(avatar.id, marketplace: marketplace, token: nil) == Samples.jpeg)

        // Once let go of, a day after that.
        _ = try await fixture.setAvatar("", marketplace: marketplace, token: alice.token)
        fixture.clock.advance(.seconds(12 * 3600))
        #expect(try await fixture.media.purgeUnreferenced() == 0)
        fixture.clock.advance(.seconds(13 * 3600))
        #expect(try await fixture.media.purgeUnreferenced() == 1)
        #expect(!FileManager.default.fileExists(atPath: files.path(ofContent: avatar.sha256)))
        #expect(await fixture.failure { _ = try await fixture.getMedia(avatar.id, marketplace: marketplace, token: alice.token) }?.code == .notFound)
    }
}

@Suite struct MediaBackupTests {
    @Test func restoredStoreServesTheSameMedia() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("souk-media-backup-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fixture = try MediaFixture(directory: root + "/live")
        let marketplace = try await fixture.marketplace(slug: "mara")
        let alice = try await fixture.customer(marketplace, "alice")
        let photo = try await fixture.upload(Samples.jpeg, type: "image/jpeg", marketplace: marketplace, token: alice.token)
        _ = try await fixture.setAvatar(photo.id, marketplace: marketplace, token: alice.token)
        let backups = root + "/backups"
        _ = try await fixture.store.backup(to: backups)
        let pdf = try await fixture.upload(Samples.pdf, type: "application/pdf", marketplace: marketplace, token: alice.token, purpose: .attachment)
        _ = try await fixture.store.backup(to: backups)
        #expect(FileManager.default.fileExists(atPath: backups + "/files/media/" + pdf.sha256.prefix(2) + "/" + pdf.sha256.dropFirst(2)))
        await fixture.store.close()

        try StoreBackups.restore(from: backups, to: root + "/restored/db")
        let restored = try MediaFixture(directory: root + "/restored")
        #expect(try await restored.downloadedContent(photo.id, marketplace: marketplace, token: nil) == Samples.jpeg)
        let session: SoukV1.Session = try await restored.call(
            "souk.v1.Accounts", "Login", SoukV1.LoginRequest(marketplaceID: marketplace.id, email: "alice@example.com", password: "Abcdef1!"))
        #expect(try await restored.downloadedContent(pdf.id, marketplace: marketplace, token: session.accessToken) == Samples.pdf)
        await restored.store.close()
    }
}

extension SoukV1.MediaObject {
    /// The object but its URL, whose signature's expiry is made for each answer.
    var withoutURL: SoukV1.MediaObject {
        var copy = self
        copy.url = ""
        return copy
    }
}
