import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// `souk.v1.Carts` in food-delivery marketplaces (`FoodCarts`); retail carts are the shops'.
struct CartsService {
    let commerce: Commerce

    var declaration: SoukV1Services.Carts {
        let (food, verticals) = (FoodCarts(commerce: commerce), Set<SoukV1.Vertical>([.foodDelivery]))
        return SoukV1Services.Carts(
            getCart: .handler(verticals: verticals, owner: Ownership { _, _, _, _ in true }, food.get),
            addCartLine: .handler(verticals: verticals, owner: Ownership { _, _, _, _ in true }, food.add),
            updateCartLine: .handler(verticals: verticals, owner: Ownership { _, _, _, _ in true }, food.update),
            removeCartLine: .handler(verticals: verticals, owner: Ownership { _, _, _, _ in true }, food.remove),
            clearCart: .handler(verticals: verticals, owner: Ownership { _, _, _, _ in true }, food.clear))
    }
}
