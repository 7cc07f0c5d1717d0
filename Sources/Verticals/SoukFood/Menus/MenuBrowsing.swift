import Foundation
import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// A restaurant's menu, and menu items searched across the restaurants near a point: the
/// nearby visible restaurants come from the geo index, nearest first, and each one's matching
/// items from an index of that restaurant (name word, or section), so a search reads only what
/// it shows.
struct MenuBrowsing {
    let commerce: Commerce
    var store: Store { commerce.store }

    /// Restaurants read from the geo index at a time while searching items.
    static let restaurantBatch = 20

    func list(_ request: SoukV1.ListMenuItemsRequest, _ call: SoukCall) async throws -> SoukV1.ListMenuItemsResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.restaurantID, field: "restaurant_id")
        let restaurant = try store.require(RestaurantTable.table, id, in: marketplaceID, "restaurant").value.subject
        let staff = MenuItemView.isStaff(of: restaurant, call)
        guard staff || RestaurantRules.isVisible(restaurant) else { throw RPCError.notFound("restaurant", id.description) }
        if (request.showHidden || request.showArchived) && !staff {
            throw RPCError.souk(
                .permissionDenied, .notAllowed, "only the restaurant's owner and admins see hidden or archived items",
                field: request.showArchived ? "show_archived" : "show_hidden")
        }
        let audience: MenuAudience = request.showArchived ? .archive : request.showHidden ? .active : .visible
        var prefix: [KeyPart] = [.string(marketplaceID.description), .string(id.description), .string(audience.rawValue)]
        if !request.section.isEmpty { prefix.append(.string(ProductText.sortKey(request.section))) }
        let filters = "menu;\(id);\(audience.rawValue);\(ProductText.sortKey(request.section))"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let result = try store.list(MenuItemTable.table, MenuItemTable.byMenu, .starting(with: prefix), page: page)
        return SoukV1.ListMenuItemsResponse(
            menuItems: result.items.map(MenuItemProjection.item), nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    func search(_ request: SoukV1.SearchMenuItemsRequest, _ call: SoukCall) async throws -> SoukV1.SearchMenuItemsResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let market = marketplaceID.description
        var checks = FieldChecks()
        let words = try checks.run { try SearchWords(request.query, required: false).words } ?? []
        let section = ProductText.sortKey(request.section)
        if words.isEmpty, section.isEmpty, checks.isEmpty { checks.add("query", "query or section is required") }
        let areaField = try request.near.flatMap { near in try checks.run { try SearchArea(near, radiusMeters: request.radiusMeters) } }
        if request.near == nil { checks.add("near", "is required: items are searched near a point") }
        try checks.finish()
        let area = areaField!
        let filters = "items;\(words.joined(separator: " "));\(section);open=\(request.openOnly);\(area.stamp)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        var cursor = try SearchCursor(page.token)
        // A restaurant's items: by the most selective name word (then checked on every word and
        // the section), or by section.
        let key = words.max(by: { $0.count < $1.count }).map { String($0.prefix(SearchText.maxPrefix)) }
        func range(_ restaurantID: String) -> (Index<MenuItemRecord>, IndexRange) {
            if let key {
                return (MenuItemTable.byRestaurantWord, .starting(with: [.string(market), .string(restaurantID), .string(key)]))
            }
            return (MenuItemTable.byMenu, .starting(with: [
                .string(market), .string(restaurantID), .string(MenuAudience.visible.rawValue), .string(section),
            ]))
        }
        let scope: [KeyPart] = [.string(market), .string(RestaurantFacet.key(openOnly: request.openOnly, category: ""))]
        var results: [SoukV1.MenuItemResult] = []
        var next: SearchCursor?
        search: while true {
            let batch = try store.nearest(
                RestaurantTable.table, RestaurantTable.geo,
                GeoQuery(scope: scope, center: area.center, radiusMeters: area.radius, limit: Self.restaurantBatch, pageToken: cursor.geoToken))
            while cursor.offset < batch.hits.count {
                if results.count == page.size {
                    next = cursor
                    break search
                }
                let hit = batch.hits[cursor.offset]
                let restaurant = hit.record.value.subject
                let (index, itemRange) = range(hit.record.id.description)
                let items = try store.list(
                    MenuItemTable.table, index, itemRange, page: PageRequest(size: page.size - results.count, token: cursor.itemToken))
                results += items.items
                    .filter { SearchWords.match(words, in: $0.value.subject.name) && (section.isEmpty || ProductText.sortKey($0.value.subject.section) == section) }
                    .map {
                        SoukV1.MenuItemResult(
                            menuItem: MenuItemProjection.item($0), restaurantName: restaurant.name,
                            distanceMeters: Int32(min(hit.distanceMeters, Double(Int32.max)).rounded()))
                    }
                if let more = items.nextPageToken {
                    cursor.itemToken = more
                } else {
                    cursor.offset += 1
                    cursor.itemToken = nil
                }
            }
            guard let more = batch.nextPageToken else { break }
            cursor = SearchCursor(geoToken: more, offset: 0, itemToken: nil)
        }
        return SoukV1.SearchMenuItemsResponse(results: results, nextPageToken: RequestFields.nextPageToken(next?.token, filters: filters))
    }
}

/// Where an item search stopped: the geo page of restaurants it read (its token), the
/// restaurant in that page, and the position within that restaurant's items.
struct SearchCursor: Sendable {
    var geoToken: String?
    var offset: Int
    var itemToken: String?

    init(geoToken: String?, offset: Int, itemToken: String?) {
        self.geoToken = geoToken
        self.offset = offset
        self.itemToken = itemToken
    }

    /// The cursor a page token holds (a new search without one).
    init(_ token: String?) throws {
        guard let token else {
            self.init(geoToken: nil, offset: 0, itemToken: nil)
            return
        }
        // Store and geo tokens are base64url, so "~" separates them.
        let parts = token.split(separator: "~", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let offset = Int(parts[0]), offset >= 0, offset < MenuBrowsing.restaurantBatch else {
            throw RPCError.invalidField("page_token", "is not a token from a previous page of this search")
        }
        self.init(geoToken: parts[2].isEmpty ? nil : String(parts[2]), offset: offset, itemToken: parts[1].isEmpty ? nil : String(parts[1]))
    }

    var token: String { "\(offset)~\(itemToken ?? "")~\(geoToken ?? "")" }
}
