import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.PaymentGateway`: the simulated gateway's card tokens.
struct PaymentGatewayService {
    let payments: Payments
    var store: Store { payments.store }

    var declaration: SoukV1Services.PaymentGateway {
        SoukV1Services.PaymentGateway(
            createCardToken: .handler(createCardToken))
    }
}
