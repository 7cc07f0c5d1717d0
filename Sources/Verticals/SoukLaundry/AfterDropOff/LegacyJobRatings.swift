import SoukKit
import SoukMessages
import SoukStore

/// Ratings of jobs as stores kept them before every vertical's feedback shared the kit's
/// `FeedbackTable`: a scheduled job of `Laundry.background` moves them there once at start, keeping their ids, so a store
/// of an earlier release loses none and `Feedback.ListFeedback` lists them.
enum LegacyJobRatings {
    static let byJobAndAuthor = Index<FeedbackRecord>.unique("laundry_ratings.job_author") {
        [.string($0.marketplaceID), .string($0.subject.subject?.id ?? ""), .string($0.subject.authorAccountID)]
    }
    /// Its records were `souk.v1.FeedbackEntry`; they read as the feedback table's record, which
    /// keeps those field numbers.
    static let table = marketTable("laundry_ratings", SoukStoreV1.FeedbackEntry.self, indexes: [byJobAndAuthor])

    /// Moves every rating left in the old table to `FeedbackTable`, a page per transaction;
    /// returns how many moved.
    static func move(store: Store) async throws -> Int {
        var moved = 0
        while true {
            let batch = try store.list(table, byJobAndAuthor, page: PageRequest(size: PageRequest.maximumSize)).items
            guard !batch.isEmpty else { return moved }
            try await store.write { transaction in
                for old in batch {
                    guard let record = try transaction.get(table, old.id) else { continue }
                    if try transaction.get(FeedbackTable.table, record.id) == nil {
                        try transaction.insert(FeedbackTable.table, record.value, id: record.id)
                    }
                    try transaction.delete(table, record.id)
                }
            }
            moved += batch.count
        }
    }
}
