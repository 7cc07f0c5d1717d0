import Foundation
import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// Menu items (DineSwift): the owner of a restaurant (or an admin) adds, edits, archives and
/// restores them; everyone reads the visible ones.
struct MenuItems {
    let commerce: Commerce
    var store: Store { commerce.store }

    static let maskPaths: Set<String> = [
        "name", "description", "price", "discount_bps", "section", "picture_media_id", "available", "hidden", "option_groups",
    ]

    func create(_ request: SoukV1.CreateMenuItemRequest, _ call: SoukCall) async throws -> SoukV1.MenuItem {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let input = request.menuItem ?? SoukV1.MenuItem()
        var checks = FieldChecks()
        let requestIDField = try checks.run { try RequestFields.requestID(request.requestID) }
        let restaurantIDField = try checks.run { try RequestFields.id(input.restaurantID, field: "menu_item.restaurant_id") }
        try MenuValidation.collect(input, paths: Self.maskPaths, currency: marketplace.currencyCode, field: "menu_item", &checks)
        let groups = try checks.run {
            try MenuOptions.checked(input.optionGroups, currency: marketplace.currencyCode, field: "menu_item.option_groups")
        }
        try checks.finish()
        let (requestID, restaurantID) = (requestIDField!, restaurantIDField!)
        var item = SoukStoreV1.MenuItem()
        item.restaurantID = restaurantID.description
        item.optionGroups = groups!
        MenuValidation.apply(Self.maskPaths.subtracting(["option_groups"]).sorted(), from: input, to: &item)
        let restaurant = try store.require(RestaurantTable.table, restaurantID, in: marketplaceID, "restaurant")
        guard !restaurant.value.subject.archived else {
            throw RPCError.souk(.failedPrecondition, .archived, "the restaurant is archived: restore it first")
        }
        return try await store.createOnce(
            MenuItemTable.table, item, resource: .menuItem, state: "CREATED", request: request, requestID: requestID, call: call,
            inserted: { record, transaction in
                // Read again in the transaction: an archive between the check and the insert wins.
                guard try transaction.require(RestaurantTable.table, restaurantID, in: marketplaceID, "restaurant").value.subject.archived == false
                else { throw RPCError.souk(.failedPrecondition, .archived, "the restaurant is archived: restore it first") }
                try MenuItemMedia.sync(from: nil, to: record, transaction: transaction)
            },
            view: MenuItemProjection.item)
    }

    func get(_ request: SoukV1.GetMenuItemRequest, _ call: SoukCall) async throws -> SoukV1.MenuItem {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.menuItemID, field: "menu_item_id")
        let record = try store.require(MenuItemTable.table, id, in: marketplaceID, "menu item")
        let restaurant = try store.require(RestaurantTable.table, try RequestFields.id(record.value.subject.restaurantID, field: "restaurant_id"),
                                           in: marketplaceID, "restaurant")
        guard MenuItemView.isStaff(of: restaurant.value.subject, call)
            || (RestaurantRules.isVisible(restaurant.value.subject) && MenuItemRules.isVisible(record.value.subject))
        else { throw RPCError.notFound("menu item", id.description) }
        return MenuItemProjection.item(record)
    }

    func update(_ request: SoukV1.UpdateMenuItemRequest, _ call: SoukCall) async throws -> SoukV1.MenuItem {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let input = request.menuItem ?? SoukV1.MenuItem()
        let id = try RequestFields.id(input.id, field: "menu_item.id")
        let paths = try RequestFields.maskPaths(request.updateMask, allowed: Self.maskPaths)
        try MenuValidation.check(input, paths: Set(paths), currency: marketplace.currencyCode, field: "menu_item")
        let groups = paths.contains("option_groups")
            ? try MenuOptions.checked(input.optionGroups, currency: marketplace.currencyCode, field: "menu_item.option_groups") : []
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let current = try transaction.require(MenuItemTable.table, id, in: marketplaceID, "menu item")
            guard !current.value.subject.archived else {
                throw RPCError.souk(.failedPrecondition, .archived, "the menu item is archived: restore it first")
            }
            if let expected, expected != current.version {
                throw RPCError.staleVersion("menu item", id.description, expected: expected, actual: current.version)
            }
            let updated = try transaction.update(MenuItemTable.table, id) { record in
                MenuValidation.apply(paths.filter { $0 != "option_groups" }, from: input, to: &record.subject)
                if paths.contains("option_groups") { record.subject.optionGroups = groups }
            }
            try MenuItemMedia.sync(from: current, to: updated, transaction: transaction)
            try AuditLog.record(
                in: transaction, marketplaceID: marketplaceID.description, resource: SoukV1.ResourceRef(type: .menuItem, id: id.description),
                actor: actor, reason: "updated: " + paths.joined(separator: ", "), resourceVersion: updated.version)
            return updated
        }
        return MenuItemProjection.item(record)
    }

    func setArchived(_ archived: Bool, _ itemID: String, _ expectedVersion: Int64, _ call: SoukCall) async throws -> SoukV1.MenuItem {
        MenuItemProjection.item(try await store.setArchived(
            archived, MenuItemTable.table, id: itemID, field: "menu_item_id", expectedVersion: expectedVersion, noun: "menu item",
            resource: .menuItem, call: call))
    }

    /// The ownership rule of the `provider (owner)` menu RPCs: the item's restaurant is the
    /// caller's.
    static func owns(itemID: String, field: String, _ call: SoukCall, _ caller: Caller, _ roles: Set<SoukV1.Role>, store: Store) throws -> Bool {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(itemID, field: field)
        let item = try store.require(MenuItemTable.table, id, in: marketplaceID, "menu item")
        return try Restaurants.owns(item.value.subject.restaurantID, field: field, call, caller, roles, store: store)
    }
}

