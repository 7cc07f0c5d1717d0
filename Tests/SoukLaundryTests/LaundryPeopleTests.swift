import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore
import SoukTesting
import Testing
@testable import SoukIdentity
@testable import SoukLaundry

/// Drip 'n Dash students: dorms, the @rutgers.edu sign-up proven by a mailed code, the Dasher
/// quiz, and what customers see of the Dashers of their own dorm.
@Suite struct LaundryPeopleTests {
    let harness: DomainHarness
    static let service = "souk.v1.Laundry"

    init() throws {
        // Tokens outlive the quiz's 24-hour wait, which the tests cross on the manual clock.
        harness = try DomainHarness(domainTypes: [Laundry.self, Notifications.self], accessTokenTTL: .seconds(2 * 86_400), makeDomains: { identity in
            [Laundry(store: identity.store, identity: identity), Notifications(store: identity.store)]
        })
    }

    /// The marketplace (sign-up at @rutgers.edu only), its admin and two dorms.
    struct Campus {
        var marketplace: SoukV1.Marketplace
        var admin: String
        var mattia: SoukV1.Dorm
        var barr: SoukV1.Dorm
    }

    func campus(laundry: SoukV1.LaundrySettings? = nil) async throws -> Campus {
        let marketplace = try await harness.marketplace(
            settings: SoukV1.MarketplaceSettings(accounts: SoukV1.AccountSettings(allowedEmailDomains: ["rutgers.edu"]), laundry: laundry))
        let admin = try await harness.adminToken(marketplace)
        func dorm(_ name: String) async throws -> SoukV1.Dorm {
            try await harness.call(Self.service, "CreateDorm", SoukV1.CreateDormRequest(
                marketplaceID: marketplace.id, requestID: "dorm-\(name.filter { $0 != " " })", dorm: SoukV1.Dorm(campus: "Busch", name: name)), token: admin)
        }
        return Campus(marketplace: marketplace, admin: admin, mattia: try await dorm("Mattia Hall"), barr: try await dorm("Barr Hall"))
    }

    func signUp(_ campus: Campus, _ email: String, dorm: SoukV1.Dorm, name: String = "Sam") async throws -> SoukV1.SignUpResponse {
        try await harness.accounts("SignUp", SoukV1.SignUpRequest(
            marketplaceID: campus.marketplace.id, requestID: "signup-\(email)", email: email, password: "Abcdef1!",
            givenName: name, familyName: "Lastname", phone: "+17325550199",
            laundryProfile: SoukV1.LaundryProfile(campus: dorm.campus, dormID: dorm.id, room: "101", gender: .female)))
    }

