import SoukKit
import SoukMessages
import SoukStore

/// How a payment is shown to the caller of any RPC that answers one.
public enum PaymentViews {
    /// The payment with the transitions `call`'s caller may fire on it now. Its seller is its
    /// payee, or every provider where the marketplace itself sells (retail and water orders).
    /// The order's courier is left out: a courier's collection of cash is recorded by
    /// Deliveries.CompleteDelivery, never by a call of its own.
    public static func view(_ payment: SoukV1.Payment, _ call: SoukCall) -> SoukV1.Payment {
        var payment = payment
        let vertical = call.marketplace?.vertical ?? .unspecified
        let marketplaceSells = [.retail, .waterServices].contains(vertical) && payment.target?.type == .order
        payment.availableTransitions = PaymentLifecycle.machine.available(on: payment, for: call, parties: [
            .customer: .account(payment.payerAccountID),
            .provider: marketplaceSells ? .anyHolder : .account(payment.payeeAccountID),
        ])
        return payment
    }

    public static func view(_ record: StoredRecord<PaymentRecord>, _ call: SoukCall) -> SoukV1.Payment {
        view(record.api(), call)
    }
}
