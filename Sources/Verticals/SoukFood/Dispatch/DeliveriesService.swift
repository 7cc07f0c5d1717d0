import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// `souk.v1.Deliveries` as food delivery serves it: offers to drivers, their answers, the
/// ranking of available drivers, and completing or cancelling a food delivery.
struct DeliveriesService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Deliveries {
        let food: Set<SoukV1.Vertical> = [.foodDelivery]
        let (deliveries, offers) = (FoodDeliveries(commerce: commerce), DeliveryOffers(commerce: commerce))
        return SoukV1Services.Deliveries(
            assignDelivery: .unimplemented,
            offerDelivery: .handler(
                verticals: food, owner: .passingMalformed(\.orderID, OrderParties.ownership(\.orderID, store: store)), offers.offer),
            acceptDelivery: .handler(verticals: food, owner: DeliveryReads.ownership(\.deliveryID, store: store), offers.accept),
            rejectDelivery: .handler(verticals: food, owner: DeliveryReads.ownership(\.deliveryID, store: store), offers.reject),
            startDelivery: .unimplemented,
            delayDelivery: .unimplemented,
            completeDelivery: .handler(verticals: food, owner: DeliveryReads.ownership(\.deliveryID, store: store), deliveries.complete),
            cancelDelivery: .handler(verticals: food, owner: DeliveryReads.ownership(\.deliveryID, store: store), deliveries.cancel),
            getDelivery: .unimplemented,
            listDeliveries: .unimplemented,
            setCourierAvailability: .unimplemented,
            getCourierStatus: .unimplemented,
            reportLocation: .unimplemented,
            updateCourierLocation: .unimplemented,
            listAvailableCouriers: .handler(verticals: food, CourierRanking(commerce: commerce).list),
            watchCourierLocation: .unimplemented)
    }
}
