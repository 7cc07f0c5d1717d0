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
            assignDelivery: .unimplemented,
            offerDelivery: .unimplemented,
            acceptDelivery: .unimplemented,
            rejectDelivery: .unimplemented,
            startDelivery: .unimplemented,
            delayDelivery: .unimplemented,
            completeDelivery: .unimplemented,
            cancelDelivery: .unimplemented,
            getDelivery: .unimplemented,
            listDeliveries: .unimplemented,
            setCourierAvailability: .unimplemented,
            getCourierStatus: .unimplemented,
            reportLocation: .unimplemented,
            listAvailableCouriers: .unimplemented,
            watchCourierLocation: .unimplemented)
    }
}
