import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Deliveries`: staff deliveries of water-services orders, and food drivers: their
/// availability and position, offers, and the deliveries they make.
struct DeliveriesService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Deliveries {
        let water = WaterDeliveries(commerce: commerce)
        let food = FoodDeliveries(commerce: commerce)
        let offers = DeliveryOffers(commerce: commerce)
        let couriers = CourierAvailability(commerce: commerce)
        return SoukV1Services.Deliveries(
            assignDelivery: .handler(verticals: [.waterServices], water.assign),
            offerDelivery: .handler(verticals: [.foodDelivery], owner: OrderParties.ownership(\.orderID, store: store), offers.offer),
            acceptDelivery: .handler(verticals: [.foodDelivery], owner: WaterDeliveries.ownership(\.deliveryID, store: store), offers.accept),
            rejectDelivery: .handler(verticals: [.foodDelivery], owner: WaterDeliveries.ownership(\.deliveryID, store: store), offers.reject),
            startDelivery: .handler(verticals: [.waterServices], owner: WaterDeliveries.ownership(\.deliveryID, store: store), water.start),
            delayDelivery: .handler(verticals: [.waterServices], owner: WaterDeliveries.ownership(\.deliveryID, store: store), water.delay),
            completeDelivery: .handler(owner: WaterDeliveries.ownership(\.deliveryID, store: store)) { request, call in
                try await call.isFood ? food.complete(request, call) : water.complete(request, call)
            },
            cancelDelivery: .handler(owner: WaterDeliveries.ownership(\.deliveryID, store: store)) { request, call in
                try await call.isFood ? food.cancel(request, call) : water.cancel(request, call)
            },
            getDelivery: .handler(owner: WaterDeliveries.ownership(\.deliveryID, store: store)) { [commerce] request, call in
                if call.isFood, let id = request.deliveryID.recordID { try await DeliveryOffers.settleExpiry(id, commerce: commerce) }
                return try await water.get(request, call)
            },
            listDeliveries: .handler(owner: WaterDeliveries.listOwnership(store: store), water.list),
            setCourierAvailability: .handler(verticals: [.foodDelivery], couriers.setAvailability),
            getCourierStatus: .handler(verticals: [.foodDelivery], owner: CourierAvailability.statusOwnership, couriers.status),
            reportLocation: .handler(verticals: [.foodDelivery], couriers.reportStream),
            updateCourierLocation: .handler(verticals: [.foodDelivery], couriers.update),
            listAvailableCouriers: .handler(verticals: [.foodDelivery], CourierRanking(commerce: commerce).list),
            watchCourierLocation: .handler(
                verticals: [.foodDelivery], owner: OrderParties.ownership(\.orderID, store: store), CourierTracking(commerce: commerce).watch))
    }
}

extension SoukCall {
    /// Whether the call is in a food-delivery marketplace.
    var isFood: Bool { marketplace?.vertical == .foodDelivery }
}