/// What every caller allowed to read a stored menu item sees: the contract's `MenuItem`, built
/// field by field (an allow-list: a field added to the stored record reaches no caller until a
/// line here names it), with the effective price computed.
enum MenuItemProjection {
    static func item(_ record: StoredRecord<MenuItemRecord>) -> SoukV1.MenuItem {
        let item = record.value.subject
        var shown = record.stamped(SoukV1.MenuItem())
        shown.restaurantID = item.restaurantID
        shown.name = item.name
        shown.description = item.description
        shown.price = item.price
        shown.discountBps = item.discountBps
        shown.effectivePrice = SoukV1.Money(amountMinor: MenuItemRules.effectivePrice(item), currencyCode: item.price?.currencyCode ?? "")
        shown.section = item.section
        shown.pictureMediaID = item.pictureMediaID
        shown.available = item.available
        shown.hidden = item.hidden
        shown.archived = item.archived
        shown.archiveTime = item.archiveTime
        shown.optionGroups = item.optionGroups
        return shown
    }
}

/// Who may see hidden items.
enum MenuItemView {
    /// Whether the caller runs `restaurant` (its owner) or administers the marketplace.
    static func isStaff(of restaurant: SoukStoreV1.Restaurant, _ call: SoukCall) -> Bool {
        RestaurantView.isAdmin(call) || call.caller?.accountID.description == restaurant.ownerAccountID
    }
}

/// The picture of a menu item, attached to it as catalog media.
enum MenuItemMedia {
    static func sync(from old: StoredRecord<MenuItemRecord>?, to new: StoredRecord<MenuItemRecord>, transaction: Transaction) throws {
        try CatalogMedia.sync(
            [old?.value.subject.pictureMediaID ?? ""].filter { !$0.isEmpty }, to: [new.value.subject.pictureMediaID].filter { !$0.isEmpty },
            requestField: "menu_item.picture_media_id", resource: .menuItem, id: new.id, field: "picture_media_id",
            marketplaceID: new.value.marketplaceID, transaction: transaction)
    }
}

/// Checks of menu item fields, each naming the field.
enum MenuValidation {
    /// Throws one INVALID_ARGUMENT naming every bad field of `paths`.
    static func check(_ item: SoukV1.MenuItem, paths: Set<String>, currency: String, field: String) throws {
        var checks = FieldChecks()
        try collect(item, paths: paths, currency: currency, field: field, &checks)
        try checks.finish()
    }

    static func collect(_ item: SoukV1.MenuItem, paths: Set<String>, currency: String, field: String, _ checks: inout FieldChecks) throws {
        if paths.contains("name") { try checks.check { try FoodValidation.name(item.name, field: "\(field).name") } }
        if paths.contains("price") {
            if item.price == nil { checks.add("\(field).price", "is required") }
            try checks.check { try price(item.price, currency: currency, field: "\(field).price") }
        }
        if paths.contains("discount_bps") {
            checks.require((0...10_000).contains(item.discountBps), "\(field).discount_bps", "must be 0 to 10000 basis points")
        }
        if paths.contains("section") { checks.require(item.section.count <= 100, "\(field).section", "must be at most 100 characters") }
        if paths.contains("description") {
            checks.require(item.description.count <= 4000, "\(field).description", "must be at most 4000 characters")
        }
    }

    /// A price: 0 to the catalog's cap, in the marketplace's currency (a missing one is 0).
    static func price(_ money: SoukV1.Money?, currency: String, field: String) throws {
        guard let money else { return }
        guard (0...CatalogLimits.maxPriceMinor).contains(money.amountMinor) else {
            throw RPCError.invalidField(field, "must be 0 to \(CatalogLimits.maxPriceMinor) minor units")
        }
        guard money.currencyCode == currency else { throw RPCError.invalidField(field, "must be in the marketplace's currency, \(currency)") }
    }

    /// Copies the masked fields (option groups are checked and copied by the caller).
    static func apply(_ paths: [String], from input: SoukV1.MenuItem, to item: inout SoukStoreV1.MenuItem) {
        for path in paths {
            switch path {
            case "name": item.name = input.name.trimmingCharacters(in: .whitespaces)
            case "description": item.description = input.description
            case "price": item.price = input.price
            case "discount_bps": item.discountBps = input.discountBps
            case "section": item.section = input.section.trimmingCharacters(in: .whitespaces)
            case "picture_media_id": item.pictureMediaID = input.pictureMediaID
            case "available": item.available = input.available
            case "hidden": item.hidden = input.hidden
            default: break
            }
        }
    }
}
