import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Feedback`: ratings of orders and rental bookings, answers, averages, and the list of
/// every vertical's ratings (laundry jobs' included).
struct FeedbackService {
    let commerce: Commerce
    var store: Store { commerce.store }

    var declaration: SoukV1Services.Feedback {
        let entries = FeedbackEntries(commerce: commerce)
        return SoukV1Services.Feedback(
            createFeedback: .handler(
                verticals: [.waterServices, .foodDelivery, .rentals],
                owner: FeedbackEntries.createOwnership(store: store, ratables: commerce.ratables), entries.create),
            getFeedback: .handler(owner: FeedbackEntries.entryOwnership(store: store), entries.get),
            listFeedback: .handler(entries.list),
            answerFeedback: .handler(entries.answer),
            getRatingSummary: .handler(entries.ratingSummary))
    }
}
