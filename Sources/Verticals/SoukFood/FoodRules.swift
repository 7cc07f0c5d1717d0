import Foundation
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// The rules that decide what a restaurant shows and where it is.
enum RestaurantRules {
    /// Whether guests and customers see it: approved and not archived.
    static func isVisible(_ restaurant: SoukStoreV1.Restaurant) -> Bool {
        restaurant.approvalState == .approved && !restaurant.archived
    }

    /// Whether it takes orders now.
    static func takesOrders(_ restaurant: SoukStoreV1.Restaurant) -> Bool {
        isVisible(restaurant) && restaurant.open
    }

    /// Its map position, when its address has one.
    static func position(_ restaurant: SoukStoreV1.Restaurant) -> GeoPosition? {
        guard let location = restaurant.address?.location else { return nil }
        return GeoPosition(latitude: location.latitude, longitude: location.longitude)
    }
}

/// The rules that decide what a menu item shows.
enum MenuItemRules {
    /// Whether it is on the menu customers see (it may still be unavailable).
    static func isVisible(_ item: SoukStoreV1.MenuItem) -> Bool { !item.hidden && !item.archived }

    /// Whether it can be put in a cart.
    static func isOrderable(_ item: SoukStoreV1.MenuItem) -> Bool { isVisible(item) && item.available }

    /// The price after discount: price − price × discount_bps / 10000, the discount rounded half
    /// away from zero to the minor unit (the rounding of `RetailPricing.tax`).
    static func effectivePrice(_ item: SoukStoreV1.MenuItem) -> Int64 {
        let price = item.price?.amountMinor ?? 0
        return price - RetailPricing.tax(price, bps: item.discountBps)
    }
}

/// Restaurant categories as index keys compare them (names, sections and categories follow
/// `ProductText`: lower case, no accents, words of letters and digits).
enum FoodText {
    /// A restaurant's categories as stored in index keys, without repeats or empties.
    static func categories(_ categories: [String]) -> [String] {
        Array(Set(categories.map(ProductText.sortKey).filter { !$0.isEmpty })).sorted()
    }
}
