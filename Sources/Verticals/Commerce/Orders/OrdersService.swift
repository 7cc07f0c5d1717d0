import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Orders`: checkout (retail and food), scheduled service orders (water services), and their lifecycles.
struct OrdersService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Orders {
        SoukV1Services.Orders(
            checkout: .handler(verticals: [.retail, .foodDelivery]) { request, call in
                try await call.marketplace?.vertical == .foodDelivery ? foodCheckout(request, call) : checkout(request, call)
            },
            placeServiceOrder: .handler(verticals: [.waterServices], ServiceOrders(commerce: commerce).place),
            listServiceWindows: .handler(verticals: [.waterServices]) { request, call in try ServiceWindows.list(request, call, store: store, now: commerce.now) },
            getOrder: .handler(owner: OrderParties.ownership(\.orderID, store: commerce.store), getOrder),
            listOrders: .handler(owner: Self.listOwnership(store: store), listOrders),
            rescheduleOrder: .handler(verticals: [.waterServices], owner: OrderParties.ownership(\.orderID, store: store), ServiceOrders(commerce: commerce).reschedule),
            approveOrder: .handler(verticals: [.waterServices], ServiceOrders(commerce: commerce).approve),
            rejectOrder: .handler(verticals: [.waterServices, .foodDelivery], owner: OrderParties.ownership(\.orderID, store: store), rejectOrder),
            acceptOrder: .handler(verticals: [.foodDelivery], owner: OrderParties.ownership(\.orderID, store: store), acceptOrder),
            cancelOrder: .handler(owner: OrderParties.ownership(\.orderID, store: commerce.store), cancelOrder),
            shipOrder: .handler(verticals: [.retail], owner: OrderParties.ownership({ $0.orderID }, store: store), shipOrder),
            deliverOrder: .handler(verticals: [.retail], owner: OrderParties.ownership({ $0.orderID }, store: store), deliverOrder),
            confirmOrderReceived: .handler(verticals: [.retail], owner: OrderParties.ownership({ $0.orderID }, store: store), confirmOrderReceived),
            completeOrder: .handler(verticals: [.foodDelivery], owner: OrderParties.ownership(\.orderID, store: store), completeOrder),
            watchOrder: .handler(owner: .passingMalformed(\.orderID, OrderParties.ownership(\.orderID, store: commerce.store)), watchOrder))
    }
}
