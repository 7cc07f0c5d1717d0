import SoukGRPC
import SoukKit
import SoukMessages

/// The payment lifecycle's transitions.
public enum PaymentMove: String, TransitionName {
    case charge, decline, collect, confirm, void, refundPart = "refund_part", refund
}

/// The payment lifecycle of orders, laundry jobs and rental bills.
public enum PaymentLifecycle {
    /// Electronic payments are charged when created, so most start SUCCESSFUL (or FAILED when a
    /// water-services order keeps its declined payment); cash starts PENDING.
    public static let machine = StateMachine<SoukStoreV1.Payment, SoukV1.PaymentStatus, PaymentMove>(
        "Payment", resource: .payment, state: \.status, initial: [.pending, .successful, .failed],
        transitions: [
            // The gateway's answer to a charge.
            Transition(.charge, from: [.pending], to: .successful, by: [.system]),
            Transition(.decline, from: [.pending], to: .failed, by: [.system]),
            // Cash on delivery: in the courier's hands, then confirmed by the seller.
            Transition(.collect, from: [.pending], to: .collected, by: [.courier]),
            Transition(.confirm, from: [.pending, .collected], to: .successful, by: [.provider, .admin]),
            // Cash of an order cancelled before the seller confirmed it: never received. The
            // server fires it when the order is cancelled (an admin cancels the order).
            Transition(.void, from: [.pending, .collected], to: .failed, by: [.system]),
            // By an admin, or by the server when a paid order is cancelled or a dispute resolved.
            Transition(.refundPart, from: [.successful, .partiallyRefunded], to: .partiallyRefunded, by: [.admin, .system]),
            Transition(.refund, from: [.successful, .partiallyRefunded], to: .refunded, by: [.admin, .system]),
        ])
}
