import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Feedback`: ratings of completed water-services and food orders, answers and averages.
struct FeedbackService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Feedback {
        SoukV1Services.Feedback(
            createFeedback: .handler(verticals: [.waterServices, .foodDelivery], owner: OrderFeedback.createOwnership(store: store), OrderFeedback(commerce: commerce).create),
            getFeedback: .handler(owner: OrderFeedback.entryOwnership(store: store), OrderFeedback(commerce: commerce).get),
            listFeedback: .handler(OrderFeedback(commerce: commerce).list),
            answerFeedback: .handler(OrderFeedback(commerce: commerce).answer),
            getRatingSummary: .handler(OrderFeedback(commerce: commerce).ratingSummary))
    }
}
