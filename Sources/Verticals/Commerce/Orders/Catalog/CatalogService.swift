import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Catalog`: water services (Aqua Hub), retail products (Chateau Du Nox), restaurants and
/// their menus (DineSwift, `Food/`).
struct CatalogService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Catalog {
        let food: Set<SoukV1.Vertical> = [.foodDelivery]
        let (restaurants, approval, browsing) = (Restaurants(commerce: commerce), RestaurantApproval(commerce: commerce), RestaurantBrowsing(commerce: commerce))
        let (menu, menuBrowsing, store) = (MenuItems(commerce: commerce), MenuBrowsing(commerce: commerce), store)
        return SoukV1Services.Catalog(
            createService: .handler(verticals: [.waterServices], WaterServices(commerce: commerce).create),
            getService: .handler(verticals: [.waterServices], WaterServices(commerce: commerce).get),
            listServices: .handler(verticals: [.waterServices], WaterServices(commerce: commerce).list),
            updateService: .handler(verticals: [.waterServices], WaterServices(commerce: commerce).update),
            archiveService: .handler(verticals: [.waterServices]) { request, call in
                try await WaterServices(commerce: commerce).setArchived(true, request.serviceID, request.expectedVersion, call)
            },
            restoreService: .handler(verticals: [.waterServices]) { request, call in
                try await WaterServices(commerce: commerce).setArchived(false, request.serviceID, request.expectedVersion, call)
            },
            createProduct: .handler(createProduct),
            getProduct: .handler(getProduct),
            listProducts: .handler(listProducts),
            searchProducts: .handler(searchProducts),
            listRecommendedProducts: .handler(listRecommendedProducts),
            updateProduct: .handler(updateProduct),
            setProductReview: .handler(setProductReview),
            archiveProduct: .handler { request, call in try await setProductArchived(true, productID: request.productID, expectedVersion: request.expectedVersion, call) },
            restoreProduct: .handler { request, call in try await setProductArchived(false, productID: request.productID, expectedVersion: request.expectedVersion, call) },
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
