import Foundation
import Logging
import NIOCore
import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore
import Synchronization
@testable import SoukMedia

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let now = Mutex(StoreTime(microsecondsSinceEpoch: 1_800_000_000_000_000))
    func read() -> StoreTime { now.withLock { $0 } }
    func advance(_ duration: Duration) { now.withLock { $0 = $0.adding(duration) } }
}

/// A store in a temporary directory with identity and media over it, and calls that go through
/// the authentication and authorization interceptors as on the server.
final class MediaFixture: Sendable {
    let directory: String
    let store: Store
    let identity: Identity
    let media: Media
    let rules: AccessRules
    let clock = TestClock()
    let methods: [String: RPCMethod]

    static let operatorEmail = "ops@souk.example"
    static let operatorPassword = "Operator-Pass-1"
    static let schema = Schema(Identity.tables + Media.tables, fileFolders: Media.fileFolders)

    static var quietLogger: Logger {
        var logger = Logger(label: "test.media")
        logger.logLevel = .critical
        return logger
    }

    init(directory: String? = nil) throws {
        self.directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("souk-media-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: self.directory, withIntermediateDirectories: true)
        var configuration = StoreConfiguration(path: self.directory + "/db")
        configuration.syncPolicy = .none
        configuration.writerThreads = 4
        configuration.blockCacheBytes = 8 << 20
        configuration.writeBufferBytes = 4 << 20
        let clock = self.clock
        configuration.clock = { clock.read() }
        configuration.logger = Self.quietLogger
        store = try Store(configuration, schema: Self.schema)
        var identityConfiguration = IdentityConfiguration()
        identityConfiguration.passwordHashMemoryKiB = 64
        identityConfiguration.accessTokenTTL = .seconds(7 * 24 * 3600)  // the purge tests move the clock by days
        identityConfiguration.logger = Self.quietLogger
        identity = try Identity(store: store, configuration: identityConfiguration)
        media = try Media(store: store, logger: Self.quietLogger)
        rules = try AccessRules.contract()
        let kit = ServiceKit(rules: rules, marketplaces: identity.marketplaces, logger: Self.quietLogger)
        var methods: [String: RPCMethod] = [:]
        for service in identity.services(rules: rules) + media.services(kit) {
            for method in service.methods { methods["\(service.serviceName)/\(method.name)"] = method }
        }
        self.methods = methods
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func context(_ service: String, _ method: String, token: String?) throws -> ServerContext {
        var metadata = Metadata()
        if let token { metadata.add("authorization", "Bearer \(token)") }
        let context = ServerContext(
            method: MethodDescriptor(service: service, method: method), requestMetadata: metadata, peer: "test", deadline: nil)
        try AuthenticationInterceptor(authenticator: identity.sessions, rules: rules).callStarted(context)
        try AuthorizationInterceptor(rules: rules).callStarted(context)
        return context
    }

    /// Calls a unary `service/method` as the holder of `token` (nil: a guest).
    func call<Response: ProtoMessage>(
        _ service: String, _ method: String, _ request: some ProtoMessage, token: String? = nil, as: Response.Type = Response.self
    ) async throws -> Response {
        guard case .unary(let handler)? = methods["\(service)/\(method)"]?.handler else { throw RPCError(.unimplemented, method) }
        let reply = try await handler(ByteBuffer(bytes: request.encoded()), try context(service, method, token: token))
        return try Response(decoding: Array(reply.readableBytesView))
    }

    /// Streams `requests` to UploadMedia.
    func upload(_ requests: [SoukV1.UploadMediaRequest], token: String) async throws -> SoukV1.MediaObject {
        guard case .clientStreaming(let handler)? = methods["souk.v1.Media/UploadMedia"]?.handler else {
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
        guard case .serverStreaming(let handler)? = methods["souk.v1.Media/DownloadMedia"]?.handler else {
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
        _ = try await identity.bootstrapOperator(email: Self.operatorEmail, password: Self.operatorPassword)
        let session: SoukV1.Session = try await call(
            "souk.v1.Accounts", "Login", SoukV1.LoginRequest(email: Self.operatorEmail, password: Self.operatorPassword))
        return session.accessToken
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
