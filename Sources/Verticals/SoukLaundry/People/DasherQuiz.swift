import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// The Dasher quiz: admins keep the questions; a student's graded answers make them a Dasher.
extension LaundryPeople {
    /// 80 % or more passes (the report's rule).
    static let passPercent = 80
    /// After a fail the quiz may be taken again 24 hours later (the report's rule), unless the
    /// marketplace sets `LaundrySettings.quiz_retry_delay`.
    static let defaultRetryDelay: Duration = .seconds(24 * 3600)
    /// The quiz is one page of the live questions.
    static let maxQuestions = 100

    static let questionMaskPaths: Set<String> = ["text", "choices", "correct_choice", "archived"]

    func createQuizQuestion(_ request: SoukV1.CreateQuizQuestionRequest, _ call: SoukCall) async throws -> SoukV1.QuizQuestion {
        var question = SoukStoreV1.QuizQuestion()
        Self.apply(Self.questionMaskPaths.subtracting(["archived"]), from: request.question ?? SoukV1.QuizQuestion(), to: &question)
        var checks = FieldChecks()
        try checks.check { _ = try RequestFields.requestID(request.requestID) }
        try Self.check(question, paths: Self.questionMaskPaths, into: &checks)
        try checks.finish()
        let viewer = QuizQuestionProjection.viewer(call)
        return try await createOnce(
            QuizQuestionTable.table, question, resource: .quizQuestion, request: request, requestID: request.requestID, call,
            view: { QuizQuestionProjection.question($0, for: viewer) })
    }

