import SoukKit
import SoukStore

/// A listing saved by an account (its time is the envelope's creation time).
struct FavoriteRecord: Sendable {
    var marketplaceID: String
    var accountID: String
    var listingID: String
}

/// Favorites: one per account and listing; an account's newest first.
enum FavoriteTable {
    /// (marketplace, account, listing): the saved flag of a listing view is one lookup here.
    static let byAccountListing = Index<FavoriteRecord>.unique("favorites.account_listing") {
        [.string($0.marketplaceID), .string($0.accountID), .string($0.listingID)]
    }
    /// (marketplace, account): an account's favorites in order of saving (version 7 ids).
    static let byAccount = Index<FavoriteRecord>.nonUnique("favorites.account") { [[.string($0.marketplaceID), .string($0.accountID)]] }

    static let table = Table(
        "favorites",
        codec: FieldCodec<FavoriteRecord>(
            write: { value, writer in
                writer.string(value.marketplaceID)
                writer.string(value.accountID)
                writer.string(value.listingID)
            },
            read: { reader in
                FavoriteRecord(marketplaceID: try reader.string(), accountID: try reader.string(), listingID: try reader.string())
            }),
        indexes: [byAccountListing, byAccount])
}
