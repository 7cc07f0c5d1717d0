import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// `souk.v1.Orders` as food delivery serves it: checkout of a food cart, and the moves of the
/// food lifecycle the restaurant drives. Reading, listing, cancelling and rejecting orders are
/// the shared orders'.
struct OrdersService: OrderPlacing {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Orders {
        SoukV1Services.Orders(
            checkout: .handler(verticals: [.foodDelivery], foodCheckout),
            placeServiceOrder: .unimplemented,
            listServiceWindows: .unimplemented,
            getOrder: .unimplemented,
            listOrders: .unimplemented,
            rescheduleOrder: .unimplemented,
            approveOrder: .unimplemented,
            rejectOrder: .unimplemented,
            acceptOrder: .handler(verticals: [.foodDelivery], owner: OrderParties.ownership(\.orderID, store: store), acceptOrder),
            cancelOrder: .unimplemented,
            shipOrder: .unimplemented,
            deliverOrder: .unimplemented,
            confirmOrderReceived: .unimplemented,
            completeOrder: .handler(verticals: [.foodDelivery], owner: OrderParties.ownership(\.orderID, store: store), completeOrder),
            watchOrder: .unimplemented)
    }
}
