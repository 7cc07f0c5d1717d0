import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// Listings: a lessor creates drafts, edits them, publishes them (an active lessor only),
/// archives and restores them; everyone reads published ones; a lessor lists their own and
/// admins every one.
struct Listings {
    let store: Store

    func create(_ request: SoukV1.CreateListingRequest, _ call: SoukCall) async throws -> SoukV1.Listing {
        let caller = try call.requireCaller()
        let (_, marketplace) = try call.requireMarketplace()
        let input = request.listing ?? SoukV1.Listing()
        var checks = FieldChecks()
        let requestID = try checks.run { try RequestFields.requestID(request.requestID) } ?? ""
        try ListingValidation.check(input, paths: ListingValidation.maskPaths, marketplace: marketplace, into: &checks)
        try checks.finish()
        guard RentalsAccess.isLessor(caller) else {
            throw RPCError.souk(
                .permissionDenied, .notAllowed,
                "only a lessor (provider role, pending or active; ask for it with Accounts.RequestRole) creates listings")
        }
        var listing = SoukStoreV1.Listing()
        ListingValidation.apply(ListingValidation.maskPaths, from: input, to: &listing)
        listing.ownerAccountID = caller.accountID.description
        listing.status = .draft
        let record = try await store.createOnce(
            ListingTable.table, listing, resource: .listing, state: SoukV1.ListingStatus.draft.protoName, request: request,
            requestID: requestID, call: call,
            inserted: { record, transaction in try ListingValidation.checkStored(record, previousPhotos: [], transaction: transaction) },
            view: { ListingProjection.listing($0) })
        return try ListingViews(store: store).view(record, call)
    }

