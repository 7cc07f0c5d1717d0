import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders

extension OrderLifecycles {
    /// Aqua Hub. Rescheduling (while pending or approved) changes the window, not the status,
    /// so it is not a transition.
    public static let waterServices = OrderLifecycle(
        "Water services order", resource: .order, state: \.status, initial: [.pending], streamed: true,
        transitions: [
            // Delivery-type services are approved by the server at placement; cleaning and
            // maintenance wait for an admin.
            Transition(.approve, from: [.pending], to: .approved, by: [.admin, .system]),
            Transition(.reject, from: [.pending], to: .cancelled, by: [.admin], effects: [OrderEffects.settlePayment, WaterOrderEffects.release]),
            Transition(
                .cancel, from: [.pending, .approved], to: .cancelled, by: [.customer, .admin], refusal: .cancelNotAllowed,
                effects: [OrderEffects.settlePayment, WaterOrderEffects.release]),
            // Completing the order's delivery completes the order.
            Transition(.complete, from: [.approved], to: .completed, by: [.courier, .admin], guards: [ordersCourier]),
        ])

    /// Chateau Du Nox.
    public static let retail = OrderLifecycle(
        "Retail order", resource: .order, state: \.status, initial: [.pending], streamed: true,
        transitions: [
            Transition(.ship, from: [.pending], to: .shipped, by: [.provider, .admin], effects: [OrderEffects.tellParties(OrderEffects.shipped)]),
            Transition(
                .deliver, from: [.shipped], to: .delivered, by: [.provider, .admin],
                effects: [OrderEffects.tellParties { .orderDelivered(number: $0.orderNumber) }]),
            Transition(
                .receive, from: [.delivered], to: .received, by: [.customer],
                effects: [OrderEffects.tellParties { .orderReceived(number: $0.orderNumber) }]),
            Transition(
                .cancel, from: [.pending], to: .cancelled, by: [.customer, .provider, .admin], refusal: .cancelNotAllowed,
                effects: [OrderEffects.settlePayment, RetailOrderEffects.restock]),
        ])
}