    /// The code in the last verification mail to `email`.
    func mailedCode(to email: String) throws -> String {
        let mails = try harness.store.list(MailTable.table, MailTable.byMarketplace, IndexRange(), page: PageRequest(size: 100)).items
        let body = try #require(mails.last { $0.value.subject.toAddress == email && $0.value.subject.kind == .emailVerification }).value.subject.body
        return String(try #require(body.split(whereSeparator: { !$0.isNumber }).first { $0.count == 6 }))
    }

    func verify(_ token: String, _ marketplace: SoukV1.Marketplace, email: String) async throws -> SoukV1.Account {
        let _: SoukV1.SendVerificationCodeResponse = try await harness.accounts(
            "SendVerificationCode", SoukV1.SendVerificationCodeRequest(marketplaceID: marketplace.id), token: token)
        return try await harness.accounts(
            "VerifyEmail", SoukV1.VerifyEmailRequest(marketplaceID: marketplace.id, code: try mailedCode(to: email)), token: token)
    }

    @Test func dormsAreListedByCampusAndManagedByAdmins() async throws {
        let campus = try await campus()
        let livingston: SoukV1.Dorm = try await harness.call(Self.service, "CreateDorm", SoukV1.CreateDormRequest(
            marketplaceID: campus.marketplace.id, requestID: "dorm-quads", dorm: SoukV1.Dorm(campus: "Livingston", name: "Quads")),
            token: campus.admin)
        let busch: SoukV1.ListDormsResponse = try await harness.call(
            Self.service, "ListDorms", SoukV1.ListDormsRequest(marketplaceID: campus.marketplace.id, campus: "Busch"))
        #expect(busch.dorms.map(\.name) == ["Barr Hall", "Mattia Hall"])
        let paged: SoukV1.ListDormsResponse = try await harness.call(
            Self.service, "ListDorms", SoukV1.ListDormsRequest(marketplaceID: campus.marketplace.id, pageSize: 2))
        #expect(paged.dorms.count == 2 && !paged.nextPageToken.isEmpty)
        let rest: SoukV1.ListDormsResponse = try await harness.call(
            Self.service, "ListDorms", SoukV1.ListDormsRequest(marketplaceID: campus.marketplace.id, pageSize: 2, pageToken: paged.nextPageToken))
        #expect(rest.dorms.map(\.id) == [livingston.id])
        let duplicate = await harness.error(Self.service, "CreateDorm", SoukV1.CreateDormRequest(
            marketplaceID: campus.marketplace.id, requestID: "dorm-again", dorm: SoukV1.Dorm(campus: "Busch", name: "mattia hall")),
            token: campus.admin, as: SoukV1.Dorm.self)
        #expect(duplicate?.code == .alreadyExists)
        let student = try await signUp(campus, "sam@rutgers.edu", dorm: campus.mattia)
        let refused = await harness.error(Self.service, "CreateDorm", SoukV1.CreateDormRequest(
            marketplaceID: campus.marketplace.id, requestID: "dorm-x", dorm: SoukV1.Dorm(campus: "Busch", name: "X")),
            token: student.session?.accessToken, as: SoukV1.Dorm.self)
        #expect(refused?.code == .permissionDenied)
        let archived: SoukV1.Dorm = try await harness.call(Self.service, "UpdateDorm", SoukV1.UpdateDormRequest(
            marketplaceID: campus.marketplace.id, dorm: SoukV1.Dorm(id: livingston.id, archived: true),
            updateMask: .init(paths: ["archived"]), expectedVersion: livingston.version), token: campus.admin)
        #expect(archived.archived)
        let live: SoukV1.ListDormsResponse = try await harness.call(
            Self.service, "ListDorms", SoukV1.ListDormsRequest(marketplaceID: campus.marketplace.id))
        #expect(!live.dorms.contains { $0.id == livingston.id })
    }

    @Test func signUpNeedsARutgersAddressAndADormThatExists() async throws {
        let campus = try await campus()
        let gmail = await harness.error("souk.v1.Accounts", "SignUp", SoukV1.SignUpRequest(
            marketplaceID: campus.marketplace.id, requestID: "g", email: "sam@gmail.com", password: "Abcdef1!", givenName: "Sam",
            laundryProfile: SoukV1.LaundryProfile(campus: "Busch", dormID: campus.mattia.id, room: "1")), as: SoukV1.SignUpResponse.self)
        #expect(gmail?.soukReason == .emailDomainNotAllowed)
        let nowhere = await harness.error("souk.v1.Accounts", "SignUp", SoukV1.SignUpRequest(
            marketplaceID: campus.marketplace.id, requestID: "n", email: "sam@rutgers.edu", password: "Abcdef1!", givenName: "Sam",
            laundryProfile: SoukV1.LaundryProfile(campus: "Busch", dormID: RecordID.generate().description, room: "1")),
            as: SoukV1.SignUpResponse.self)
        #expect(nowhere?.code == .invalidArgument)
        let signed = try await signUp(campus, "sam@rutgers.edu", dorm: campus.mattia)
        #expect(signed.account?.emailVerified == false)
        #expect(signed.account?.laundryProfile?.gender == .female)
    }

    @Test func theMailedCodeProvesTheAddressWithinFiveTries() async throws {
        let campus = try await campus()
        let token = try #require(try await signUp(campus, "sam@rutgers.edu", dorm: campus.mattia).session?.accessToken)
        let market = campus.marketplace.id
        let none = await harness.error(
            "souk.v1.Accounts", "VerifyEmail", SoukV1.VerifyEmailRequest(marketplaceID: market, code: "123456"), token: token,
            as: SoukV1.Account.self)
        #expect(none?.soukReason == .tokenInvalid)
        let _: SoukV1.SendVerificationCodeResponse = try await harness.accounts(
            "SendVerificationCode", SoukV1.SendVerificationCodeRequest(marketplaceID: market), token: token)
        let code = try mailedCode(to: "sam@rutgers.edu")
        let wrong = code == "000000" ? "000001" : "000000"
        for _ in 1...5 {
            let error = await harness.error(
                "souk.v1.Accounts", "VerifyEmail", SoukV1.VerifyEmailRequest(marketplaceID: market, code: wrong), token: token,
                as: SoukV1.Account.self)
            #expect(error?.soukReason == .badCredentials)
        }
        // Five wrong tries used the code up: even the right one no longer works.
        let usedUp = await harness.error(
            "souk.v1.Accounts", "VerifyEmail", SoukV1.VerifyEmailRequest(marketplaceID: market, code: code), token: token,
            as: SoukV1.Account.self)
        #expect(usedUp?.soukReason == .tokenInvalid)
        // An expired code does not work either (a new code may be sent a minute after the last).
        harness.clock.advance(.seconds(60))
        let _: SoukV1.SendVerificationCodeResponse = try await harness.accounts(
            "SendVerificationCode", SoukV1.SendVerificationCodeRequest(marketplaceID: market), token: token)
        let late = try mailedCode(to: "sam@rutgers.edu")
        harness.clock.advance(.seconds(31 * 60))
        let expired = await harness.error(
            "souk.v1.Accounts", "VerifyEmail", SoukV1.VerifyEmailRequest(marketplaceID: market, code: late), token: token,
            as: SoukV1.Account.self)
        #expect(expired?.soukReason == .tokenInvalid)
        let verified = try await verify(token, campus.marketplace, email: "sam@rutgers.edu")
        #expect(verified.emailVerified)
    }

    @Test func verificationCodesAreSentAtMostFiveAnHourAMinuteApart() async throws {
        let campus = try await campus()
        let token = try #require(try await signUp(campus, "sam@rutgers.edu", dorm: campus.mattia).session?.accessToken)
        let request = SoukV1.SendVerificationCodeRequest(marketplaceID: campus.marketplace.id)
        func send() async -> RPCError? {
            await harness.error("souk.v1.Accounts", "SendVerificationCode", request, token: token, as: SoukV1.SendVerificationCodeResponse.self)
        }
        #expect(await send() == nil)
        harness.clock.advance(.seconds(20))
        let tooSoon = await send()
        #expect(tooSoon?.code == .resourceExhausted && tooSoon?.soukReason == .verificationCodeLimit)
        #expect(tooSoon?.retryDelay == .seconds(40))
        #expect(tooSoon?.message.contains("send the next one in 40 seconds") == true)
        // The refused one did not count: four more, a minute apart, make five in the hour.
        for _ in 1...4 {
            harness.clock.advance(.seconds(60))
            #expect(await send() == nil)
        }
        harness.clock.advance(.seconds(60))
        let sixth = await send()
        #expect(sixth?.soukReason == .verificationCodeLimit)
        // The first was sent 320 seconds ago; the hour it counts in ends 3,280 seconds from now.
        #expect(sixth?.retryDelay == .seconds(3600 - 320))
        harness.clock.advance(.seconds(3600 - 320 - 1))
        #expect(await send()?.soukReason == .verificationCodeLimit)
        harness.clock.advance(.seconds(1))
        #expect(await send() == nil)
        let mails = try harness.store.list(MailTable.table, MailTable.byMarketplace, IndexRange(), page: PageRequest(size: 100)).items
        #expect(mails.filter { $0.value.subject.toAddress == "sam@rutgers.edu" }.count == 6)
    }

    @Test func accountsAnAdminCreatesNameALiveDormOnItsCampus() async throws {
        let campus = try await campus()
        func create(_ email: String, _ profile: SoukV1.LaundryProfile) async -> RPCError? {
            await harness.error("souk.v1.Accounts", "CreateAccount", SoukV1.CreateAccountRequest(
                marketplaceID: campus.marketplace.id, requestID: "create-\(email)", email: email, initialPassword: "Abcdef1!",
                givenName: "Dana", roles: [.courier], laundryProfile: profile), token: campus.admin, as: SoukV1.Account.self)
        }
        let unknown = await create("a@rutgers.edu", SoukV1.LaundryProfile(campus: "Busch", dormID: RecordID.generate().description, room: "1"))
        #expect(unknown?.code == .invalidArgument && unknown?.fieldViolations.first?.field == "laundry_profile.dorm_id")
        let elsewhere = await create("b@rutgers.edu", SoukV1.LaundryProfile(campus: "Livingston", dormID: campus.mattia.id, room: "1"))
        #expect(elsewhere?.fieldViolations.first?.field == "laundry_profile.campus")
        #expect(await create("c@rutgers.edu", SoukV1.LaundryProfile(campus: "Busch", dormID: campus.mattia.id, room: "1")) == nil)
    }

    @Test func theQuizRetryDelayIsAMarketplaceSetting() async throws {
        let campus = try await campus(laundry: SoukV1.LaundrySettings(quizRetryDelay: .seconds(2 * 3600)))
        let questions = try await addQuiz(campus)
        let token = try #require(try await signUp(campus, "dash@rutgers.edu", dorm: campus.mattia).session?.accessToken)
        _ = try await verify(token, campus.marketplace, email: "dash@rutgers.edu")
        func submit(right: Int) async throws -> SoukV1.QuizResult {
            try await harness.call(Self.service, "SubmitQuizAnswers", SoukV1.SubmitQuizAnswersRequest(
                marketplaceID: campus.marketplace.id,
                answers: questions.enumerated().map { index, question in
                    SoukV1.QuizAnswer(questionID: question.id, choice: index < right ? question.correctChoice! : (question.correctChoice! + 1) % 3)
                }, dasherAge: 20), token: token)
        }
        let failed = try await submit(right: 0)
        #expect(failed.retryTime == Timestamp(harness.clock.now.adding(.seconds(2 * 3600))))
        harness.clock.advance(.seconds(3600 + 30 * 60))
        let tooSoon = await harness.error(Self.service, "SubmitQuizAnswers", SoukV1.SubmitQuizAnswersRequest(
            marketplaceID: campus.marketplace.id), token: token, as: SoukV1.QuizResult.self)
        #expect(tooSoon?.soukReason == .quizRetryTooSoon && tooSoon?.message.contains("retry in 30 minutes") == true)
        harness.clock.advance(.seconds(30 * 60))
        #expect(try await submit(right: 5).passed)
    }

    func addQuiz(_ campus: Campus, count: Int = 5) async throws -> [SoukV1.QuizQuestion] {
        var questions: [SoukV1.QuizQuestion] = []
        for index in 0..<count {
            questions.append(try await harness.call(Self.service, "CreateQuizQuestion", SoukV1.CreateQuizQuestionRequest(
                marketplaceID: campus.marketplace.id, requestID: "q\(index)",
                question: SoukV1.QuizQuestion(text: "Question \(index)?", choices: ["A", "B", "C"], optionalCorrectChoice: .correctChoice(Int32(index % 3)))),
                token: campus.admin))
        }
        return questions
    }

    @Test func theQuizPassesAt80PercentAndAFailWaits24Hours() async throws {
        let campus = try await campus()
        let questions = try await addQuiz(campus)
        let token = try #require(try await signUp(campus, "dash@rutgers.edu", dorm: campus.mattia).session?.accessToken)
        let market = campus.marketplace.id
        // Students see the questions without their answers.
        let seen: SoukV1.ListQuizQuestionsResponse = try await harness.call(
            Self.service, "ListQuizQuestions", SoukV1.ListQuizQuestionsRequest(marketplaceID: market), token: token)
        #expect(seen.questions.map(\.id) == questions.map(\.id))
        #expect(seen.questions.allSatisfy { $0.correctChoice == nil })
        func answers(rightAnswers: Int) -> [SoukV1.QuizAnswer] {
            questions.enumerated().map { index, question in
                SoukV1.QuizAnswer(questionID: question.id, choice: index < rightAnswers ? question.correctChoice! : (question.correctChoice! + 1) % 3)
            }
        }
        let unverified = await harness.error(Self.service, "SubmitQuizAnswers", SoukV1.SubmitQuizAnswersRequest(
            marketplaceID: market, answers: answers(rightAnswers: 5), dasherAge: 20), token: token, as: SoukV1.QuizResult.self)
        #expect(unverified?.soukReason == .emailNotVerified)
        _ = try await verify(token, campus.marketplace, email: "dash@rutgers.edu")
        let failed: SoukV1.QuizResult = try await harness.call(Self.service, "SubmitQuizAnswers", SoukV1.SubmitQuizAnswersRequest(
            marketplaceID: market, answers: answers(rightAnswers: 3), dasherAge: 20), token: token)
        #expect(!failed.passed && failed.scorePercent == 60 && failed.correct == 3 && failed.total == 5)
        #expect(failed.retryTime == Timestamp(harness.clock.now.adding(.seconds(24 * 3600))))
        harness.clock.advance(.seconds(3600))
        let tooSoon = await harness.error(Self.service, "SubmitQuizAnswers", SoukV1.SubmitQuizAnswersRequest(
            marketplaceID: market, answers: answers(rightAnswers: 5), dasherAge: 20), token: token, as: SoukV1.QuizResult.self)
        #expect(tooSoon?.soukReason == .quizRetryTooSoon)
        #expect(tooSoon?.message.contains("23 hours") == true)
        harness.clock.advance(.seconds(23 * 3600))
        let passed: SoukV1.QuizResult = try await harness.call(Self.service, "SubmitQuizAnswers", SoukV1.SubmitQuizAnswersRequest(
            marketplaceID: market, answers: answers(rightAnswers: 4), dasherAge: 20), token: token)
        #expect(passed.passed && passed.scorePercent == 80)
        let account = try #require(passed.account)
        #expect(account.roles.contains { $0.role == .courier && $0.status == .active })
        #expect(account.dasherProfile?.age == 20)
        #expect(account.rating?.averageHundredths == 500)
        #expect(account.dasherProfile?.dasherSince == Timestamp(harness.clock.now))
    }

    @Test func customersSeeOnlyTheAcceptingDashersOfTheirOwnDormAndNoPrivateFields() async throws {
        let campus = try await campus()
        let questions = try await addQuiz(campus)
        let right = questions.map { SoukV1.QuizAnswer(questionID: $0.id, choice: $0.correctChoice!) }
        let market = campus.marketplace.id
        func dasher(_ email: String, _ dorm: SoukV1.Dorm, accepting: Bool) async throws -> String {
            let token = try #require(try await signUp(campus, email, dorm: dorm, name: "Dana").session?.accessToken)
            _ = try await verify(token, campus.marketplace, email: email)
            let _: SoukV1.QuizResult = try await harness.call(Self.service, "SubmitQuizAnswers", SoukV1.SubmitQuizAnswersRequest(
                marketplaceID: market, answers: right, dasherAge: 21), token: token)
            let session: SoukV1.Session = try await harness.accounts(
                "Login", SoukV1.LoginRequest(marketplaceID: market, email: email, password: "Abcdef1!"))
            let _: SoukV1.Account = try await harness.call(Self.service, "SetAcceptingRequests", SoukV1.SetAcceptingRequestsRequest(
                marketplaceID: market, acceptingRequests: accepting), token: session.accessToken)
            return session.accessToken
        }
        _ = try await dasher("one@rutgers.edu", campus.mattia, accepting: true)
        _ = try await dasher("two@rutgers.edu", campus.mattia, accepting: false)
        _ = try await dasher("three@rutgers.edu", campus.barr, accepting: true)
        let customer = try #require(try await signUp(campus, "cust@rutgers.edu", dorm: campus.mattia).session?.accessToken)
        let seen: SoukV1.ListAcceptingDashersResponse = try await harness.call(
            Self.service, "ListAcceptingDashers", SoukV1.ListAcceptingDashersRequest(marketplaceID: market), token: customer)
        #expect(seen.dashers.count == 1)
        let one = try #require(seen.dashers.first)
        #expect(one.person?.displayName == "Dana")
        #expect(one.person?.rating?.averageHundredths == 500)
        #expect(one.completedJobs == 0 && one.dasherSince != nil)
        // The other dorm's Dashers stay hidden, even when asked for by id.
        let other = await harness.error(
            Self.service, "ListAcceptingDashers", SoukV1.ListAcceptingDashersRequest(marketplaceID: market, dormID: campus.barr.id),
            token: customer, as: SoukV1.ListAcceptingDashersResponse.self)
        #expect(other?.code == .notFound)
    }
}
