import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Payments`: paying jobs and bills, reading, listing and refunding payments.
struct PaymentsService {
    let payments: Payments
    var store: Store { payments.store }

    var declaration: SoukV1Services.Payments {
        SoukV1Services.Payments(
            createPayment: .handler(owner: createOwnership, createPayment),
            getPayment: .handler(owner: paymentOwnership, getPayment),
            listPayments: .handler(owner: Self.listOwnership, listPayments),
            refundPayment: .handler(refundPayment),
            // Cash on delivery is the orders' (`Commerce`'s `CashPayments`).
            markCashCollected: .unimplemented,
            confirmCashPayment: .unimplemented)
    }
}
