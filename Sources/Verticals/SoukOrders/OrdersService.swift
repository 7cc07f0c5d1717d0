import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Orders` as the shared orders serve it: reading, listing and watching orders, and
/// cancelling or rejecting them (the vertical undoes its part through `OrderVertical`). The
/// shops and food delivery serve checkout and their own lifecycles' moves.
struct OrdersService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Orders {
        SoukV1Services.Orders(
            checkout: .unimplemented,
            placeServiceOrder: .unimplemented,
            listServiceWindows: .unimplemented,
            getOrder: .handler(owner: OrderParties.ownership(\.orderID, store: commerce.store), getOrder),
            listOrders: .handler(owner: Self.listOwnership(store: store, verticals: commerce.verticals), listOrders),
            rescheduleOrder: .unimplemented,
            approveOrder: .unimplemented,
            rejectOrder: .handler(verticals: [.waterServices, .foodDelivery], owner: OrderParties.ownership(\.orderID, store: store), rejectOrder),
            acceptOrder: .unimplemented,
            cancelOrder: .handler(owner: OrderParties.ownership(\.orderID, store: commerce.store), cancelOrder),
            shipOrder: .unimplemented,
            deliverOrder: .unimplemented,
            confirmOrderReceived: .unimplemented,
            completeOrder: .unimplemented,
            watchOrder: .handler(owner: .passingMalformed(\.orderID, OrderParties.ownership(\.orderID, store: commerce.store)), watchOrder))
    }
}
