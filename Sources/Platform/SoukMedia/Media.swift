import Logging
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Uploaded files and images: the media records in the store, their content on disk beside it
/// (`MediaFiles`), the `souk.v1.Media` service, and the purge of uploads nothing refers to.
/// Other domains refer to media with the kit's `MediaReferences`.
public final class Media: SoukDomain {
    public let store: Store
    public let files: MediaFiles
    /// The sizes made of images, beside the originals.
    public let variants: MediaVariants
    /// The media URLs and their signatures.
    public let urls: MediaURLs
    /// How long an upload nothing refers to is kept.
    public let retention: Duration
    let logger: Logger

    /// None of its own: the media table is the kit's (`KitTables`), since every domain that
    /// refers to a picture writes it.
    public static let tables: [AnyTable] = []
    /// The folders of files media keeps beside the store, which backups copy: the uploads and
    /// the sizes made of images.
    public static let fileFolders = [MediaFiles.folderName, MediaVariants.folderName]

    /// Opens the media folders in the store's directory (`<data-dir>/media`,
    /// `<data-dir>/media-variants`) and the media URL key (made at first start).
    public init(
        store: Store, retention: Duration = .seconds(24 * 3600), urlSettings: MediaURLSettings = MediaURLSettings(),
        logger: Logger = Logger(label: "souk.media")
    ) throws {
        self.store = store
        self.retention = retention
        self.logger = logger
        files = try MediaFiles(root: store.configuration.path + "/" + MediaFiles.folderName)
        variants = try MediaVariants(root: store.configuration.path + "/" + MediaVariants.folderName)
        urls = MediaURLs(key: try MediaURLs.loadKey(at: files.root + "/" + MediaURLs.keyFileName), settings: urlSettings)
    }

    /// The contract's view of a media record, with its URL for a caller who may read it.
    func apiMedia(_ record: StoredRecord<MediaRecord>) -> SoukV1.MediaObject {
        var object = record.apiMedia
        object.url = urls.url(of: record, now: StoreTime.now().microsecondsSinceEpoch / 1_000_000)
        return object
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [MediaService(media: self).declaration.rpcService(kit)]
    }

    /// Deletes the media records that nothing has referred to for `retention`, and the files of
    /// those whose content no other record shares. Returns how many records were deleted.
    public func purgeUnreferenced(batchSize: Int = 100) async throws -> Int {
        let cutoff = store.configuration.clock().adding(.zero - retention)
        var purged = 0
        var token: String?
        repeat {
            let page = try store.list(
                MediaTable.table, MediaTable.unreferenced, .prefix([], before: [.time(cutoff)]),
                page: PageRequest(size: batchSize, token: token))
            for record in page.items {
                if try await purge(record.id, content: record.value.sha256, unreferencedBefore: cutoff) { purged += 1 }
            }
            token = page.nextPageToken
        } while token != nil
        return purged
    }

    /// Deletes one record if it is still unreferenced since before `cutoff`, then its file when
    /// no other record has that content. Runs under the content's lock, so an upload of the
    /// same content cannot commit a record between the check and the deletion of the file.
    private func purge(_ id: RecordID, content: [UInt8], unreferencedBefore cutoff: StoreTime) async throws -> Bool {
        let hex = ContentAddress.hex(content)
        return try await files.withContent(hex) {
            let outcome = try await store.write { transaction -> (deleted: Bool, lastOfContent: Bool) in
                guard let record = try transaction.get(MediaTable.table, id), let since = record.value.unreferencedSince, since < cutoff else {
                    return (false, false)
                }
                try transaction.delete(MediaTable.table, id)
                let others = try transaction.first(MediaTable.table, MediaTable.byContent, .starting(with: [.bytes(content)]))
                return (true, others == nil)
            }
            if outcome.lastOfContent {
                try files.remove(hex: hex)
                variants.remove(original: hex)
            }
            return outcome.deleted
        }
    }

    /// Every five minutes (and at start), the purge of unreferenced media.
    public var background: DomainBackground {
        DomainBackground(jobs: [ScheduledJob("purge unreferenced media", every: .seconds(300)) { try await self.purgeUnreferenced() }])
    }
}

extension Media {
    public convenience init(mounting context: DomainContext) throws {
        try self.init(store: context.store, urlSettings: context.optional(MediaURLSettings.self) ?? MediaURLSettings())
    }

}
