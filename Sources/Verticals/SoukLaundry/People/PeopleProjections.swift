import SoukKit
import SoukMessages
import SoukStore

/// What every caller sees of a stored dorm: the contract's `Dorm`, built field by field (an
/// allow-list: a field added to the stored record reaches no caller until a line here names it).
enum DormProjection {
    static func dorm(_ record: StoredRecord<DormRecord>) -> SoukV1.Dorm {
        let dorm = record.value.subject
        var shown = record.stamped(SoukV1.Dorm())
        shown.campus = dorm.campus
        shown.name = dorm.name
        shown.archived = dorm.archived
        return shown
    }
}

/// What a caller sees of a stored quiz question: the contract's `QuizQuestion`, built field by
/// field; the right answer is copied for staff only.
enum QuizQuestionProjection {
    /// Who reads the question.
    enum Viewer {
        /// Admins and operators, who keep the quiz: the question with its right answer.
        case staff
        /// Students taking the quiz: the question and its choices, not the answer.
        case student
    }

    static func viewer(_ call: SoukCall) -> Viewer { LaundryPeople.isStaff(call) ? .staff : .student }

    static func question(_ record: StoredRecord<QuizQuestionRecord>, for viewer: Viewer) -> SoukV1.QuizQuestion {
        let question = record.value.subject
        var shown = record.stamped(SoukV1.QuizQuestion())
        shown.text = question.text
        shown.choices = question.choices
        if viewer == .staff { shown.correctChoice = question.correctChoice }
        shown.archived = question.archived
        return shown
    }
}
