import SoukGRPC
import SoukKit
import SoukMessages

/// The order lifecycles of the three ordering verticals (one `OrderStatus` enum, one machine per
/// vertical). The Orders service arrives with the commerce domain and fires these transitions.
/// The transitions of the three order lifecycles (each declares those of its vertical).
public enum OrderMove: String, TransitionName {
    case approve, reject, cancel, complete, ship, deliver, receive, accept, dispatch, reoffer
}

public enum OrderLifecycles {
    /// A courier moves an order only through its own delivery.
    static let ordersCourier = TransitionGuard<SoukStoreV1.Order>.only(.courier, "only the order's courier") { $0.courierAccountID }

    /// Aqua Hub. Rescheduling (while pending or approved) changes the window, not the status,
    /// so it is not a transition.
    public static let waterServices = StateMachine<SoukStoreV1.Order, SoukV1.OrderStatus, OrderMove>(
        "Water services order", resource: .order, state: \.status, initial: [.pending], streamed: true,
        transitions: [
            // Delivery-type services are approved by the server at placement; cleaning and
            // maintenance wait for an admin.
            Transition(.approve, from: [.pending], to: .approved, by: [.admin, .system]),
            Transition(.reject, from: [.pending], to: .cancelled, by: [.admin], effects: [OrderEffects.settlePayment]),
            Transition(
                .cancel, from: [.pending, .approved], to: .cancelled, by: [.customer, .admin], refusal: .cancelNotAllowed,
                effects: [OrderEffects.settlePayment]),
            // Completing the order's delivery completes the order.
            Transition(.complete, from: [.approved], to: .completed, by: [.courier, .admin], guards: [ordersCourier]),
        ])

    /// Chateau Du Nox.
    public static let retail = StateMachine<SoukStoreV1.Order, SoukV1.OrderStatus, OrderMove>(
        "Retail order", resource: .order, state: \.status, initial: [.pending], streamed: true,
        transitions: [
            Transition(.ship, from: [.pending], to: .shipped, by: [.provider, .admin], effects: [OrderEffects.tellParties("shipped", body: OrderEffects.shipped)]),
            Transition(
                .deliver, from: [.shipped], to: .delivered, by: [.provider, .admin],
                effects: [OrderEffects.tellParties("delivered") { _ in "Your order was delivered. Please confirm you received it." }]),
            Transition(
                .receive, from: [.delivered], to: .received, by: [.customer],
                effects: [OrderEffects.tellParties("received") { _ in "Thank you for confirming receipt." }]),
            Transition(
                .cancel, from: [.pending], to: .cancelled, by: [.customer, .provider, .admin], refusal: .cancelNotAllowed,
                effects: [OrderEffects.settlePayment]),
        ])

    /// DineSwift. The driver's answers to a delivery offer move the order too.
    public static let foodDelivery = StateMachine<SoukStoreV1.Order, SoukV1.OrderStatus, OrderMove>(
        "Food delivery order", resource: .order, state: \.status, initial: [.placed], streamed: true,
        transitions: [
            Transition(
                .accept, from: [.placed], to: .preparing, by: [.provider],
                effects: [OrderEffects.tellParties("is being prepared") { _ in "The restaurant accepted your order and is preparing it." }]),
            Transition(.reject, from: [.placed], to: .cancelled, by: [.provider], effects: [OrderEffects.settlePayment]),
            // A driver accepted the offer.
            Transition(.dispatch, from: [.preparing], to: .outForDelivery, by: [.courier]),
            // The delivery was cancelled (the driver withdrew, or it was taken back): offer it again.
            Transition(.reoffer, from: [.outForDelivery], to: .preparing, by: [.courier, .provider, .admin], guards: [ordersCourier]),
            Transition(.deliver, from: [.outForDelivery], to: .delivered, by: [.courier, .admin], guards: [ordersCourier]),
            Transition(
                .complete, from: [.delivered], to: .completed, by: [.provider, .admin],
                effects: [OrderEffects.tellParties("completed") { _ in "Thank you! You can now rate the restaurant and the driver." }]),
            Transition(.cancel, from: [.placed, .preparing, .outForDelivery, .delivered], to: .cancelled, by: [.provider, .admin],
                refusal: .cancelNotAllowed, effects: [OrderEffects.settlePayment]),
        ])
}
