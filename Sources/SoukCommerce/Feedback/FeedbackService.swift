import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Feedback`: ratings of completed water-services orders, answers and averages.
struct FeedbackService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Feedback {
        SoukV1Services.Feedback(
            createFeedback: .handler(verticals: [.waterServices], owner: WaterFeedback.createOwnership(store: store), WaterFeedback(commerce: commerce).create),
            getFeedback: .handler(owner: WaterFeedback.entryOwnership(store: store), WaterFeedback(commerce: commerce).get),
            listFeedback: .handler(WaterFeedback(commerce: commerce).list),
            answerFeedback: .handler(WaterFeedback(commerce: commerce).answer),
            getRatingSummary: .handler(WaterFeedback(commerce: commerce).ratingSummary))
    }
}
