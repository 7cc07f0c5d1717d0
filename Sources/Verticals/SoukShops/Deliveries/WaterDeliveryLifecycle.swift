import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders

extension DeliveryLifecycles {
    /// Aqua Hub: an admin assigns an approved order to delivery staff.
    public static let waterServices = StateMachine<SoukStoreV1.Delivery, SoukV1.DeliveryStatus, DeliveryMove>(
        "Water services delivery", resource: .delivery, state: \.status, initial: [.assigned],
        transitions: [
            Transition(
                .start, from: [.assigned, .delayed], to: .inProgress, by: [.courier, .admin],
                effects: [OrderEffects.tellCustomer { number, _ in .deliveryOnTheWay(number: number) }]),
            Transition(
                .delay, from: [.inProgress], to: .delayed, by: [.courier, .admin],
                effects: [OrderEffects.tellCustomer { number, delivery in .deliveryDelayed(number: number, note: delivery.note) }]),
            // DOMAIN.md: in_progress ⇄ delayed → completed, so a delayed delivery may arrive.
            Transition(.complete, from: [.inProgress, .delayed], to: .completed, by: [.courier, .admin], effects: [WaterDeliveries.completeOrder]),
            // An admin reassigning the order to other staff; the server when the order is
            // cancelled (by whoever may cancel it: the move is recorded as theirs).
            Transition(.cancel, from: [.assigned, .inProgress, .delayed], to: .cancelled, by: [.admin, .system], effects: [WaterDeliveries.freeOrder]),
        ])
}
