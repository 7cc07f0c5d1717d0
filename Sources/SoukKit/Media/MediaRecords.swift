import SoukAccess
import SoukMessages
import SoukStore

/// A field of a resource that holds a media id, for example an account's `avatar_media_id`.
public struct MediaReferrer: Sendable, Hashable {
    public var type: SoukV1.ResourceType
    public var id: String
    /// The field's name in the resource, for example `avatar_media_id` or `attachments`.
    public var field: String

    public init(type: SoukV1.ResourceType, id: String, field: String) {
        self.type = type
        self.id = id
        self.field = field
    }
}

/// Who may read a media object through one record that refers to it, decided when it is attached.
public enum MediaVisibility: Sendable, Hashable {
    /// Anyone in the marketplace, guests included: public-facing pictures.
    case marketplace
    /// Only these accounts: the parties of a conversation or a ticket.
    case parties(Set<RecordID>)
}

/// One record referring to a media object, and what it makes readable.
public struct MediaReference: Sendable, Hashable {
    public var referrer: MediaReferrer
    public var visibility: MediaVisibility

    public init(referrer: MediaReferrer, visibility: MediaVisibility) {
        self.referrer = referrer
        self.visibility = visibility
    }
}

/// An uploaded file as stored: its description and what refers to it. The content itself is a
/// file named by its SHA-256 on disk (`SoukMedia`), shared by every record with that content.
public struct MediaRecord: Sendable, Hashable {
    public var marketplaceID: RecordID
    /// The account that uploaded it.
    public var ownerAccountID: RecordID
    public var contentType: String
    public var sizeBytes: Int64
    /// SHA-256 of the content, 32 bytes.
    public var sha256: [UInt8]
    public var fileName: String
    public var purpose: SoukV1.MediaPurpose
    public var references: [MediaReference]
    /// Since when nothing refers to it (its upload, or the last detach); nil while referenced.
    /// Unreferenced media older than a day is purged.
    public var unreferencedSince: StoreTime?

    public init(
        marketplaceID: RecordID, ownerAccountID: RecordID, contentType: String, sizeBytes: Int64, sha256: [UInt8],
        fileName: String, purpose: SoukV1.MediaPurpose, references: [MediaReference] = [], unreferencedSince: StoreTime?
    ) {
        self.marketplaceID = marketplaceID
        self.ownerAccountID = ownerAccountID
        self.contentType = contentType
        self.sizeBytes = sizeBytes
        self.sha256 = sha256
        self.fileName = fileName
        self.purpose = purpose
        self.references = references
        self.unreferencedSince = unreferencedSince
    }

    /// Whether `caller` (nil: a guest) may read it: operators, the marketplace's admins and the
    /// uploader always; others through a reference that makes it public or names them.
    public func isReadable(by caller: Caller?) -> Bool {
        if let caller {
            if caller.isOperator || caller.accountID == ownerAccountID { return true }
            if caller.marketplaceID == marketplaceID, caller.activeRoles.contains(.admin) { return true }
        }
        return references.contains { reference in
            switch reference.visibility {
            case .marketplace: true
            case .parties(let accounts): caller.map { accounts.contains($0.accountID) } ?? false
            }
        }
    }

    /// Whether anyone in the marketplace may read it.
    public var isPublic: Bool { references.contains { $0.visibility == .marketplace } }

    /// SHA-256 as 64 lower-case hex digits (the content's file name).
    public var sha256Hex: String { ContentAddress.hex(sha256) }
}

extension StoredRecord where Value == MediaRecord {
    /// The contract's view of a stored media record.
    public var apiMedia: SoukV1.MediaObject {
        SoukV1.MediaObject(
            id: id.description, marketplaceID: value.marketplaceID.description, ownerAccountID: value.ownerAccountID.description,
            contentType: value.contentType, sizeBytes: value.sizeBytes, sha256: value.sha256Hex, fileName: value.fileName,
            purpose: value.purpose, referenced: !value.references.isEmpty, createTime: Timestamp(createdAt))
    }
}

/// Media records, with the indexes that find shared content, unreferenced uploads and an
/// account's uploads.
public enum MediaTable {
    /// The folder of the uploaded files in the store's directory (one of the schema's file folders).
    public static let folderName = "media"
    /// Every record with a given content: the file may be deleted only when none is left.
    public static let byContent = Index<MediaRecord>.nonUnique("media.content") { [.bytes($0.sha256)] }
    /// Unreferenced records by the time they became so, across marketplaces (for the purge).
    public static let unreferenced = Index<MediaRecord>.nonUnique("media.unreferenced") { record in
        record.unreferencedSince.map { [.time($0)] }
    }
    /// An account's uploads, oldest first.
    public static let byOwner = Index<MediaRecord>.nonUnique("media.owner") {
        [.id($0.marketplaceID), .id($0.ownerAccountID)]
    }

    public static let table = Table(
        "media",
        codec: FieldCodec<MediaRecord>(
            write: { value, writer in
                writer.id(value.marketplaceID)
                writer.id(value.ownerAccountID)
                writer.string(value.contentType)
                writer.int(value.sizeBytes)
                writer.data(value.sha256)
                writer.string(value.fileName)
                writer.int(Int64(value.purpose.rawValue))
                writer.list(value.references) { writer, reference in
                    writer.int(Int64(reference.referrer.type.rawValue))
                    writer.string(reference.referrer.id)
                    writer.string(reference.referrer.field)
                    switch reference.visibility {
                    case .marketplace:
                        writer.bool(true)
                    case .parties(let accounts):
                        writer.bool(false)
                        writer.list(accounts.sorted()) { $0.id($1) }
                    }
                }
                writer.bool(value.unreferencedSince != nil)
                writer.time(value.unreferencedSince ?? StoreTime(microsecondsSinceEpoch: 0))
            },
            read: { reader in
                let marketplaceID = try reader.id()
                let ownerAccountID = try reader.id()
                let contentType = try reader.string()
                let sizeBytes = try reader.int()
                let sha256 = try reader.bytesValue()
                let fileName = try reader.string()
                let purpose = SoukV1.MediaPurpose(rawValue: Int32(truncatingIfNeeded: try reader.int()))
                let references = try reader.list { reader in
                    let referrer = MediaReferrer(
                        type: SoukV1.ResourceType(rawValue: Int32(truncatingIfNeeded: try reader.int())),
                        id: try reader.string(), field: try reader.string())
                    let visibility: MediaVisibility =
                        try reader.bool() ? .marketplace : .parties(Set(try reader.list { try $0.id() }))
                    return MediaReference(referrer: referrer, visibility: visibility)
                }
                let unreferenced = try reader.bool()
                let since = try reader.time()
                return MediaRecord(
                    marketplaceID: marketplaceID, ownerAccountID: ownerAccountID, contentType: contentType, sizeBytes: sizeBytes,
                    sha256: sha256, fileName: fileName, purpose: purpose, references: references,
                    unreferencedSince: unreferenced ? since : nil)
            }),
        indexes: [byContent, unreferenced, byOwner],
        // The content's file in the media folder (`MediaFiles`), which `store verify` checks is there.
        files: { [ContentAddress.path(folder: folderName, sha256: $0.sha256)] })
}
