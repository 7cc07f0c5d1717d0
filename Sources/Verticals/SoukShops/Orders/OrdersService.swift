import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// `souk.v1.Orders` as the shops serve it: retail checkout and shipping (Chateau Du Nox),
/// scheduled service orders and their windows (Aqua Hub). Reading, listing, cancelling and
/// rejecting orders are the shared orders'.
struct OrdersService: OrderPlacing {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Orders {
        SoukV1Services.Orders(
            checkout: .handler(verticals: [.retail], checkout),
            placeServiceOrder: .handler(verticals: [.waterServices], ServiceOrders(commerce: commerce).place),
            listServiceWindows: .handler(verticals: [.waterServices]) { request, call in try ServiceWindows.list(request, call, store: store, now: commerce.now) },
            getOrder: .unimplemented,
            listOrders: .unimplemented,
            rescheduleOrder: .handler(verticals: [.waterServices], owner: OrderParties.ownership(\.orderID, store: store), ServiceOrders(commerce: commerce).reschedule),
            approveOrder: .handler(verticals: [.waterServices], ServiceOrders(commerce: commerce).approve),
            rejectOrder: .unimplemented,
            acceptOrder: .unimplemented,
            cancelOrder: .unimplemented,
            shipOrder: .handler(verticals: [.retail], owner: OrderParties.ownership({ $0.orderID }, store: store), shipOrder),
            deliverOrder: .handler(verticals: [.retail], owner: OrderParties.ownership({ $0.orderID }, store: store), deliverOrder),
            confirmOrderReceived: .handler(verticals: [.retail], owner: OrderParties.ownership({ $0.orderID }, store: store), confirmOrderReceived),
            completeOrder: .unimplemented,
            watchOrder: .unimplemented)
    }
}
