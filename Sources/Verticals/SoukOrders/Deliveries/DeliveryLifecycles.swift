import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The delivery lifecycles: staff assigned by an admin (water services) and drivers answering
/// offers (food delivery). The Deliveries service arrives with the commerce domain.
/// The transitions of both delivery lifecycles.
public enum DeliveryMove: String, TransitionName {
    case start, delay, complete, cancel, accept, reject, expire
}

public enum DeliveryLifecycles {
    /// Aqua Hub: an admin assigns an approved order to delivery staff.
    public static let waterServices = StateMachine<SoukStoreV1.Delivery, SoukV1.DeliveryStatus, DeliveryMove>(
        "Water services delivery", resource: .delivery, state: \.status, initial: [.assigned],
        transitions: [
            Transition(
                .start, from: [.assigned, .delayed], to: .inProgress, by: [.courier, .admin],
                effects: [OrderEffects.tellCustomer("On the way") { _ in "Your order is on the way." }]),
            Transition(
                .delay, from: [.inProgress], to: .delayed, by: [.courier, .admin],
                effects: [OrderEffects.tellCustomer("Delivery delayed") { $0.note.isEmpty ? "Your delivery is delayed." : $0.note }]),
            // DOMAIN.md: in_progress ⇄ delayed → completed, so a delayed delivery may arrive.
            Transition(.complete, from: [.inProgress, .delayed], to: .completed, by: [.courier, .admin]),
            // An admin reassigning the order to other staff; the server when the order is
            // cancelled (by whoever may cancel it: the move is recorded as theirs).
            Transition(.cancel, from: [.assigned, .inProgress, .delayed], to: .cancelled, by: [.admin, .system]),
        ])

    /// DineSwift: the restaurant (or the server, to the nearest driver) offers the order.
    public static let foodDelivery = StateMachine<SoukStoreV1.Delivery, SoukV1.DeliveryStatus, DeliveryMove>(
        "Food delivery", resource: .delivery, state: \.status, initial: [.offered],
        transitions: [
            Transition(.accept, from: [.offered], to: .inProgress, by: [.courier]),
            Transition(.reject, from: [.offered], to: .rejected, by: [.courier]),
            // The offer was not answered within the marketplace's offer timeout.
            Transition(.expire, from: [.offered], to: .expired, by: [.system]),
            Transition(.complete, from: [.inProgress], to: .completed, by: [.courier, .admin]),
            // The driver withdraws, or the restaurant takes the offer back.
            Transition(.cancel, from: [.offered, .inProgress], to: .cancelled, by: [.courier, .provider, .admin]),
        ],
        timers: [offerLapse])

    /// An unanswered offer expires at its `offer_expire_time` (the marketplace's offer timeout
    /// after it was made); the handler (`DeliveryOffers.expireIfDue`) frees the driver and the
    /// order, tells them and offers the order to the next nearest driver.
    public static let offerLapse = LifecycleTimer<SoukStoreV1.Delivery, DeliveryMove>(
        "offer lapse", fires: .expire, at: "offer_expire_time"
    ) { delivery in
        delivery.status == .offered ? delivery.offerExpireTime.map { StoreTime($0) } : nil
    }
}
