import SoukGRPC
import SoukKit
import SoukMessages

/// The delivery lifecycles: staff assigned by an admin (water services) and drivers answering
/// offers (food delivery). The Deliveries service arrives with the commerce domain.
public enum DeliveryLifecycles {
    /// Aqua Hub: an admin assigns an approved order to delivery staff.
    public static let waterServices = StateMachine<SoukStoreV1.Delivery, SoukV1.DeliveryStatus>(
        "Water services delivery", resource: .delivery, state: \.status, initial: [.assigned],
        transitions: [
            Transition("start", from: [.assigned, .delayed], to: .inProgress, by: [.courier, .admin]),
            Transition("delay", from: [.inProgress], to: .delayed, by: [.courier, .admin]),
            // DOMAIN.md: in_progress ⇄ delayed → completed, so a delayed delivery may arrive.
            Transition("complete", from: [.inProgress, .delayed], to: .completed, by: [.courier, .admin]),
            // An admin reassigning the order to other staff.
            Transition("cancel", from: [.assigned, .inProgress, .delayed], to: .cancelled, by: [.admin]),
        ])

    /// DineSwift: the restaurant (or the server, to the nearest driver) offers the order.
    public static let foodDelivery = StateMachine<SoukStoreV1.Delivery, SoukV1.DeliveryStatus>(
        "Food delivery", resource: .delivery, state: \.status, initial: [.offered],
        transitions: [
            Transition("accept", from: [.offered], to: .inProgress, by: [.courier]),
            Transition("reject", from: [.offered], to: .rejected, by: [.courier]),
            // The offer was not answered within the marketplace's offer timeout.
            Transition("expire", from: [.offered], to: .expired, by: [.system]),
            Transition("complete", from: [.inProgress], to: .completed, by: [.courier, .admin]),
            // The driver withdraws, or the restaurant takes the offer back.
            Transition("cancel", from: [.offered, .inProgress], to: .cancelled, by: [.courier, .provider, .admin]),
        ])
}
