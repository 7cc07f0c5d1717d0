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
            getCart: .unimplemented,
            addCartLine: .unimplemented,
            updateCartLine: .unimplemented,
            removeCartLine: .unimplemented,
            clearCart: .unimplemented)
    }
}
