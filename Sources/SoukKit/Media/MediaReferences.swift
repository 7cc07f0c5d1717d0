import SoukAccess
import SoukGRPC
import SoukMessages
import SoukStore

/// How a domain makes a record refer to uploaded media: inside its own write transaction it
/// attaches the media id a request names to the field that holds it, and detaches the id the
/// field held before. Attaching decides who may read the media through that record; media
/// nothing refers to is purged after a day.
///
///     try await store.write { transaction in
///         let referrer = MediaReferrer(type: .account, id: accountID.description, field: "avatar_media_id")
///         try MediaReferences.replace(old, with: new, field: "account.avatar_media_id", referrer: referrer,
///                                     visibility: .marketplace, marketplaceID: marketplaceID, uploader: caller.accountID,
///                                     imagesOnly: true, in: transaction)
///         ...
///     }
public enum MediaReferences {
    /// Attaches media `text` (a request's field, named `field` in errors) to `referrer`, and
    /// returns the media record. Attaching the same referrer again only updates its visibility.
    ///
    /// INVALID_ARGUMENT naming `field` when the id is not a UUID, names no media of
    /// `marketplaceID`, is not an image while `imagesOnly`, or (with `uploader`) was uploaded
    /// by another account and is not public. Pass `uploader: nil` for callers who may use any
    /// media of the marketplace (admins, operators).
    @discardableResult
    public static func attach(
        _ text: String, field: String, to referrer: MediaReferrer, visibility: MediaVisibility,
        marketplaceID: RecordID, uploader: RecordID?, imagesOnly: Bool, in transaction: Transaction
    ) throws -> StoredRecord<MediaRecord> {
        let id = try RequestFields.id(text, field: field)
        guard let record = try transaction.get(MediaTable.table, id), record.value.marketplaceID == marketplaceID else {
            throw RPCError.invalidField(field, "is not a media object of this marketplace (upload it with Media.UploadMedia)")
        }
        if imagesOnly, !record.value.contentType.hasPrefix("image/") {
            throw RPCError.invalidField(field, "must be an image, not \(record.value.contentType)")
        }
        if let uploader, record.value.ownerAccountID != uploader, !record.value.isPublic {
            throw RPCError.invalidField(field, "must be media the caller uploaded")
        }
        return try transaction.update(MediaTable.table, id) { media in
            let reference = MediaReference(referrer: referrer, visibility: visibility)
            if let index = media.references.firstIndex(where: { $0.referrer == referrer }) {
                media.references[index] = reference
            } else {
                media.references.append(reference)
            }
            media.unreferencedSince = nil
        }
    }

    /// Attaches each of a message's `attachments` to `referrer` (as `attach`, images or not) and
    /// returns them as the contract shows them, with the media's type, name and size. Every bad
    /// one is collected in `checks` under `attachments[i].media_id`; `refuse` names what is wrong
    /// with a content type a domain does not take (nil: taken).
    public static func attachments(
        _ attachments: [SoukV1.Attachment], to referrer: MediaReferrer, visibility: MediaVisibility, marketplaceID: RecordID,
        uploader: RecordID?, checks: inout FieldChecks, in transaction: Transaction, refuse: (String) -> String? = { _ in nil }
    ) throws -> [SoukV1.Attachment] {
        var attached: [SoukV1.Attachment] = []
        for (index, attachment) in attachments.enumerated() {
            let field = "attachments[\(index)].media_id"
            let media = try checks.run {
                try attach(
                    attachment.mediaID, field: field, to: referrer, visibility: visibility, marketplaceID: marketplaceID,
                    uploader: uploader, imagesOnly: false, in: transaction)
            }
            guard let media else { continue }
            let type = media.value.contentType
            if let problem = refuse(type) { checks.require(false, field, problem) }
            attached.append(
                SoukV1.Attachment(mediaID: media.id.description, contentType: type, fileName: media.value.fileName, sizeBytes: media.value.sizeBytes))
        }
        return attached
    }

    /// Detaches media `text` from `referrer`. Does nothing for an empty or unknown id or one
    /// not attached there, so a field that held an invalid value can always be cleared.
    public static func detach(_ text: String, from referrer: MediaReferrer, in transaction: Transaction) throws {
        guard let id = RecordID(text), let record = try transaction.get(MediaTable.table, id),
              record.value.references.contains(where: { $0.referrer == referrer })
        else { return }
        try transaction.update(MediaTable.table, id) { media in
            media.references.removeAll { $0.referrer == referrer }
            if media.references.isEmpty { media.unreferencedSince = transaction.now }
        }
    }

    /// Points a single-media field from `old` to `new`: detaches `old` and attaches `new`
    /// (nothing to attach when `new` is empty). The checks are those of `attach`.
    public static func replace(
        _ old: String, with new: String, field: String, referrer: MediaReferrer, visibility: MediaVisibility,
        marketplaceID: RecordID, uploader: RecordID?, imagesOnly: Bool, in transaction: Transaction
    ) throws {
        if !new.isEmpty {
            try attach(
                new, field: field, to: referrer, visibility: visibility, marketplaceID: marketplaceID, uploader: uploader,
                imagesOnly: imagesOnly, in: transaction)
        }
        if old != new { try detach(old, from: referrer, in: transaction) }
    }
}
