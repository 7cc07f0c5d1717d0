import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

extension DeliveryLifecycles {
    /// DineSwift: the restaurant (or the server, to the nearest driver) offers the order.
    public static let foodDelivery = StateMachine<SoukStoreV1.Delivery, SoukV1.DeliveryStatus, DeliveryMove>(
        "Food delivery", resource: .delivery, state: \.status, initial: [.offered],
        transitions: [
            Transition(.accept, from: [.offered], to: .inProgress, by: [.courier]),
            Transition(.reject, from: [.offered], to: .rejected, by: [.courier]),
            // The offer was not answered within the marketplace's offer timeout: only the
            // offer-lapse timer fires it.
            Transition(.expire, from: [.offered], to: .expired, by: [.system], effects: [DeliveryOffers.lapsed]),
            Transition(.complete, from: [.inProgress], to: .completed, by: [.courier, .admin]),
            // The driver withdraws, or the restaurant takes the offer back.
            Transition(.cancel, from: [.offered, .inProgress], to: .cancelled, by: [.courier, .provider, .admin]),
        ],
        // Until the scheduler fires it, calls see a due offer as expired
        // (`DeliveryLifecycles.settled`) without writing it.
        timers: [offerLapse])
}
