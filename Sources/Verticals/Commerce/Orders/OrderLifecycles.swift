import SoukGRPC
import SoukKit
import SoukMessages

/// The order lifecycles of the three ordering verticals (one `OrderStatus` enum, one machine per
/// vertical). The Orders service arrives with the commerce domain and fires these transitions.
public enum OrderLifecycles {
    /// A courier moves an order only through its own delivery.
    static let ordersCourier = TransitionGuard<SoukStoreV1.Order>.only(.courier, "only the order's courier") { $0.courierAccountID }

    /// Aqua Hub. Rescheduling (while pending or approved) changes the window, not the status,
    /// so it is not a transition.
    public static let waterServices = StateMachine<SoukStoreV1.Order, SoukV1.OrderStatus>(
        "Water services order", resource: .order, state: \.status, initial: [.pending], streamed: true,
        transitions: [
            // Delivery-type services are approved by the server at placement; cleaning and
            // maintenance wait for an admin.
            Transition("approve", from: [.pending], to: .approved, by: [.admin, .system]),
            Transition("reject", from: [.pending], to: .cancelled, by: [.admin]),
            Transition("cancel", from: [.pending, .approved], to: .cancelled, by: [.customer, .admin], refusal: .cancelNotAllowed),
            // Completing the order's delivery completes the order.
            Transition("complete", from: [.approved], to: .completed, by: [.courier, .admin], guards: [ordersCourier]),
        ])

    /// Chateau Du Nox.
    public static let retail = StateMachine<SoukStoreV1.Order, SoukV1.OrderStatus>(
        "Retail order", resource: .order, state: \.status, initial: [.pending], streamed: true,
        transitions: [
            Transition("ship", from: [.pending], to: .shipped, by: [.provider, .admin]),
            Transition("deliver", from: [.shipped], to: .delivered, by: [.provider, .admin]),
            Transition("receive", from: [.delivered], to: .received, by: [.customer]),
            Transition("cancel", from: [.pending], to: .cancelled, by: [.customer, .provider, .admin], refusal: .cancelNotAllowed),
        ])

    /// DineSwift. The driver's answers to a delivery offer move the order too.
    public static let foodDelivery = StateMachine<SoukStoreV1.Order, SoukV1.OrderStatus>(
        "Food delivery order", resource: .order, state: \.status, initial: [.placed], streamed: true,
        transitions: [
            Transition("accept", from: [.placed], to: .preparing, by: [.provider]),
            Transition("reject", from: [.placed], to: .cancelled, by: [.provider]),
            // A driver accepted the offer.
            Transition("dispatch", from: [.preparing], to: .outForDelivery, by: [.courier]),
            // The delivery was cancelled (the driver withdrew, or it was taken back): offer it again.
            Transition("reoffer", from: [.outForDelivery], to: .preparing, by: [.courier, .provider, .admin], guards: [ordersCourier]),
            Transition("deliver", from: [.outForDelivery], to: .delivered, by: [.courier, .admin], guards: [ordersCourier]),
            Transition("complete", from: [.delivered], to: .completed, by: [.provider, .admin]),
            Transition(
                "cancel", from: [.placed, .preparing, .outForDelivery, .delivered], to: .cancelled, by: [.provider, .admin],
                refusal: .cancelNotAllowed),
        ])
}
