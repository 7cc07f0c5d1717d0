import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Deliveries`: staff deliveries of water-services orders. Food delivery's offers and drivers are not served yet.
struct DeliveriesService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Deliveries {
        SoukV1Services.Deliveries(
            assignDelivery: .handler(verticals: [.waterServices], WaterDeliveries(commerce: commerce).assign),
            offerDelivery: .unimplemented,
            acceptDelivery: .unimplemented,
            rejectDelivery: .unimplemented,
            startDelivery: .handler(verticals: [.waterServices], owner: WaterDeliveries.ownership(\.deliveryID, store: store), WaterDeliveries(commerce: commerce).start),
            delayDelivery: .handler(verticals: [.waterServices], owner: WaterDeliveries.ownership(\.deliveryID, store: store), WaterDeliveries(commerce: commerce).delay),
            completeDelivery: .handler(owner: WaterDeliveries.ownership(\.deliveryID, store: store), WaterDeliveries(commerce: commerce).complete),
            cancelDelivery: .handler(owner: WaterDeliveries.ownership(\.deliveryID, store: store), WaterDeliveries(commerce: commerce).cancel),
            getDelivery: .handler(owner: WaterDeliveries.ownership(\.deliveryID, store: store), WaterDeliveries(commerce: commerce).get),
            listDeliveries: .handler(owner: WaterDeliveries.listOwnership(store: store), WaterDeliveries(commerce: commerce).list),
            setCourierAvailability: .unimplemented,
            getCourierStatus: .unimplemented,
            reportLocation: .unimplemented,
            listAvailableCouriers: .unimplemented,
            watchCourierLocation: .unimplemented)
    }
}
