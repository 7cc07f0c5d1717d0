import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

@testable import SoukLaundry

/// Ratings an earlier release kept in `laundry_ratings` move to the shared feedback table once,
/// with their ids, so Feedback.ListFeedback lists them.
@Suite struct LegacyJobRatingsTests {
    @Test func storedRatingsMoveToTheFeedbackTableOnce() async throws {
        let fixture = try await LaundryFixture.make()
        let store = fixture.harness.store
        var entry = SoukStoreV1.FeedbackEntry()
        entry.subject = SoukV1.ResourceRef(type: .job, id: "0190a0b0-0000-7000-8000-0000000000aa")
        entry.authorAccountID = "0190a0b0-0000-7000-8000-0000000000bb"
        entry.ratedAccountID = "0190a0b0-0000-7000-8000-0000000000cc"
        entry.stars = 4
        let value = entry
        let old = try await store.write { transaction in
            try transaction.insert(LegacyJobRatings.table, FeedbackRecord(marketplaceID: fixture.marketplace.id, value))
        }
        #expect(try await LegacyJobRatings.move(store: store) == 1)
        let moved = try #require(try store.get(FeedbackTable.table, old.id))
        #expect(moved.value.subject.stars == 4 && moved.value.subject.ratedAccountID == entry.ratedAccountID)
        #expect(try store.get(LegacyJobRatings.table, old.id) == nil)
        #expect(try await LegacyJobRatings.move(store: store) == 0)
    }
}
