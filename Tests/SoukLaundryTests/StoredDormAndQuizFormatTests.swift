import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing
@testable import SoukLaundry

/// The dorms and quiz_questions tables stored `souk.v1.Dorm` and `souk.v1.QuizQuestion` before
/// they had records of their own (`souk.store.v1.Dorm` and `QuizQuestion`, which keep their field
/// numbers): such records still read, and the projections send them as the contract has them,
/// the right answer to staff only.
@Suite struct StoredDormAndQuizFormatTests {
    static let time = StoreTime(microsecondsSinceEpoch: 1_796_083_200_000_000)

    /// An archived dorm as the previous format wrote it (its codec: format byte 1, the
    /// marketplace id, then the souk.v1.Dorm's bytes, made with `protoc --encode=souk.v1.Dorm`
    /// from the contract before this change).
    static let previousDorm = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d35653666376138623963306416120542757363681a0b4d61
        747469612048616c6c2001
        """)

    /// A question whose right answer is the first choice, as the previous format wrote it
    /// (`protoc --encode=souk.v1.QuizQuestion`, the same codec): the answer 0 is on the wire,
    /// as a one-field oneof writes it.
    static let previousQuestion = hexBytes("""
        012430313930663361342d376331652d376432612d396233632d35653666376138623963306450122a5768617420646f2079
        6f7520636c65616e206265666f7265206576657279206472796572206c6f61643f1a0d546865206c696e7420747261701a08
        546865206472756d1a074e6f7468696e672000
        """)

    @Test func aDormWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousDorm.withUnsafeBytes { try DormTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        #expect(value.subject == SoukStoreV1.Dorm(campus: "Busch", name: "Mattia Hall", archived: true))
        let record = StoredRecord(id: RecordID.generate(), version: 2, createdAt: Self.time, updatedAt: Self.time, value: value)
        let shown = DormProjection.dorm(record)
        #expect(shown.id == record.id.description && shown.version == 2 && shown.createTime == Timestamp(Self.time))
        #expect(shown.campus == "Busch" && shown.name == "Mattia Hall" && shown.archived)
    }

    @Test func aQuizQuestionWrittenByThePreviousFormatReads() throws {
        let value = try Self.previousQuestion.withUnsafeBytes { try QuizQuestionTable.table.codec.decode($0) }
        #expect(value.marketplaceID == "0190f3a4-7c1e-7d2a-9b3c-5e6f7a8b9c0d")
        let question = value.subject
        #expect(question.text == "What do you clean before every dryer load?" && question.choices == ["The lint trap", "The drum", "Nothing"])
        #expect(question.correctChoice == 0 && !question.archived)
        let record = StoredRecord(id: RecordID.generate(), version: 1, createdAt: Self.time, updatedAt: Self.time, value: value)
        let staff = QuizQuestionProjection.question(record, for: .staff)
        #expect(staff.id == record.id.description && staff.version == 1 && staff.text == question.text && staff.choices == question.choices)
        #expect(staff.correctChoice == 0)
        let student = QuizQuestionProjection.question(record, for: .student)
        #expect(student.choices == question.choices && student.correctChoice == nil)
    }
}
