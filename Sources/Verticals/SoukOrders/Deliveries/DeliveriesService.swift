import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Deliveries` as the shared orders serve it: reading deliveries, and couriers (food
/// drivers, water delivery staff): their availability and position, and the customer watching
/// it. The shops serve their staff deliveries' moves, food delivery its offers and drivers'.
struct DeliveriesService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Deliveries {
        let reads = DeliveryReads(commerce: commerce)
        let couriers = CourierAvailability(commerce: commerce)
        return SoukV1Services.Deliveries(
            assignDelivery: .unimplemented,
            offerDelivery: .unimplemented,
            acceptDelivery: .unimplemented,
            rejectDelivery: .unimplemented,
            startDelivery: .unimplemented,
            delayDelivery: .unimplemented,
            completeDelivery: .unimplemented,
            cancelDelivery: .unimplemented,
            getDelivery: .handler(owner: DeliveryReads.ownership(\.deliveryID, store: store), reads.get),
            listDeliveries: .handler(owner: DeliveryReads.listOwnership(store: store), reads.list),
            setCourierAvailability: .handler(verticals: Self.tracked, couriers.setAvailability),
            getCourierStatus: .handler(verticals: Self.tracked, owner: CourierAvailability.statusOwnership, couriers.status),
            reportLocation: .handler(verticals: Self.tracked, couriers.reportStream),
            updateCourierLocation: .handler(verticals: Self.tracked, couriers.update),
            listAvailableCouriers: .unimplemented,
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
    package static func passingMalformed(_ id: @escaping @Sendable (Request) -> String, _ rule: Ownership) -> Ownership {
        Ownership { request, call, caller, roles in
            RecordID(id(request)) == nil ? true : try rule.isOwner(request, call, caller, roles)
        }
    }
}

extension SoukCall {
    /// Whether the call is in a food-delivery marketplace.
    var isFood: Bool { marketplace?.vertical == .foodDelivery }
}
