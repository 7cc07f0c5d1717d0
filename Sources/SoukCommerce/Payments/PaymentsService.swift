import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Payments`: paying jobs and bills, reading, listing and refunding payments, and cash
/// on delivery.
struct PaymentsService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Payments {
        SoukV1Services.Payments(
            createPayment: .handler(owner: createOwnership, createPayment),
            getPayment: .handler(owner: paymentOwnership, getPayment),
            listPayments: .handler(owner: Self.listOwnership, listPayments),
            refundPayment: .handler(refundPayment),
            markCashCollected: .handler(owner: CashPayments.ownership(\.paymentID, store: store), CashPayments(commerce: commerce).markCollected),
            confirmCashPayment: .handler(owner: CashPayments.ownership(\.paymentID, store: store), CashPayments(commerce: commerce).confirm))
    }
}
