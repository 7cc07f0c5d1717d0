import SoukKit
import SoukMessages
import SoukStore

/// A laundry record: one contract message of one marketplace (the envelope holds its id,
/// version and times).
struct LaundryRecord<Message: ProtoMessage & Sendable>: Sendable {
    var marketplaceID: String
    var subject: Message

    static var codec: FieldCodec<LaundryRecord> {
        FieldCodec.marketplaceMessage(Message.self, split: { ($0.marketplaceID, $0.subject) }, make: LaundryRecord.init)
    }
}

typealias DormRecord = LaundryRecord<SoukV1.Dorm>
typealias QuizQuestionRecord = LaundryRecord<SoukV1.QuizQuestion>

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
    static let table = Table("dorms", codec: DormRecord.codec, indexes: [byName, byCampus])
}

/// Quiz questions in the order they were added (version 7 ids order by creation).
enum QuizQuestionTable {
    /// (marketplace, live flag): the live questions are the quiz; `false` holds every question.
    static let byCreation = Index<QuizQuestionRecord>.nonUnique("quiz_questions.created", keys: { record in
        [false, true].filter { !($0 && record.subject.archived) }.map { [.string(record.marketplaceID), .bool($0)] }
    })
    static let table = Table("quiz_questions", codec: QuizQuestionRecord.codec, indexes: [byCreation])
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
    static var all: [AnyTable] { [DormTable.table.erased, QuizQuestionTable.table.erased, QuizAttemptTable.table.erased] }
}

/// A laundry contract message that names itself: the envelope holds its id, version and times.
protocol StampedLaundryMessage: ProtoMessage, Sendable {
    var id: String { get set }
    var version: Int64 { get set }
    var createTime: Timestamp? { get set }
    var updateTime: Timestamp? { get set }
}

extension SoukV1.Dorm: StampedLaundryMessage {}
extension SoukV1.QuizQuestion: StampedLaundryMessage {}
extension SoukV1.Job: StampedLaundryMessage {}

/// A stored laundry record holding one contract message.
protocol LaundrySubjectRecord {
    associatedtype Subject: StampedLaundryMessage
    var subject: Subject { get }
}

extension LaundryRecord: LaundrySubjectRecord where Message: StampedLaundryMessage {}
extension JobRecord: LaundrySubjectRecord {}

extension StoredRecord where Value: LaundrySubjectRecord {
    /// The contract's view: the message with the envelope's id, version and times.
    func api() -> Value.Subject {
        var message = value.subject
        message.id = id.description
        message.version = Int64(version)
        message.createTime = Timestamp(createdAt)
        message.updateTime = Timestamp(updatedAt)
        return message
    }
}
