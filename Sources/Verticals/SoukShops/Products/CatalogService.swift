import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// `souk.v1.Catalog` as the shops serve it: water services (Aqua Hub) and retail products
/// (Chateau Du Nox); restaurants and their menus are food delivery's (SoukFood).
struct CatalogService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Catalog {
        SoukV1Services.Catalog(
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
            createRestaurant: .unimplemented,
            getRestaurant: .unimplemented,
            listRestaurants: .unimplemented,
            searchRestaurants: .unimplemented,
            updateRestaurant: .unimplemented,
            setRestaurantCommission: .unimplemented,
            approveRestaurant: .unimplemented,
            rejectRestaurant: .unimplemented,
            archiveRestaurant: .unimplemented,
            restoreRestaurant: .unimplemented,
            createMenuItem: .unimplemented,
            getMenuItem: .unimplemented,
            listMenuItems: .unimplemented,
            searchMenuItems: .unimplemented,
            updateMenuItem: .unimplemented,
            archiveMenuItem: .unimplemented,
            restoreMenuItem: .unimplemented)
    }
}
