import Foundation
import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// Restaurants (DineSwift): a restaurant account describes its one restaurant, edits it and
/// opens or closes it; admins set its commission; owner or admins archive and restore it.
/// Approval is `RestaurantApproval`.
struct Restaurants {
    let commerce: Commerce
    var store: Store { commerce.store }

    static let maskPaths: Set<String> = ["name", "description", "address", "logo_media_id", "picture_media_id", "categories", "open"]

    func create(_ request: SoukV1.CreateRestaurantRequest, _ call: SoukCall) async throws -> SoukV1.Restaurant {
        let caller = try call.requireCaller()
        let (_, marketplace) = try call.requireMarketplace()
        let requestID = try RequestFields.requestID(request.requestID)
        let input = request.restaurant ?? SoukV1.Restaurant()
        try RestaurantValidation.check(input, paths: Self.maskPaths.subtracting(["open"]), field: "restaurant")
        // The caller gives the fields of the mask but the switch (closed until approved); the
        // server keeps the owner, the commission, the rating and the decision.
        var restaurant = SoukStoreV1.Restaurant()
        RestaurantValidation.apply(Array(Self.maskPaths.subtracting(["open"])), from: input, to: &restaurant)
        restaurant.ownerAccountID = caller.accountID.description
        restaurant.commissionBps = marketplace.settings?.commerce?.defaultCommissionBps ?? 0
        restaurant.approvalState = .pending
        return try await store.createOnce(
            RestaurantTable.table, restaurant, resource: .restaurant, state: "PENDING", request: request, requestID: requestID, call: call,
            inserted: { record, transaction in
                try RestaurantMedia.sync(from: nil, to: record, transaction: transaction)
                try Self.askForProviderRole(caller.accountID, restaurant: record, actor: AuditActor(call), transaction: transaction)
            },
            view: RestaurantProjection.restaurant)
    }

    /// Makes the creator a restaurant account: one holding no provider role, or one that was
    /// rejected or revoked, asks for it (pending), to be decided with the restaurant
    /// (RestaurantApproval).
    private static func askForProviderRole(
        _ accountID: RecordID, restaurant: StoredRecord<RestaurantRecord>, actor: AuditActor, transaction: Transaction
    ) throws {
        guard let account = try IdentityRecords.account(accountID, transaction) else { return }
        let status = account.roles.first { $0.role == .provider }?.status ?? .unspecified
        guard status != .active, status != .pending else { return }
        try AccountRoles.set(
            .provider, of: accountID, to: .pending, decidedBy: "", actor: actor,
            auditReason: "provider role requested with restaurant \(restaurant.value.subject.name)", transaction: transaction)
    }

