import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A feedback entry as stored.
public typealias FeedbackRecord = MarketRecord<SoukV1.FeedbackEntry>

/// Feedback, with the index of each list `Feedback.ListFeedback` serves.
public enum FeedbackTable {
    static let bySubject = Index<FeedbackRecord>.nonUnique("feedback.subject") {
        [.string($0.marketplaceID), .string($0.subject.subject?.id ?? "")]
    }

    public static let table = marketTable("feedback", SoukV1.FeedbackEntry.self, indexes: [bySubject])

    static var all: [AnyTable] { [table.erased] }
}
