import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// A restaurant as stored: its own record (`souk.store.v1.Restaurant`, without the id, version
/// and times, which the envelope holds) and its marketplace. RPCs answer with
/// `RestaurantProjection`.
typealias RestaurantRecord = MarketRecord<SoukStoreV1.Restaurant>
/// A menu item as stored (`souk.store.v1.MenuItem`). RPCs answer with `MenuItemProjection`.
typealias MenuItemRecord = MarketRecord<SoukStoreV1.MenuItem>

/// Restaurants and the indexes their lists read. Guests' indexes hold only visible restaurants
/// (approved, not archived), one entry per facet a list can be narrowed to (`RestaurantFacet`),
/// so every guest list is one range of one index (or one geo query).
enum RestaurantTable {
    /// One restaurant per owner account.
    static let byOwner = Index<RestaurantRecord>.unique("restaurants.owner") {
        [.string($0.marketplaceID), .string($0.subject.ownerAccountID)]
    }
    /// Admins' lists by approval state, oldest first.
    static let byApproval = Index<RestaurantRecord>.nonUnique("restaurants.approval") {
        [.string($0.marketplaceID), .enumCase($0.subject.approvalState)]
    }
    static let byName = visible("restaurants.name") { [.string(ProductText.sortKey($0.name))] }
    static let byRating = visible("restaurants.rating") { [.int(Int64($0.rating?.averageHundredths ?? 0))] }
    /// Search: one entry per prefix of each normalized name word, then the name.
    static let byNameWord = Index<RestaurantRecord>.nonUnique("restaurants.name_word") { record in
        guard RestaurantRules.isVisible(record.subject) else { return [] }
        let name = ProductText.sortKey(record.subject.name)
        return ProductText.wordPrefixes(record.subject.name).map { [.string(record.marketplaceID), .string($0), .string(name)] }
    }
    /// Near a point: visible restaurants by facet.
    static let geo = GeoIndex<RestaurantRecord>("restaurants.geo") { stored in
        let restaurant = stored.value.subject
        guard RestaurantRules.isVisible(restaurant), let position = RestaurantRules.position(restaurant) else { return [] }
        return RestaurantFacet.of(restaurant).map { GeoEntry(scope: [.string(stored.value.marketplaceID), .string($0)], position: position) }
    }

    static let table = marketTable(
        "restaurants", SoukStoreV1.Restaurant.self, indexes: [byOwner, byApproval, byName, byRating, byNameWord, geo.index])

    /// An index (marketplace, facet, sort key…) of visible restaurants.
    private static func visible(_ name: String, sortKey: @escaping @Sendable (SoukStoreV1.Restaurant) -> [KeyPart]) -> Index<RestaurantRecord> {
        Index<RestaurantRecord>.nonUnique(name) { record in
            guard RestaurantRules.isVisible(record.subject) else { return [] }
            return RestaurantFacet.of(record.subject).map { [.string(record.marketplaceID), .string($0)] + sortKey(record.subject) }
        }
    }
}

/// What a guest list of restaurants can be narrowed to by the index itself: any, open ones, one
/// category, open ones of one category.
enum RestaurantFacet {
    static func key(openOnly: Bool, category: String) -> String {
        (openOnly ? "open" : "any") + (category.isEmpty ? "" : "|category:" + category)
    }

    static func of(_ restaurant: SoukStoreV1.Restaurant) -> [String] {
        let categories = [""] + FoodText.categories(restaurant.categories)
        let opens = restaurant.open ? [false, true] : [false]
        return opens.flatMap { open in categories.map { key(openOnly: open, category: $0) } }
    }
}

/// Menu items and the indexes their lists read.
enum MenuItemTable {
    /// A restaurant's menu by section then name, once per audience (`MenuAudience`).
    static let byMenu = Index<MenuItemRecord>.nonUnique("menu_items.menu") { record in
        let item = record.subject
        return MenuAudience.of(item).map {
            [.string(record.marketplaceID), .string(item.restaurantID), .string($0.rawValue), .string(ProductText.sortKey(item.section)),
             .string(ProductText.sortKey(item.name))]
        }
    }
    /// Search within one restaurant: visible items by each prefix of each name word, then name.
    static let byRestaurantWord = Index<MenuItemRecord>.nonUnique("menu_items.restaurant_word") { record in
        let item = record.subject
        guard MenuItemRules.isVisible(item) else { return [] }
        let name = ProductText.sortKey(item.name)
        return ProductText.wordPrefixes(item.name).map {
            [.string(record.marketplaceID), .string(item.restaurantID), .string($0), .string(name)]
        }
    }

    static let table = marketTable("menu_items", SoukStoreV1.MenuItem.self, indexes: [byMenu, byRestaurantWord])
}

/// Who a menu entry is listed for: `visible` items (not hidden, not archived) for everyone,
/// `active` ones (not archived, hidden included) and the `archive` for the owner and admins.
enum MenuAudience: String, Sendable {
    case visible, active, archive

    static func of(_ item: SoukStoreV1.MenuItem) -> [MenuAudience] {
        if item.archived { return [.archive] }
        return item.hidden ? [.active] : [.visible, .active]
    }
}

/// The tables of food delivery.
enum FoodTables {
    static var all: [AnyTable] { [RestaurantTable.table.erased, MenuItemTable.table.erased] }
}

/// What every caller allowed to read a stored restaurant sees: the contract's `Restaurant`,
/// built field by field (an allow-list: a field added to the stored record reaches no caller
/// until a line here names it).
enum RestaurantProjection {
    static func restaurant(_ record: StoredRecord<RestaurantRecord>) -> SoukV1.Restaurant {
        let restaurant = record.value.subject
        var shown = record.stamped(SoukV1.Restaurant())
        shown.ownerAccountID = restaurant.ownerAccountID
        shown.name = restaurant.name
        shown.description = restaurant.description
        shown.address = restaurant.address
        shown.logoMediaID = restaurant.logoMediaID
        shown.pictureMediaID = restaurant.pictureMediaID
        shown.categories = restaurant.categories
        shown.commissionBps = restaurant.commissionBps
        shown.open = restaurant.open
        shown.rating = restaurant.rating
        shown.archived = restaurant.archived
        shown.archiveTime = restaurant.archiveTime
        shown.approvalState = restaurant.approvalState
        shown.rejectionReason = restaurant.rejectionReason
        shown.decidedByAccountID = restaurant.decidedByAccountID
        shown.decideTime = restaurant.decideTime
        return shown
    }
}

// The food messages projections stamp with a stored record's envelope.
extension SoukV1.Restaurant: StampedMessage {}
extension SoukV1.MenuItem: StampedMessage {}

extension SoukStoreV1.Restaurant: ArchivableRecord {}
extension SoukStoreV1.MenuItem: ArchivableRecord {}
