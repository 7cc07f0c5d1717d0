import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Carts`: the caller's retail cart.
struct CartsService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Carts {
        SoukV1Services.Carts(
            getCart: .handler(verticals: [.retail], owner: Ownership { _, _, _, _ in true }, getCart),
            addCartLine: .handler(verticals: [.retail], owner: Ownership { _, _, _, _ in true }, addCartLine),
            updateCartLine: .handler(verticals: [.retail], owner: Ownership { _, _, _, _ in true }, updateCartLine),
            removeCartLine: .handler(verticals: [.retail], owner: Ownership { _, _, _, _ in true }, removeCartLine),
            clearCart: .handler(verticals: [.retail], owner: Ownership { _, _, _, _ in true }, clearCart))
    }
}
