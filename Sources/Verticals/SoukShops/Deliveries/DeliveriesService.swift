import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// `souk.v1.Deliveries` as the shops serve it: staff deliveries of water-services orders, which
/// an admin assigns and the courier starts, delays, completes or an admin cancels. Completing
/// and cancelling serve every vertical but food delivery's, as before the modules were split.
struct DeliveriesService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Deliveries {
        let water = WaterDeliveries(commerce: commerce)
        return SoukV1Services.Deliveries(
            assignDelivery: .handler(verticals: [.waterServices], water.assign),
            offerDelivery: .unimplemented,
            acceptDelivery: .unimplemented,
            rejectDelivery: .unimplemented,
            startDelivery: .handler(verticals: [.waterServices], owner: DeliveryReads.ownership(\.deliveryID, store: store), water.start),
            delayDelivery: .handler(verticals: [.waterServices], owner: DeliveryReads.ownership(\.deliveryID, store: store), water.delay),
            completeDelivery: .handler(owner: DeliveryReads.ownership(\.deliveryID, store: store), water.complete),
            cancelDelivery: .handler(owner: DeliveryReads.ownership(\.deliveryID, store: store), water.cancel),
            getDelivery: .unimplemented,
            listDeliveries: .unimplemented,
            setCourierAvailability: .unimplemented,
            getCourierStatus: .unimplemented,
            reportLocation: .unimplemented,
            updateCourierLocation: .unimplemented,
            listAvailableCouriers: .unimplemented,
            watchCourierLocation: .unimplemented)
    }
}
