import SoukKit
import SoukMessages
import SoukStore

/// A dorm as stored: its own record (`souk.store.v1.Dorm`, without the id, version and times,
/// which the envelope holds) and its marketplace. RPCs answer with `DormProjection`.
typealias DormRecord = MarketRecord<SoukStoreV1.Dorm>
/// A quiz question as stored (`souk.store.v1.QuizQuestion`, with its right answer). RPCs answer
/// with `QuizQuestionProjection`.
typealias QuizQuestionRecord = MarketRecord<SoukStoreV1.QuizQuestion>

/// Dorms: unique (campus, name) per marketplace; listed by campus then name.
enum DormTable {
    static let byName = Index<DormRecord>.unique("dorms.name") {
        [.string($0.marketplaceID), .string($0.subject.campus.lowercased()), .string($0.subject.name.lowercased())]
    }
    /// (marketplace, shown-to-everyone flag, campus, name): one range per list; archived dorms
    /// have only the `false` entry, live ones both.
    static let byCampus = Index<DormRecord>.nonUnique("dorms.campus", keys: { record in
        [false, true].filter { !($0 && record.subject.archived) }.map { live in
            [.string(record.marketplaceID), .bool(live), .string(record.subject.campus), .string(record.subject.name)]
        }
    })
    static let table = marketTable("dorms", SoukStoreV1.Dorm.self, indexes: [byName, byCampus])
}

/// Quiz questions in the order they were added (version 7 ids order by creation).
enum QuizQuestionTable {
    /// (marketplace, live flag): the live questions are the quiz; `false` holds every question.
    static let byCreation = Index<QuizQuestionRecord>.nonUnique("quiz_questions.created", keys: { record in
        [false, true].filter { !($0 && record.subject.archived) }.map { [.string(record.marketplaceID), .bool($0)] }
    })
    static let table = marketTable("quiz_questions", SoukStoreV1.QuizQuestion.self, indexes: [byCreation])
}

/// A student's last quiz attempt, stored under the account's id.
struct QuizAttemptRecord: Sendable {
    var marketplaceID: String
    var attemptTime: StoreTime
    var scorePercent: Int
    var passed: Bool
}

enum QuizAttemptTable {
    static let table = Table(
        "quiz_attempts",
        codec: FieldCodec<QuizAttemptRecord>(
            write: { value, writer in
                writer.string(value.marketplaceID)
                writer.time(value.attemptTime)
                writer.int(Int64(value.scorePercent))
                writer.bool(value.passed)
            },
            read: { reader in
                QuizAttemptRecord(
                    marketplaceID: try reader.string(), attemptTime: try reader.time(), scorePercent: Int(try reader.int()),
                    passed: try reader.bool())
            }),
        indexes: [])
}

/// Every table of the people half of the laundry domain.
enum PeopleTables {
    static var all: [AnyTable] {
        [DormTable.table.erased, QuizQuestionTable.table.erased, QuizAttemptTable.table.erased, LaundryPersonTable.table.erased]
    }
}

// The laundry messages projections stamp with a stored record's envelope.
extension SoukV1.Dorm: StampedMessage {}
extension SoukV1.QuizQuestion: StampedMessage {}
extension SoukV1.Job: StampedMessage {}