    func get(_ request: SoukV1.GetListingRequest, _ call: SoukCall) async throws -> SoukV1.Listing {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.listingID, field: "listing_id")
        let record = try store.require(ListingTable.table, id, in: marketplaceID, "listing")
        guard ListingViews.canSee(record.value.subject, call) else { throw RPCError.notFound("listing", id.description) }
        return try ListingViews(store: store).view(ListingProjection.listing(record), call)
    }

    func list(_ request: SoukV1.ListListingsRequest, _ call: SoukCall) async throws -> SoukV1.ListListingsResponse {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let market = marketplaceID.description
        let live = !request.showArchived
        let owner = request.ownerAccountID.isEmpty && !RentalsAccess.isAdmin(call) ? caller.accountID.description : request.ownerAccountID
        var checks = FieldChecks()
        let order = try checks.run { try CreateTimeOrder.direction(request.orderBy) }
        let filters = "owner=\(owner);live=\(live);\(order == .ascending ? "asc" : "desc")"
        let checkedPage = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        let (direction, page) = (order!, checkedPage!)
        let result = owner.isEmpty
            ? try store.list(ListingTable.table, ListingTable.byMarketplace, .starting(with: [.string(market), .bool(live)]), direction: direction, page: page)
            : try store.list(
                ListingTable.table, ListingTable.byOwner, .starting(with: [.string(market), .string(owner), .bool(live)]), direction: direction,
                page: page)
        let views = ListingViews(store: store)
        return SoukV1.ListListingsResponse(
            listings: try result.items.map { try views.view(ListingProjection.listing($0), call) },
            nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    func update(_ request: SoukV1.UpdateListingRequest, _ call: SoukCall) async throws -> SoukV1.Listing {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let input = request.listing ?? SoukV1.Listing()
        var checks = FieldChecks()
        let listingID = try checks.run { try RequestFields.id(input.id, field: "listing.id") }
        let maskPaths = try checks.run { try RequestFields.maskPaths(request.updateMask, allowed: ListingValidation.maskPaths) }
        try ListingValidation.check(input, paths: Set(maskPaths ?? []), marketplace: marketplace, into: &checks)
        let expectedVersion = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        try checks.finish()
        let (id, paths, expected) = (listingID!, maskPaths!, expectedVersion ?? nil)
        let record = try await store.updateFields(
            ListingTable.table, id, in: marketplaceID, "listing", resource: .listing, paths: paths, expectedVersion: expected, actor: AuditActor(call),
            check: { current, _ in
                guard current.value.subject.status != .archived else {
                    throw RPCError.souk(.failedPrecondition, .archived, "listing \(id) is archived: restore it before changing it")
                }
            },
            change: { ListingValidation.apply(paths, from: input, to: &$0.subject) },
            written: { old, new, transaction in
                try ListingValidation.checkStored(new, previousPhotos: old.value.subject.photoMediaIDs, transaction: transaction)
            })
        return try ListingViews(store: store).view(ListingProjection.listing(record), call)
    }

    func publish(_ request: SoukV1.PublishListingRequest, _ call: SoukCall) async throws -> SoukV1.Listing {
        try await fire(.publish, request.listingID, request.expectedVersion, call) { listing, transaction in
            try Self.requireActiveLessor(listing.subject.ownerAccountID, marketplaceID: listing.marketplaceID, transaction: transaction)
        }
    }

    func archive(_ request: SoukV1.ArchiveListingRequest, _ call: SoukCall) async throws -> SoukV1.Listing {
        try await fire(.archive, request.listingID, request.expectedVersion, call) { listing, transaction in
            guard listing.subject.status != .rented else {
                throw RPCError.souk(
                    .failedPrecondition, .listingLeased, "listing is RENTED: the lease must end before it is archived")
            }
            try BookingDecisions.declineOpen(
                listingID: request.listingID, marketplaceID: listing.marketplaceID, reason: BookingDecisions.archivedReason, transaction: transaction)
        } change: { listing, now in
            listing.subject.archiveTime = Timestamp(now)
        }
    }

    func restore(_ request: SoukV1.RestoreListingRequest, _ call: SoukCall) async throws -> SoukV1.Listing {
        try await fire(.restore, request.listingID, request.expectedVersion, call) { _, _ in } change: { listing, _ in
            listing.subject.archiveTime = nil
        }
    }

    /// Fires `transition` on listing `text` after `check` (read in the same transaction).
    private func fire(
        _ transition: ListingMove, _ text: String, _ expectedVersion: Int64, _ call: SoukCall,
        check: @escaping @Sendable (ListingRecord, Transaction) throws -> Void,
        change: @escaping @Sendable (inout ListingRecord, StoreTime) -> Void = { _, _ in }
    ) async throws -> SoukV1.Listing {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected) = try FieldChecks.target(text, field: "listing_id", expectedVersion: expectedVersion)
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let current = try transaction.require(ListingTable.table, id, in: marketplaceID, "listing", expectedVersion: expected)
            try check(current.value, transaction)
            return ListingProjection.listing(try ListingLifecycle.machine.fire(
                transition, on: id, in: ListingTable.table, marketplaceID: marketplaceID.description, by: actor, transaction: transaction
            ) { change(&$0, transaction.now) })
        }
        return try ListingViews(store: store).view(record, call)
    }

    /// FAILED_PRECONDITION (ROLE_PENDING) unless the owner holds the provider role, active.
    static func requireActiveLessor(_ ownerID: String, marketplaceID: String, transaction: Transaction) throws {
        guard let id = RecordID(ownerID), let account = try IdentityRecords.account(id, marketplaceID: marketplaceID, transaction),
              account.roles.contains(where: { $0.role == .provider && $0.status == .active })
        else {
            throw RPCError.souk(
                .failedPrecondition, .rolePending, "the lessor's provider role is not active yet: an admin approves it (Accounts.ApproveRole)")
        }
    }

    /// Owners act on their listings; admins on every listing of their marketplace.
    static func ownership<Request>(_ listingID: @escaping @Sendable (Request) -> String, store: Store) -> Ownership<Request> {
        Ownership { request, call, caller, _ in
            let (marketplaceID, _) = try call.requireMarketplace()
            // A malformed id is named by the handler's field checks, with the request's others.
            guard let id = RecordID(listingID(request)) else { return true }
            let record = try store.require(ListingTable.table, id, in: marketplaceID, "listing")
            return record.value.subject.ownerAccountID == caller.accountID.description
        }
    }
}
