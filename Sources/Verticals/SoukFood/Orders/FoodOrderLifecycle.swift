import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders

extension OrderLifecycles {
    /// DineSwift. The driver's answers to a delivery offer move the order too. A cancelled or
    /// rejected order leaves the reports before its payment is settled: the driver's collected
    /// cash is known only until the settlement voids it.
    public static let foodDelivery = OrderLifecycle(
        "Food delivery order", resource: .order, state: \.status, initial: [.placed], streamed: true,
        transitions: [
            Transition(
                .accept, from: [.placed], to: .preparing, by: [.provider],
                effects: [OrderEffects.tellParties { .foodOrderPreparing(number: $0.orderNumber) }]),
            Transition(.reject, from: [.placed], to: .cancelled, by: [.provider], effects: [FoodOrderEffects.leaveReports, OrderEffects.settlePayment]),
            // A driver accepted the offer.
            Transition(.dispatch, from: [.preparing], to: .outForDelivery, by: [.courier]),
            // The delivery was cancelled (the driver withdrew, or it was taken back): offer it again.
            Transition(.reoffer, from: [.outForDelivery], to: .preparing, by: [.courier, .provider, .admin], guards: [ordersCourier]),
            Transition(.deliver, from: [.outForDelivery], to: .delivered, by: [.courier, .admin], guards: [ordersCourier]),
            Transition(
                .complete, from: [.delivered], to: .completed, by: [.provider, .admin],
                effects: [OrderEffects.tellParties { .foodOrderCompleted(number: $0.orderNumber) }]),
            Transition(.cancel, from: [.placed, .preparing, .outForDelivery, .delivered], to: .cancelled, by: [.provider, .admin],
                refusal: .cancelNotAllowed, effects: [FoodOrderEffects.leaveReports, OrderEffects.settlePayment]),
        ])
}
