import SoukKit
import SoukMessages
import SoukStore

/// The pictures of catalog records: each media id a product or service names is attached to it
/// (readable by everyone in the marketplace, guests included, and kept from the purge), and an
/// id it no longer names is detached, in the transaction that writes the record.
package enum CatalogMedia {
    /// Moves the references of `field` (`image_media_ids`, `image_media_id`) of record `id` from
    /// `old` to `new`. INVALID_ARGUMENT naming `request_field[i]` for an id that is not an image of
    /// the marketplace.
    package static func sync(
        _ old: [String], to new: [String], requestField: String, resource: SoukV1.ResourceType, id: RecordID, field: String,
        marketplaceID: String, transaction: Transaction
    ) throws {
        guard let market = RecordID(marketplaceID) else { return }
        let referrer = MediaReferrer(type: resource, id: id.description, field: field)
        for (index, media) in new.enumerated() where !media.isEmpty {
            let name = new.count == 1 && !requestField.hasSuffix("s") ? requestField : "\(requestField)[\(index)]"
            try MediaReferences.attach(
                media, field: name, to: referrer, visibility: .marketplace, marketplaceID: market, uploader: nil, imagesOnly: true,
                in: transaction)
        }
        for media in Set(old).subtracting(new) { try MediaReferences.detach(media, from: referrer, in: transaction) }
    }
}

/// Bounds of catalog values.
package enum CatalogLimits {
    /// The highest price of one unit, in minor units (10 billion in a currency with cents): with
    /// the caps on quantities and cart lines, no total can overflow.
    package static let maxPriceMinor: Int64 = 1_000_000_000_000
}