    func listQuizQuestions(_ request: SoukV1.ListQuizQuestionsRequest, _ call: SoukCall) async throws -> SoukV1.ListQuizQuestionsResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let staff = Self.isStaff(call)
        let live = !(staff && request.showArchived)
        let filters = "live=\(live)"
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let result = try store.list(
            QuizQuestionTable.table, QuizQuestionTable.byCreation, .starting(with: [.string(marketplaceID.description), .bool(live)]),
            page: page)
        // Students get the questions without the answers.
        let viewer = QuizQuestionProjection.viewer(call)
        let questions = result.items.map { QuizQuestionProjection.question($0, for: viewer) }
        return SoukV1.ListQuizQuestionsResponse(
            questions: questions, nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    func updateQuizQuestion(_ request: SoukV1.UpdateQuizQuestionRequest, _ call: SoukCall) async throws -> SoukV1.QuizQuestion {
        let (marketplaceID, _) = try call.requireMarketplace()
        let input = request.question ?? SoukV1.QuizQuestion()
        var checks = FieldChecks()
        let questionID = try checks.run { try RequestFields.id(input.id, field: "question.id") }
        let maskPaths = try checks.run { try RequestFields.maskPaths(request.updateMask, allowed: Self.questionMaskPaths) }
        let expectedVersion = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        // The fields the mask names are checked now; the whole question again once merged.
        let named = Set(maskPaths ?? []).intersection(["text", "choices"])
        var given = SoukStoreV1.QuizQuestion()
        Self.apply(named, from: input, to: &given)
        try Self.check(given, paths: named, into: &checks)
        try checks.finish()
        let (id, paths, expected) = (questionID!, maskPaths!, expectedVersion ?? nil)
        let actor = AuditActor(call)
        let market = marketplaceID.description
        let viewer = QuizQuestionProjection.viewer(call)
        return try await store.write { transaction in
            guard let current = try transaction.get(QuizQuestionTable.table, id), current.value.marketplaceID == market else {
                throw RPCError.notFound("question", id.description)
            }
            if let expected, expected != current.version {
                throw RPCError.staleVersion("question", id.description, expected: expected, actual: current.version)
            }
            var question = current.value.subject
            Self.apply(paths, from: input, to: &question)
            // The whole question must stay consistent (a shorter choice list, a moved answer).
            var merged = FieldChecks()
            try Self.check(question, paths: Self.questionMaskPaths, into: &merged)
            try merged.finish()
            let updated = try transaction.update(QuizQuestionTable.table, id) { $0.subject = question }
            try AuditLog.record(
                in: transaction, marketplaceID: market, resource: SoukV1.ResourceRef(type: .quizQuestion, id: id.description),
                actor: actor, reason: "updated: " + paths.joined(separator: ", "), resourceVersion: updated.version)
            return QuizQuestionProjection.question(updated, for: viewer)
        }
    }

    func submitQuizAnswers(_ request: SoukV1.SubmitQuizAnswersRequest, _ call: SoukCall) async throws -> SoukV1.QuizResult {
        let caller = try LaundryStudents.caller(call, store)
        let callerID = try call.requireCaller().accountID
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let retryDelay = marketplace.settings?.laundry?.quizRetryDelay.flatMap { $0 > .zero ? $0 : nil } ?? Self.defaultRetryDelay
        var checks = FieldChecks()
        checks.require(request.dasherAge == 0 || (16...120).contains(request.dasherAge), "dasher_age", "must be between 16 and 120")
        var chosen: [RecordID: Int32] = [:]
        for (index, answer) in request.answers.enumerated() {
            guard let id = try checks.run({ try RequestFields.id(answer.questionID, field: "answers[\(index)].question_id") }) else { continue }
            checks.require(chosen.updateValue(answer.choice, forKey: id) == nil, "answers[\(index)].question_id", "answers the same question twice")
        }
        try checks.finish()
        try LaundryStudents.requireVerified(caller)
        try Self.requireNotDasher(caller)
        let market = marketplaceID.description
        let questions = try store.list(
            QuizQuestionTable.table, QuizQuestionTable.byCreation, .starting(with: [.string(market), .bool(true)]),
            page: PageRequest(size: Self.maxQuestions)
        ).items
        guard !questions.isEmpty else {
            throw RPCError.souk(.failedPrecondition, .quizUnavailable, "the quiz has no questions yet")
        }
        let asked = Set(questions.map(\.id))
        var unknown = FieldChecks()
        for (index, answer) in request.answers.enumerated() where !asked.contains(RecordID(answer.questionID)!) {
            unknown.add("answers[\(index)].question_id", "is not a question of the quiz")
        }
        try unknown.finish()
        let correct = questions.filter { chosen[$0.id] == $0.value.subject.correctChoice }.count
        let score = correct * 100 / questions.count
        let passed = score >= Self.passPercent
        let age = request.dasherAge
        let actor = AuditActor(call)
        return try await store.write { transaction in
            guard let account = try LaundryStudents.account(callerID, marketplaceID: market, transaction) else {
                throw RPCError.notFound("account", callerID.description)
            }
            try Self.requireNotDasher(account)
            if let last = try transaction.get(QuizAttemptTable.table, callerID), !last.value.passed {
                let retry = last.value.attemptTime.adding(retryDelay)
                if retry > transaction.now {
                    let left = retry.microsecondsSinceEpoch - transaction.now.microsecondsSinceEpoch
                    throw RPCError.souk(
                        .resourceExhausted, .quizRetryTooSoon,
                        "the quiz was failed with \(last.value.scorePercent) %: retry in \(Self.wait(left)) (at \(Timestamp(retry)))",
                        retryDelay: .microseconds(left))
                }
            }
            if !passed, account.dasherProfile == nil, age == 0 {
                // Nothing to keep: the age is asked only of those who pass.
            } else if passed, account.dasherProfile == nil, age == 0 {
                throw RPCError.invalidField("dasher_age", "is required to become a Dasher (16 to 120)")
            }
            let attempt = QuizAttemptRecord(marketplaceID: market, attemptTime: transaction.now, scorePercent: score, passed: passed)
            if try transaction.get(QuizAttemptTable.table, callerID) != nil {
                try transaction.update(QuizAttemptTable.table, callerID) { $0 = attempt }
            } else {
                try transaction.insert(QuizAttemptTable.table, attempt, id: callerID)
            }
            var result = SoukV1.QuizResult(
                correct: Int32(correct), total: Int32(questions.count), scorePercent: Int32(score), passed: passed)
            if passed {
                // The courier role is identity's (granted through its API); the Dasher profile is laundry's.
                try AccountRoles.set(
                    .courier, of: callerID, to: .active, decidedBy: "", actor: actor, auditReason: "Dasher quiz passed with \(score) %",
                    transaction: transaction)
                try LaundryProfiles.makeDasher(callerID, marketplaceID: market, age: age, active: true, transaction: transaction)
            } else {
                result.retryTime = Timestamp(transaction.now.adding(retryDelay))
            }
            result.account = try LaundryStudents.account(callerID, marketplaceID: market, transaction)
            return result
        }
    }

    /// FAILED_PRECONDITION (ALREADY_DASHER) for an account whose courier role is active.
    static func requireNotDasher(_ account: SoukV1.Account) throws {
        if account.roles.contains(where: { $0.role == .courier && $0.status == .active }) {
            throw RPCError.souk(.failedPrecondition, .alreadyDasher, "the account is already a Dasher")
        }
    }

    /// Copies the fields of `paths` from `input` onto `question`.
    static func apply(_ paths: some Sequence<String>, from input: SoukV1.QuizQuestion, to question: inout SoukStoreV1.QuizQuestion) {
        for path in paths {
            switch path {
            case "text": question.text = input.text
            case "choices": question.choices = input.choices
            case "correct_choice": question.correctChoice = input.correctChoice
            default: question.archived = input.archived
            }
        }
    }

    /// Records in `checks` what is wrong with the fields `paths` names of `question` (named as
    /// the request's `question` fields).
    static func check(_ question: SoukStoreV1.QuizQuestion, paths: Set<String>, into checks: inout FieldChecks) throws {
        if paths.contains("text") {
            let text = question.text.trimmingCharacters(in: .whitespaces)
            checks.require(!text.isEmpty && question.text.count <= 500, "question.text", "must be 1 to 500 characters")
        }
        if paths.contains("choices") {
            checks.require((2...6).contains(question.choices.count), "question.choices", "must hold 2 to 6 choices")
            for (index, choice) in question.choices.enumerated() {
                let blank = choice.trimmingCharacters(in: .whitespaces).isEmpty
                checks.require(!blank && choice.count <= 200, "question.choices[\(index)]", "must be 1 to 200 characters")
            }
        }
        if paths.contains("correct_choice") {
            if let choice = question.correctChoice {
                checks.require(question.choices.indices.contains(Int(choice)), "question.correct_choice", "must be the index of one of the choices")
            } else {
                checks.add("question.correct_choice", "is required: the index of the right choice (0 is the first)")
            }
        }
    }

    /// The wait, rounded up to the largest unit it reaches: "23 hours", "1 hour", "5 minutes", "30 seconds".
    static func wait(_ microseconds: Int64) -> String {
        let units: [(Int64, String)] = [(3_600_000_000, "hour"), (60_000_000, "minute"), (1_000_000, "second")]
        let (size, name) = units.first { microseconds >= $0.0 } ?? units[units.count - 1]
        let count = (microseconds + size - 1) / size
        return count == 1 ? "1 \(name)" : "\(count) \(name)s"
    }
}
