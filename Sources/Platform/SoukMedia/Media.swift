import Logging
import SoukGRPC
import SoukKit
import SoukStore

/// Uploaded files and images: the media records in the store, their content on disk beside it
/// (`MediaFiles`), the `souk.v1.Media` service, and the purge of uploads nothing refers to.
/// Other domains refer to media with the kit's `MediaReferences`.
public final class Media: SoukDomain {
    public let store: Store
    public let files: MediaFiles
    /// How long an upload nothing refers to is kept.
    public let retention: Duration
    let logger: Logger

    /// None of its own: the media table is the kit's (`KitTables`), since every domain that
    /// refers to a picture writes it.
    public static let tables: [AnyTable] = []
    /// The folder of files media keeps beside the store, which backups copy.
    public static let fileFolders = [MediaFiles.folderName]

    /// Opens the media folder in the store's directory (`<data-dir>/media`).
    public init(store: Store, retention: Duration = .seconds(24 * 3600), logger: Logger = Logger(label: "souk.media")) throws {
        self.store = store
        self.retention = retention
        self.logger = logger
        files = try MediaFiles(root: store.configuration.path + "/" + MediaFiles.folderName)
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
            if outcome.lastOfContent { try files.remove(hex: hex) }
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
        try self.init(store: context.store)
    }

}
