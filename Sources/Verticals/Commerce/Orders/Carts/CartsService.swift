import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Carts`: the caller's cart, retail (`Carts.swift`) or food (`FoodCarts`).
struct CartsService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Carts {
        let food = FoodCarts(commerce: commerce)
        let verticals: Set<SoukV1.Vertical> = [.retail, .foodDelivery]
        let own = Ownership<SoukV1.GetCartRequest> { _, _, _, _ in true }
        return SoukV1Services.Carts(
            getCart: .handler(verticals: verticals, owner: own) { request, call in
                try await Self.isFood(call) ? food.get(request, call) : getCart(request, call)
            },
            addCartLine: .handler(verticals: verticals, owner: Ownership { _, _, _, _ in true }) { request, call in
                try await Self.isFood(call) ? food.add(request, call) : addCartLine(request, call)
            },
            updateCartLine: .handler(verticals: verticals, owner: Ownership { _, _, _, _ in true }) { request, call in
                try await Self.isFood(call) ? food.update(request, call) : updateCartLine(request, call)
            },
            removeCartLine: .handler(verticals: verticals, owner: Ownership { _, _, _, _ in true }) { request, call in
                try await Self.isFood(call) ? food.remove(request, call) : removeCartLine(request, call)
            },
            clearCart: .handler(verticals: verticals, owner: Ownership { _, _, _, _ in true }) { request, call in
                try await Self.isFood(call) ? food.clear(request, call) : clearCart(request, call)
            })
    }

    private static func isFood(_ call: SoukCall) -> Bool { call.marketplace?.vertical == .foodDelivery }
}
