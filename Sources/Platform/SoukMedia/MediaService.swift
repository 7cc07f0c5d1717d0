import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Media`: uploading, describing and downloading media.
struct MediaService {
    /// Bytes per DownloadMedia chunk.
    static let chunkBytes = 64 << 10

    let media: Media

    var declaration: SoukV1Services.Media {
        SoukV1Services.Media(
            uploadMedia: .handler { requests, call in try await upload(requests, call) },
            getMedia: .handler { request, call in media.apiMedia(try readable(request.mediaID, call)) },
            downloadMedia: .handler { request, writer, call in try await download(request, writer, call) })
    }

    // MARK: Upload

    private func upload(_ requests: RPCReader<SoukV1.UploadMediaRequest>, _ call: SoukCall) async throws -> SoukV1.MediaObject {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var iterator = requests.makeAsyncIterator()
        guard case .metadata(let metadata)? = try await iterator.next()?.part else {
            throw RPCError.invalidField("metadata", "must be the first request of the stream, before any chunk")
        }
        let requestID = try UploadRules.check(metadata, limits: MediaLimits(marketplace.settings?.media))

        let incoming = try media.files.receive()
        defer { incoming.discard() }  // nothing left once placed
        var header = [UInt8]()
        while let request = try await iterator.next() {
            guard case .chunk(let bytes)? = request.part else {
                throw RPCError.invalidField("metadata", "is sent once, in the first request; later requests carry chunks")
            }
            guard incoming.size + Int64(bytes.count) <= metadata.sizeBytes else {
                throw RPCError.invalidField("chunk", "the chunks carry more than the \(metadata.sizeBytes) bytes metadata.size_bytes declared")
            }
            if header.count < MediaContentType.headerLength {
                header += bytes.prefix(MediaContentType.headerLength - header.count)
                // Refuse a wrong file as soon as its leading bytes are in, not after the whole upload.
                if header.count == MediaContentType.headerLength { try UploadRules.checkContent(header, metadata) }
            }
            try incoming.write(bytes)
        }
        guard incoming.size == metadata.sizeBytes else {
            throw RPCError.invalidField(
                "metadata.size_bytes", "declared \(metadata.sizeBytes) bytes but the chunks carried \(incoming.size)")
        }
        try UploadRules.checkContent(header, metadata)
        let digest = try incoming.finish()

        let record = MediaRecord(
            marketplaceID: marketplaceID, ownerAccountID: caller.accountID, contentType: metadata.contentType,
            sizeBytes: metadata.sizeBytes, sha256: digest, fileName: metadata.fileName, purpose: metadata.purpose, unreferencedSince: nil)
        // The same key with other metadata or other bytes is a different request.
        let fingerprint = RequestFingerprint(metadata.encoded() + digest)
        let key = IdempotencyKey(marketplace: marketplaceID.description, account: caller.accountID.description, key: requestID)
        let store = media.store
        let files = media.files
        let hex = ContentAddress.hex(digest)
        let result = try await files.withContent(hex) {
            try files.place(incoming, hex: hex)
            do {
                return try await store.write(idempotencyKey: key, fingerprint: fingerprint, responseCodec: MessageCodec<SoukV1.MediaObject>()) {
                    transaction in
                    var record = record
                    record.unreferencedSince = transaction.now
                    return try transaction.insert(MediaTable.table, record).apiMedia
                }
            } catch {
                // Leave no file that no record names; the call answers with the write's error
                // whatever this clean-up meets.
                let others = try? store.list(MediaTable.table, MediaTable.byContent, .starting(with: [.bytes(digest)]), page: PageRequest(size: 1))
                if others?.items.isEmpty == true { try? files.remove(hex: hex) }
                throw error
            }
        }
        // The URL is not part of the stored answer: a signed one is made for each answer.
        // A retry gets the first upload's record as it is now (unless it was purged since).
        guard let current = try RecordID(result.value.id).flatMap({ try store.get(MediaTable.table, $0) }) else { return result.value }
        return media.apiMedia(current)
    }

    // MARK: Reading

    /// The media record `text` names, if the caller may read it: NOT_FOUND for unknown media and
    /// another marketplace's, UNAUTHENTICATED for guests and PERMISSION_DENIED for others when
    /// it is not readable by them.
    private func readable(_ text: String, _ call: SoukCall) throws -> StoredRecord<MediaRecord> {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(text, field: "media_id")
        guard let record = try media.store.get(MediaTable.table, id), record.value.marketplaceID == marketplaceID else {
            throw RPCError.notFound("media", text)
        }
        guard record.value.isReadable(by: call.caller) else {
            if call.caller == nil {
                // A token that was sent but refused says why; no token at all means: sign in.
                throw call.context[AuthenticationFailureKey.self]
                    ?? RPCError.souk(.unauthenticated, .signInRequired, "media \(text) is not public: sign in as an account that may read it")
            }
            throw RPCError.souk(.permissionDenied, .notAllowed, "media \(text) is readable only by its uploader and the parties of what refers to it")
        }
        return record
    }

    private func download(
        _ request: SoukV1.DownloadMediaRequest, _ writer: RPCWriter<SoukV1.DownloadMediaResponse>, _ call: SoukCall
    ) async throws {
        let record = try readable(request.mediaID, call)
        let reader: ContentReader
        do {
            reader = try media.files.reader(hex: record.value.sha256Hex)
        } catch {
            media.logger.error("media content missing", metadata: ["media_id": "\(record.id)", "error": "\(error)"])
            throw RPCError(.dataLoss, "the content of media \(record.id) is missing on the server")
        }
        try await writer.write(SoukV1.DownloadMediaResponse(part: .media(media.apiMedia(record))))
        while let chunk = try reader.next(limit: Self.chunkBytes) {
            try await writer.write(SoukV1.DownloadMediaResponse(part: .chunk(chunk)))
        }
    }
}

/// The rules an upload's metadata and content must satisfy.
enum UploadRules {
    /// Purposes whose media must be an image.
    static let picturePurposes: Set<SoukV1.MediaPurpose> = [.avatar, .catalogPicture, .listingPhoto, .advertisement]

    /// Checks the metadata against the marketplace's limits; returns the request id.
    static func check(_ metadata: SoukV1.UploadMediaMetadata, limits: MediaLimits) throws -> String {
        var checks = FieldChecks()
        let requestID = try checks.run { try RequestFields.requestID(metadata.requestID, field: "metadata.request_id") }
        switch metadata.purpose {
        case .unspecified, .unrecognized: checks.add("metadata.purpose", "must say what the upload is for")
        default: break
        }
        let type = metadata.contentType
        if type.isEmpty {
            checks.add("metadata.content_type", "is required (a MIME type such as image/jpeg)")
        } else if !limits.allowedContentTypes.contains(type) {
            checks.add("metadata.content_type", "\(type) is not allowed here; allowed: \(limits.allowedContentTypes.joined(separator: ", "))")
        } else if picturePurposes.contains(metadata.purpose), !type.hasPrefix("image/") {
            checks.add("metadata.content_type", "must be an image for \(metadata.purpose.protoName)")
        }
        checks.require(metadata.sizeBytes > 0, "metadata.size_bytes", "must be the upload's size in bytes, above 0")
        let name = metadata.fileName
        checks.require(
            name.utf8.count <= 255 && !name.contains("/") && !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
            "metadata.file_name", "must be at most 255 bytes, without \"/\" or control characters")
        try checks.finish()
        // Not a wrong field but a limit (RESOURCE_EXHAUSTED), once the fields are right.
        guard metadata.sizeBytes <= limits.maxUploadBytes else {
            throw RPCError.souk(
                .resourceExhausted, .tooLarge,
                "\(metadata.sizeBytes) bytes is more than this marketplace's upload limit of \(limits.maxUploadBytes) bytes",
                field: "metadata.size_bytes")
        }
        return requestID ?? ""
    }

    /// Checks that the content's leading bytes are those of the declared type.
    static func checkContent(_ header: [UInt8], _ metadata: SoukV1.UploadMediaMetadata) throws {
        guard MediaContentType.matches(metadata.contentType, header: header) else {
            throw RPCError.invalidField(
                "metadata.content_type", "is \(metadata.contentType), but the content does not start like a \(metadata.contentType) file")
        }
    }
}
