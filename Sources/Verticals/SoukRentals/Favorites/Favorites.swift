import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Favorites: an account saves listings it can see, removes them and lists them with each
/// listing as it is now.
struct Favorites {
    let store: Store

    func add(_ request: SoukV1.AddFavoriteRequest, _ call: SoukCall) async throws -> SoukV1.Favorite {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        var checks = FieldChecks()
        let listingID = try checks.run { try RequestFields.id(request.listingID, field: "listing_id") }
        try checks.check { _ = try RequestFields.requestID(request.requestID) }
        try checks.finish()
        let id = listingID!
        let listing = try store.require(ListingTable.table, id, in: marketplaceID, "listing")
        guard ListingViews.canSee(listing.value.subject, call) else { throw RPCError.notFound("listing", id.description) }
        let value = FavoriteRecord(marketplaceID: marketplaceID.description, accountID: caller.accountID.description, listingID: id.description)
        let key: [KeyPart] = [.string(value.marketplaceID), .string(value.accountID), .string(value.listingID)]
        let saved: StoredRecord<FavoriteRecord>
        do {
            saved = try await store.write { transaction in
                if let existing = try transaction.get(FavoriteTable.table, unique: FavoriteTable.byAccountListing, key) { return existing }
                return try transaction.insert(FavoriteTable.table, value)
            }
        } catch StoreError.uniqueViolation {
            // Saved by a concurrent call of the same account: that one is the favorite.
            guard let existing = try store.get(FavoriteTable.table, unique: FavoriteTable.byAccountListing, key) else { throw RPCError.notFound("favorite", id.description) }
            saved = existing
        }
        return try view(saved, call)
    }

    func remove(_ request: SoukV1.RemoveFavoriteRequest, _ call: SoukCall) async throws -> SoukV1.RemoveFavoriteResponse {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.listingID, field: "listing_id")
        let key: [KeyPart] = [.string(marketplaceID.description), .string(caller.accountID.description), .string(id.description)]
        try await store.write { transaction in
            guard let existing = try transaction.get(FavoriteTable.table, unique: FavoriteTable.byAccountListing, key) else {
                throw RPCError.souk(.notFound, .resourceNotFound, "listing \(id) is not among the caller's favorites")
            }
            _ = try transaction.delete(FavoriteTable.table, existing.id)
        }
        return SoukV1.RemoveFavoriteResponse()
    }

    func list(_ request: SoukV1.ListFavoritesRequest, _ call: SoukCall) async throws -> SoukV1.ListFavoritesResponse {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        var checks = FieldChecks()
        let order = try checks.run { try CreateTimeOrder.direction(request.orderBy) }
        let filters = "account=\(caller.accountID);\(order == .ascending ? "asc" : "desc")"
        let checkedPage = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        let result = try store.list(
            FavoriteTable.table, FavoriteTable.byAccount,
            .starting(with: [.string(marketplaceID.description), .string(caller.accountID.description)]), direction: order!, page: checkedPage!)
        return SoukV1.ListFavoritesResponse(
            favorites: try result.items.map { try view($0, call) },
            nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    /// The favorite with its listing as it is now (left out when the caller may no longer see it).
    private func view(_ record: StoredRecord<FavoriteRecord>, _ call: SoukCall) throws -> SoukV1.Favorite {
        var favorite = SoukV1.Favorite(
            id: record.id.description, accountID: record.value.accountID, listingID: record.value.listingID,
            createTime: Timestamp(record.createdAt))
        if let id = RecordID(record.value.listingID), let listing = try store.get(ListingTable.table, id),
           ListingViews.canSee(listing.value.subject, call) {
            favorite.listing = try ListingViews(store: store).view(ListingProjection.listing(listing), call)
        }
        return favorite
    }

    /// Whether `account` saved listing `listingID`: one lookup of the unique index.
    static func isSaved(_ listingID: String, account: String, marketplaceID: String, store: Store) throws -> Bool {
        try store.get(FavoriteTable.table, unique: FavoriteTable.byAccountListing, [.string(marketplaceID), .string(account), .string(listingID)]) != nil
    }
}