    func get(_ request: SoukV1.GetRestaurantRequest, _ call: SoukCall) async throws -> SoukV1.Restaurant {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.restaurantID, field: "restaurant_id")
        let record = try store.require(RestaurantTable.table, id, in: marketplaceID, "restaurant")
        guard RestaurantView.canSee(record.value.subject, call) else { throw RPCError.notFound("restaurant", id.description) }
        return RestaurantProjection.restaurant(record)
    }

    func update(_ request: SoukV1.UpdateRestaurantRequest, _ call: SoukCall) async throws -> SoukV1.Restaurant {
        let (marketplaceID, _) = try call.requireMarketplace()
        let input = request.restaurant ?? SoukV1.Restaurant()
        let id = try RequestFields.id(input.id, field: "restaurant.id")
        let paths = try RequestFields.maskPaths(request.updateMask, allowed: Self.maskPaths)
        try RestaurantValidation.check(input, paths: Set(paths), field: "restaurant")
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let actor = AuditActor(call)
        let byStaff = RestaurantView.isAdmin(call)
        let record = try await store.write { transaction in
            let current = try transaction.require(RestaurantTable.table, id, in: marketplaceID, "restaurant")
            let restaurant = current.value.subject
            guard !restaurant.archived else {
                throw RPCError.souk(.failedPrecondition, .archived, "the restaurant is archived: restore it first")
            }
            if let expected, expected != current.version {
                throw RPCError.staleVersion("restaurant", id.description, expected: expected, actual: current.version)
            }
            if paths.contains("open"), input.open, restaurant.approvalState != .approved {
                throw RPCError.souk(
                    .failedPrecondition, .restaurantNotApproved, "the restaurant is not approved yet: it can open once an admin approves it",
                    field: "restaurant.open", metadata: ["state": restaurant.approvalState.protoName])
            }
            // An owner who edits a rejected restaurant asks again.
            let asksAgain = !byStaff && restaurant.approvalState == .rejected && paths.contains { $0 != "open" }
            let updated = try transaction.update(RestaurantTable.table, id) { record in
                RestaurantValidation.apply(paths, from: input, to: &record.subject)
                if asksAgain {
                    record.subject.approvalState = .pending
                    record.subject.rejectionReason = ""
                }
            }
            try RestaurantMedia.sync(from: current, to: updated, transaction: transaction)
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: .restaurant, id: id.description),
                actor: actor, from: asksAgain ? "REJECTED" : "", to: asksAgain ? "PENDING" : "",
                reason: "updated: " + paths.joined(separator: ", "), resourceVersion: updated.version)
            return updated
        }
        return RestaurantProjection.restaurant(record)
    }

    func setCommission(_ request: SoukV1.SetRestaurantCommissionRequest, _ call: SoukCall) async throws -> SoukV1.Restaurant {
        let (marketplaceID, _) = try call.requireMarketplace()
        var checks = FieldChecks()
        let idField = try checks.run { try RequestFields.id(request.restaurantID, field: "restaurant_id") }
        if let bps = request.commissionBps {
            checks.require((0...10_000).contains(bps), "commission_bps", "must be 0 to 10000 basis points")
        } else {
            checks.add("commission_bps", "is required (0 to 10000 basis points; 0 is no commission)")
        }
        let expectedField = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        try checks.finish()
        let (id, expected, bps) = (idField!, expectedField!, request.commissionBps!)
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let current = try transaction.require(RestaurantTable.table, id, in: marketplaceID, "restaurant")
            if let expected, expected != current.version {
                throw RPCError.staleVersion("restaurant", id.description, expected: expected, actual: current.version)
            }
            let updated = try transaction.update(RestaurantTable.table, id) { $0.subject.commissionBps = bps }
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: .restaurant, id: id.description),
                actor: actor, reason: "commission: \(current.value.subject.commissionBps) → \(bps) bps", resourceVersion: updated.version)
            return updated
        }
        return RestaurantProjection.restaurant(record)
    }

    func setArchived(_ archived: Bool, _ restaurantID: String, _ expectedVersion: Int64, _ call: SoukCall) async throws -> SoukV1.Restaurant {
        RestaurantProjection.restaurant(try await store.setArchived(
            archived, RestaurantTable.table, id: restaurantID, field: "restaurant_id", expectedVersion: expectedVersion, noun: "restaurant",
            resource: .restaurant, call: call, mayArchive: Self.checkNoOrderInProgress))
    }

    /// FAILED_PRECONDITION while an order of the restaurant is still moving: one read of the
    /// index (restaurant, status) per non-final status.
    private static func checkNoOrderInProgress(_ restaurant: StoredRecord<RestaurantRecord>, _ transaction: Transaction) throws {
        for status in SoukV1.OrderStatus.allCases where status != .unspecified && OrderParties.isActive(status) {
            if let order = try Orders.first(ofRestaurant: restaurant.id, marketplaceID: restaurant.value.marketplaceID, status: status, transaction) {
                throw RPCError.souk(
                    .failedPrecondition, .ordersInProgress,
                    "order \(order.value.subject.orderNumber) of the restaurant is still in progress: archive it once its orders are done",
                    metadata: ["order_id": order.id.description])
            }
        }
    }

    /// The ownership rule of UpdateRestaurant (`customer (owner)`): the owner, acting with its
    /// provider role pending or active.
    static func ownsForEditing(_ restaurantID: String, _ call: SoukCall, _ caller: Caller, store: Store) throws -> Bool {
        let record = try owned(restaurantID, field: "restaurant.id", call, store: store)
        return record.value.subject.ownerAccountID == caller.accountID.description && RestaurantView.isRestaurantAccount(caller)
    }

    /// The ownership rule of the `provider (owner)` RPCs: the owner with its provider role active.
    static func owns(_ restaurantID: String, field: String, _ call: SoukCall, _ caller: Caller, _ roles: Set<SoukV1.Role>, store: Store) throws -> Bool {
        let record = try owned(restaurantID, field: field, call, store: store)
        return roles.contains(.provider) && record.value.subject.ownerAccountID == caller.accountID.description
    }

    private static func owned(_ restaurantID: String, field: String, _ call: SoukCall, store: Store) throws -> StoredRecord<RestaurantRecord> {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(restaurantID, field: field)
        return try store.require(RestaurantTable.table, id, in: marketplaceID, "restaurant")
    }
}

