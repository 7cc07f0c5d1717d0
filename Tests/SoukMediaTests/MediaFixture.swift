import Foundation
import Logging
import NIOCore
import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Synchronization
@testable import SoukMedia

/// The shared harness with media mounted beside identity, and the calls of the Media service.
final class MediaFixture: Sendable {
    let harness: DomainHarness
    let media: Media

    var store: Store { harness.store }
    var identity: Identity { harness.identity }
    var clock: ManualClock { harness.clock }
    var directory: String { harness.directory.path }

    init(directory: String? = nil) throws {
        var made: Media?
        // The purge tests move the clock by days: tokens outlive them.
        harness = try DomainHarness(
            directory: try directory.map(TemporaryDirectory.init(at:)) ?? TemporaryDirectory(), domainTypes: [Media.self], accessTokenTTL: .seconds(7 * 24 * 3600), makeDomains: { identity in
            let media = try Media(store: identity.store, logger: DomainHarness.quietLogger)
            made = media
            return [media]
        })
        media = made!
    }

    /// Calls a unary `service/method` as the holder of `token` (nil: a guest).
    func call<Response: ProtoMessage>(
        _ service: String, _ method: String, _ request: some ProtoMessage, token: String? = nil, as: Response.Type = Response.self
    ) async throws -> Response {
        try await harness.call(service, method, request, token: token)
    }

    private func context(_ service: String, _ method: String, token: String?) throws -> ServerContext {
        try harness.context(service, method, token: token)
    }

    /// Streams `requests` to UploadMedia.
    func upload(_ requests: [SoukV1.UploadMediaRequest], token: String) async throws -> SoukV1.MediaObject {
        guard case .clientStreaming(let handler)? = harness.method("souk.v1.Media", "UploadMedia")?.handler else {
            throw RPCError(.unimplemented, "UploadMedia")
        }
        let (stream, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        for request in requests { continuation.yield(ByteBuffer(bytes: request.encoded())) }
        continuation.finish()
        let reply = try await handler(RPCReader(stream), try context("souk.v1.Media", "UploadMedia", token: token))
        return try SoukV1.MediaObject(decoding: Array(reply.readableBytesView))
    }

    /// Uploads `content` in chunks of `chunkSize` bytes.
    func upload(
        _ content: [UInt8], type: String, marketplace: SoukV1.Marketplace, token: String, purpose: SoukV1.MediaPurpose = .avatar,
        declaredSize: Int64? = nil, requestID: String = UUID().uuidString, chunkSize: Int = 1000
    ) async throws -> SoukV1.MediaObject {
        let metadata = SoukV1.UploadMediaMetadata(
            requestID: requestID, contentType: type, sizeBytes: declaredSize ?? Int64(content.count), fileName: "picture", purpose: purpose)
        var requests = [SoukV1.UploadMediaRequest(marketplaceID: marketplace.id, part: .metadata(metadata))]
        for start in stride(from: 0, to: content.count, by: chunkSize) {
            requests.append(.init(marketplaceID: marketplace.id, part: .chunk(Array(content[start..<min(start + chunkSize, content.count)]))))
        }
        return try await upload(requests, token: token)
    }

    /// DownloadMedia's responses.
    func download(_ mediaID: String, marketplace: SoukV1.Marketplace, token: String?) async throws -> [SoukV1.DownloadMediaResponse] {
        guard case .serverStreaming(let handler)? = harness.method("souk.v1.Media", "DownloadMedia")?.handler else {
            throw RPCError(.unimplemented, "DownloadMedia")
        }
        let received = Mutex<[SoukV1.DownloadMediaResponse]>([])
        let writer = RPCWriter<ByteBuffer> { bytes, _ in
            let response = try SoukV1.DownloadMediaResponse(decoding: Array(bytes.readableBytesView))
            received.withLock { $0.append(response) }
        }
        let request = SoukV1.DownloadMediaRequest(marketplaceID: marketplace.id, mediaID: mediaID)
        try await handler(ByteBuffer(bytes: request.encoded()), writer, try context("souk.v1.Media", "DownloadMedia", token: token))
        return received.withLock { $0 }
    }

    /// The bytes DownloadMedia returns.
    func downloadedContent(_ mediaID: String, marketplace: SoukV1.Marketplace, token: String?) async throws -> [UInt8] {
        try await download(mediaID, marketplace: marketplace, token: token).flatMap { response -> [UInt8] in
            if case .chunk(let bytes)? = response.part { return bytes }
            return []
        }
    }

    func getMedia(_ mediaID: String, marketplace: SoukV1.Marketplace, token: String?) async throws -> SoukV1.MediaObject {
        try await call("souk.v1.Media", "GetMedia", SoukV1.GetMediaRequest(marketplaceID: marketplace.id, mediaID: mediaID), token: token)
    }

    /// The status code a call ends with (nil: success) and its error.
    func failure(_ body: () async throws -> Void) async -> RPCError? {
        do {
            try await body()
            return nil
        } catch let error as RPCError {
            return error
        } catch {
            return RPCError(.unknown, "\(error)")
        }
    }

    // MARK: Accounts

    func operatorToken() async throws -> String {
        try await harness.operatorToken()
    }

    func marketplace(slug: String, settings: SoukV1.MarketplaceSettings? = nil) async throws -> SoukV1.Marketplace {
        try await call("souk.v1.Marketplaces", "CreateMarketplace", SoukV1.CreateMarketplaceRequest(
            requestID: "create-\(slug)",
            marketplace: .init(slug: slug, displayName: "Test \(slug)", vertical: .rentals, currencyCode: "VND", settings: settings)),
            token: try await operatorToken())
    }

    /// Signs up a customer; returns the account and its access token.
    func customer(_ marketplace: SoukV1.Marketplace, _ name: String) async throws -> (account: SoukV1.Account, token: String) {
        let response: SoukV1.SignUpResponse = try await call("souk.v1.Accounts", "SignUp", SoukV1.SignUpRequest(
            marketplaceID: marketplace.id, requestID: "signup-\(name)", email: "\(name)@example.com", password: "Abcdef1!",
            givenName: "Test"))
        return (response.account!, response.session!.accessToken)
    }

    /// Sets (or clears) the caller's avatar.
    func setAvatar(_ mediaID: String, marketplace: SoukV1.Marketplace, token: String) async throws -> SoukV1.Account {
        try await call("souk.v1.Accounts", "UpdateProfile", SoukV1.UpdateProfileRequest(
            marketplaceID: marketplace.id, account: .init(avatarMediaID: mediaID),
            updateMask: GoogleProtobuf.FieldMask(paths: ["avatar_media_id"])), token: token)
    }
}

/// Small files that start like the real thing.
enum Samples {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x42, count: 5000)
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<3000).map { UInt8($0 % 251) }
    static let pdf: [UInt8] = Array("%PDF-1.7\n".utf8) + Array(repeating: 0x20, count: 2000)
}
