import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// `souk.v1.Carts` in retail marketplaces (`Carts.swift`); food carts are food delivery's.
struct CartsService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Carts {
        let retail: Set<SoukV1.Vertical> = [.retail]
        return SoukV1Services.Carts(
            getCart: .handler(verticals: retail, owner: Ownership { _, _, _, _ in true }, getCart),
            addCartLine: .handler(verticals: retail, owner: Ownership { _, _, _, _ in true }, addCartLine),
            updateCartLine: .handler(verticals: retail, owner: Ownership { _, _, _, _ in true }, updateCartLine),
            removeCartLine: .handler(verticals: retail, owner: Ownership { _, _, _, _ in true }, removeCartLine),
            clearCart: .handler(verticals: retail, owner: Ownership { _, _, _, _ in true }, clearCart))
    }
}