/// Who sees which restaurant.
enum RestaurantView {
    /// Admins of the marketplace and operators.
    static func isAdmin(_ call: SoukCall) -> Bool {
        guard let caller = call.caller else { return false }
        return caller.isOperator || caller.activeRoles.contains(.admin)
    }

    /// An account that holds the provider role, active or still pending approval.
    static func isRestaurantAccount(_ caller: Caller) -> Bool {
        caller.activeRoles.contains(.provider) || caller.pendingRoles.contains(.provider)
    }

    /// Visible restaurants to everyone; the others to their owner and admins.
    static func canSee(_ restaurant: SoukStoreV1.Restaurant, _ call: SoukCall) -> Bool {
        RestaurantRules.isVisible(restaurant) || isAdmin(call) || call.caller?.accountID.description == restaurant.ownerAccountID
    }
}

/// The logo and picture of a restaurant, attached to it as catalog media.
enum RestaurantMedia {
    static func sync(from old: StoredRecord<RestaurantRecord>?, to new: StoredRecord<RestaurantRecord>, transaction: Transaction) throws {
        for (field, read) in [("logo_media_id", \SoukStoreV1.Restaurant.logoMediaID), ("picture_media_id", \SoukStoreV1.Restaurant.pictureMediaID)] {
            try CatalogMedia.sync(
                [old?.value.subject[keyPath: read] ?? ""].filter { !$0.isEmpty }, to: [new.value.subject[keyPath: read]].filter { !$0.isEmpty },
                requestField: "restaurant.\(field)", resource: .restaurant, id: new.id, field: field,
                marketplaceID: new.value.marketplaceID, transaction: transaction)
        }
    }
}

/// Checks of restaurant fields, each naming the field.
enum RestaurantValidation {
    /// Throws one INVALID_ARGUMENT naming every bad field of `paths`.
    static func check(_ restaurant: SoukV1.Restaurant, paths: Set<String>, field: String) throws {
        var checks = FieldChecks()
        if paths.contains("name") { try checks.check { try FoodValidation.name(restaurant.name, field: "\(field).name") } }
        if paths.contains("description") {
            checks.require(restaurant.description.count <= 4000, "\(field).description", "must be at most 4000 characters")
        }
        if paths.contains("address") {
            if let address = restaurant.address {
                for (path, text) in [("line1", address.line1), ("city", address.city)] {
                    checks.require(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(field).address.\(path)", "is required")
                }
                if let location = address.location {
                    try checks.check { try FoodValidation.point(location, field: "\(field).address.location") }
                } else {
                    checks.add("\(field).address.location", "is required: customers search restaurants near them")
                }
            } else {
                checks.add("\(field).address", "is required")
            }
        }
        if paths.contains("categories") {
            checks.require(restaurant.categories.count <= 10, "\(field).categories", "must hold at most 10 tags")
            for (index, category) in restaurant.categories.enumerated() {
                checks.require(
                    !ProductText.sortKey(category).isEmpty && category.count <= 50, "\(field).categories[\(index)]",
                    "must be 1 to 50 characters with a letter or digit")
            }
        }
        try checks.finish()
    }

    /// Copies the masked fields.
    static func apply(_ paths: [String], from input: SoukV1.Restaurant, to restaurant: inout SoukStoreV1.Restaurant) {
        for path in paths {
            switch path {
            case "name": restaurant.name = input.name.trimmingCharacters(in: .whitespaces)
            case "description": restaurant.description = input.description
            case "address": restaurant.address = input.address
            case "logo_media_id": restaurant.logoMediaID = input.logoMediaID
            case "picture_media_id": restaurant.pictureMediaID = input.pictureMediaID
            case "categories": restaurant.categories = input.categories.map { $0.trimmingCharacters(in: .whitespaces) }
            default: restaurant.open = input.open
            }
        }
    }
}

/// Checks shared by restaurants, menus and searches.
enum FoodValidation {
    /// A name: 1 to 200 characters once trimmed.
    static func name(_ text: String, field: String, limit: Int = 200) throws {
        let name = text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw RPCError.invalidField(field, "is required") }
        guard name.count <= limit else { throw RPCError.invalidField(field, "must be at most \(limit) characters") }
    }

    /// A map point: latitude −90…90, longitude −180…180.
    static func point(_ point: SoukV1.GeoPoint, field: String) throws {
        guard point.latitude.isFinite, (-90...90).contains(point.latitude) else {
            throw RPCError.invalidField("\(field).latitude", "must be −90 to 90 degrees")
        }
        guard point.longitude.isFinite, (-180...180).contains(point.longitude) else {
            throw RPCError.invalidField("\(field).longitude", "must be −180 to 180 degrees")
        }
    }
}
