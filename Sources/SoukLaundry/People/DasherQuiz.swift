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
        var question = request.question ?? SoukV1.QuizQuestion()
        try Self.check(question, paths: Self.questionMaskPaths)
        question.archived = false
        return try await createOnce(
            QuizQuestionTable.table, question, resource: .quizQuestion, request: request, requestID: request.requestID, call)
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
        let questions = result.items.map { record in
            var question: SoukV1.QuizQuestion = record.api()
            if !staff { question.correctChoice = 0 }  // students get the questions without the answers
            return question
        }
        return SoukV1.ListQuizQuestionsResponse(
            questions: questions, nextPageToken: RequestFields.nextPageToken(result.nextPageToken, filters: filters))
    }

    func updateQuizQuestion(_ request: SoukV1.UpdateQuizQuestionRequest, _ call: SoukCall) async throws -> SoukV1.QuizQuestion {
        let (marketplaceID, _) = try call.requireMarketplace()
        let input = request.question ?? SoukV1.QuizQuestion()
        let id = try RequestFields.id(input.id, field: "question.id")
        let paths = try RequestFields.maskPaths(request.updateMask, allowed: Self.questionMaskPaths)
        let expected = try RequestFields.expectedVersion(request.expectedVersion)
        let actor = AuditActor(call)
        let market = marketplaceID.description
        return try await store.write { transaction in
            guard let current = try transaction.get(QuizQuestionTable.table, id), current.value.marketplaceID == market else {
                throw RPCError.notFound("question", id.description)
            }
            if let expected, expected != current.version {
                throw RPCError.staleVersion("question", id.description, expected: expected, actual: current.version)
            }
            var question = current.value.subject
            for path in paths {
                switch path {
                case "text": question.text = input.text
                case "choices": question.choices = input.choices
                case "correct_choice": question.correctChoice = input.correctChoice
                default: question.archived = input.archived
                }
            }
            // The whole question must stay consistent (a shorter choice list, a moved answer).
            try Self.check(question, paths: Self.questionMaskPaths)
            let updated = try transaction.update(QuizQuestionTable.table, id) { $0.subject = question }
            try AuditLog.record(
                in: transaction, marketplaceID: market, resource: SoukV1.ResourceRef(type: .quizQuestion, id: id.description),
                actor: actor, reason: "updated: " + paths.joined(separator: ", "), resourceVersion: updated.version)
            return updated.api()
        }
    }

    func submitQuizAnswers(_ request: SoukV1.SubmitQuizAnswersRequest, _ call: SoukCall) async throws -> SoukV1.QuizResult {
        let caller = try LaundryStudents.callerRecord(call, store)
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let retryDelay = marketplace.settings?.laundry?.quizRetryDelay.flatMap { $0 > .zero ? $0 : nil } ?? Self.defaultRetryDelay
        try LaundryStudents.requireVerified(caller.value.account)
        if request.dasherAge != 0, !(16...120).contains(request.dasherAge) {
            throw RPCError.invalidField("dasher_age", "must be between 16 and 120")
        }
        var chosen: [RecordID: Int32] = [:]
        for (index, answer) in request.answers.enumerated() {
            let id = try RequestFields.id(answer.questionID, field: "answers[\(index)].question_id")
            guard chosen.updateValue(answer.choice, forKey: id) == nil else {
                throw RPCError.invalidField("answers[\(index)].question_id", "answers the same question twice")
            }
        }
        let market = marketplaceID.description
        let questions = try store.list(
            QuizQuestionTable.table, QuizQuestionTable.byCreation, .starting(with: [.string(market), .bool(true)]),
            page: PageRequest(size: Self.maxQuestions)
        ).items
        guard !questions.isEmpty else {
            throw RPCError.souk(.failedPrecondition, .invalidTransition, "the quiz has no questions yet")
        }
        let asked = Set(questions.map(\.id))
        if let index = request.answers.indices.first(where: { !asked.contains(RecordID(request.answers[$0].questionID)!) }) {
            throw RPCError.invalidField("answers[\(index)].question_id", "is not a question of the quiz")
        }
        let correct = questions.filter { chosen[$0.id] == $0.value.subject.correctChoice }.count
        let score = correct * 100 / questions.count
        let passed = score >= Self.passPercent
        let age = request.dasherAge
        let actor = AuditActor(call)
        return try await store.write { transaction in
            let account = try transaction.require(AccountTable.table, caller.id)
            if account.value.account.roles.contains(where: { $0.role == .courier && $0.status == .active }) {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "the account is already a Dasher")
            }
            if let last = try transaction.get(QuizAttemptTable.table, caller.id), !last.value.passed {
                let retry = last.value.attemptTime.adding(retryDelay)
                if retry > transaction.now {
                    let left = retry.microsecondsSinceEpoch - transaction.now.microsecondsSinceEpoch
                    throw RPCError.souk(
                        .resourceExhausted, .quizRetryTooSoon,
                        "the quiz was failed with \(last.value.scorePercent) %: retry in \(Self.wait(left)) (at \(Timestamp(retry)))",
                        retryDelay: .microseconds(left))
                }
            }
            if !passed, account.value.account.dasherProfile == nil, age == 0 {
                // Nothing to keep: the age is asked only of those who pass.
            } else if passed, account.value.account.dasherProfile == nil, age == 0 {
                throw RPCError.invalidField("dasher_age", "is required to become a Dasher (16 to 120)")
            }
            let attempt = QuizAttemptRecord(marketplaceID: market, attemptTime: transaction.now, scorePercent: score, passed: passed)
            if try transaction.get(QuizAttemptTable.table, caller.id) != nil {
                try transaction.update(QuizAttemptTable.table, caller.id) { $0 = attempt }
            } else {
                try transaction.insert(QuizAttemptTable.table, attempt, id: caller.id)
            }
            var result = SoukV1.QuizResult(
                correct: Int32(correct), total: Int32(questions.count), scorePercent: Int32(score), passed: passed)
            if passed {
                let updated = try transaction.update(AccountTable.table, caller.id) { value in
                    let grant = SoukV1.RoleGrant(
                        role: .courier, status: .active, requestTime: Timestamp(transaction.now), decideTime: Timestamp(transaction.now))
                    if let index = value.account.roles.firstIndex(where: { $0.role == .courier }) {
                        value.account.roles[index] = grant
                    } else {
                        value.account.roles.append(grant)
                    }
                    NewAccount.makeDasher(&value.account, age: age, now: transaction.now)
                }
                try AuditLog.record(
                    in: transaction, marketplaceID: market, resource: SoukV1.ResourceRef(type: .account, id: caller.id.description),
                    actor: actor, to: SoukV1.RoleStatus.active.protoName, reason: "Dasher quiz passed with \(score) %",
                    resourceVersion: updated.version)
                result.account = updated.apiAccountWithoutSignIn
            } else {
                result.retryTime = Timestamp(transaction.now.adding(retryDelay))
                result.account = account.apiAccountWithoutSignIn
            }
            return result
        }
    }

    static func check(_ question: SoukV1.QuizQuestion, paths: Set<String>) throws {
        if paths.contains("text"), question.text.trimmingCharacters(in: .whitespaces).isEmpty || question.text.count > 500 {
            throw RPCError.invalidField("question.text", "must be 1 to 500 characters")
        }
        if paths.contains("choices") {
            guard (2...6).contains(question.choices.count) else { throw RPCError.invalidField("question.choices", "must hold 2 to 6 choices") }
            if let index = question.choices.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty || $0.count > 200 }) {
                throw RPCError.invalidField("question.choices[\(index)]", "must be 1 to 200 characters")
            }
        }
        if paths.contains("correct_choice"), !question.choices.indices.contains(Int(question.correctChoice)) {
            throw RPCError.invalidField("question.correct_choice", "must be the index of one of the choices")
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
