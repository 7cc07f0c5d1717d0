import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// `souk.v1.Catalog` as food delivery serves it: restaurants, their approval, and their menus
/// (DineSwift). Water services and products are the shops' (SoukShops).
struct CatalogService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Catalog {
        let food: Set<SoukV1.Vertical> = [.foodDelivery]
        let (restaurants, approval, browsing) = (Restaurants(commerce: commerce), RestaurantApproval(commerce: commerce), RestaurantBrowsing(commerce: commerce))
        let (menu, menuBrowsing, store) = (MenuItems(commerce: commerce), MenuBrowsing(commerce: commerce), store)
        return SoukV1Services.Catalog(
            createService: .unimplemented,
            getService: .unimplemented,
            listServices: .unimplemented,
            updateService: .unimplemented,
            archiveService: .unimplemented,
            restoreService: .unimplemented,
            createProduct: .unimplemented,
            getProduct: .unimplemented,
            listProducts: .unimplemented,
            searchProducts: .unimplemented,
            listRecommendedProducts: .unimplemented,
            updateProduct: .unimplemented,
            setProductReview: .unimplemented,
            archiveProduct: .unimplemented,
            restoreProduct: .unimplemented,
            createRestaurant: .handler(verticals: food, restaurants.create),
            getRestaurant: .handler(verticals: food, restaurants.get),
            listRestaurants: .handler(verticals: food, browsing.list),
            searchRestaurants: .handler(verticals: food, browsing.search),
            updateRestaurant: .handler(verticals: food, owner: Ownership { request, call, caller, _ in
                try Restaurants.ownsForEditing(request.restaurant?.id ?? "", call, caller, store: store)
            }, restaurants.update),
            setRestaurantCommission: .handler(verticals: food, restaurants.setCommission),
            approveRestaurant: .handler(verticals: food, approval.approve),
            rejectRestaurant: .handler(verticals: food, approval.reject),
            archiveRestaurant: .handler(verticals: food, owner: Ownership { request, call, caller, roles in
                try Restaurants.owns(request.restaurantID, field: "restaurant_id", call, caller, roles, store: store)
            }) { request, call in try await restaurants.setArchived(true, request.restaurantID, request.expectedVersion, call) },
            restoreRestaurant: .handler(verticals: food, owner: Ownership { request, call, caller, roles in
                try Restaurants.owns(request.restaurantID, field: "restaurant_id", call, caller, roles, store: store)
            }) { request, call in try await restaurants.setArchived(false, request.restaurantID, request.expectedVersion, call) },
            createMenuItem: .handler(verticals: food, owner: Ownership { request, call, caller, roles in
                try Restaurants.owns(request.menuItem?.restaurantID ?? "", field: "menu_item.restaurant_id", call, caller, roles, store: store)
            }, menu.create),
            getMenuItem: .handler(verticals: food, menu.get),
            listMenuItems: .handler(verticals: food, menuBrowsing.list),
            searchMenuItems: .handler(verticals: food, menuBrowsing.search),
            updateMenuItem: .handler(verticals: food, owner: Ownership { request, call, caller, roles in
                try MenuItems.owns(itemID: request.menuItem?.id ?? "", field: "menu_item.id", call, caller, roles, store: store)
            }, menu.update),
            archiveMenuItem: .handler(verticals: food, owner: Ownership { request, call, caller, roles in
                try MenuItems.owns(itemID: request.menuItemID, field: "menu_item_id", call, caller, roles, store: store)
            }) { request, call in try await menu.setArchived(true, request.menuItemID, request.expectedVersion, call) },
            restoreMenuItem: .handler(verticals: food, owner: Ownership { request, call, caller, roles in
                try MenuItems.owns(itemID: request.menuItemID, field: "menu_item_id", call, caller, roles, store: store)
            }) { request, call in try await menu.setArchived(false, request.menuItemID, request.expectedVersion, call) })
    }
}
