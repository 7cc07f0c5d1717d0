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
            createFeedback: .unimplemented,
            getFeedback: .unimplemented,
            listFeedback: .unimplemented,
            answerFeedback: .unimplemented,
            getRatingSummary: .unimplemented)
    }
}
