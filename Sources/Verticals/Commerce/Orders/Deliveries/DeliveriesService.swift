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
            offerDelivery: .handler(
                verticals: [.foodDelivery], owner: .passingMalformed(\.orderID, OrderParties.ownership(\.orderID, store: store)), offers.offer),
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
            getDelivery: .handler(owner: WaterDeliveries.ownership(\.deliveryID, store: store), water.get),
            listDeliveries: .handler(owner: WaterDeliveries.listOwnership(store: store), water.list),
            setCourierAvailability: .handler(verticals: Self.tracked, couriers.setAvailability),
            getCourierStatus: .handler(verticals: Self.tracked, owner: CourierAvailability.statusOwnership, couriers.status),
            reportLocation: .handler(verticals: Self.tracked, couriers.reportStream),
            updateCourierLocation: .handler(verticals: Self.tracked, couriers.update),
            listAvailableCouriers: .handler(verticals: [.foodDelivery], CourierRanking(commerce: commerce).list),
            watchCourierLocation: .handler(
                verticals: Self.tracked, owner: .passingMalformed(\.orderID, OrderParties.ownership(\.orderID, store: store)),
                CourierTracking(commerce: commerce).watch))
    }

    /// The verticals with deliveries, whose couriers report positions that customers watch.
    static let tracked: Set<SoukV1.Vertical> = [.foodDelivery, .waterServices]
}

extension Ownership {
    /// `rule`, except that a request whose `id` is not a record id passes on to the body, which
    /// names it together with the request's other wrong fields (FieldChecks).
    static func passingMalformed(_ id: @escaping @Sendable (Request) -> String, _ rule: Ownership) -> Ownership {
        Ownership { request, call, caller, roles in
            RecordID(id(request)) == nil ? true : try rule.isOwner(request, call, caller, roles)
        }
    }
}

extension SoukCall {
    /// Whether the call is in a food-delivery marketplace.
    var isFood: Bool { marketplace?.vertical == .foodDelivery }
}
