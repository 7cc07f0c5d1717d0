import NIOCore
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Synchronization
import Testing

@testable import SoukLaundry

/// After stage 9: paying a job through `Payments.CreatePayment`, ratings both ways, disputes
/// with refunds, histories, the Dasher's earnings, and the end of a job's event stream.
@Suite struct AfterDropOffTests {
    /// A job of `customer` taken by `dasher` to stage 9 (3 loads cost 900; final price 900 +
    /// the 500 service fee + folding 250 = 1650).
    func droppedOff(_ fixture: LaundryFixture, _ customer: LaundryFixture.Student, _ dasher: LaundryFixture.Student) async throws -> SoukV1.Job {
        var job = try await fixture.submit(customer, loads: 2, addOns: [.folding])
        job = try #require(try await fixture.requestWork(dasher))
        job = try await fixture.accept(job, dasher)
        for stage in JobLifecycle.stages.dropFirst(2) {
            job = try await fixture.advance(job, to: stage, dasher, loads: stage == .finishedDrying ? 3 : 0, cost: stage == .finishedDrying ? 900 : nil)
        }
        #expect(job.state == .droppedOff && job.completeTime != nil)
        return job
    }

    /// A fresh marketplace (with payments unless told), its customer Ana and Dasher Dev, and a
    /// job of theirs at stage 9.
    func scene(payments: Bool = true) async throws -> (LaundryFixture, LaundryFixture.Student, LaundryFixture.Student, SoukV1.Job) {
        let fixture = try await LaundryFixture.make(payments: payments)
        let customer = try await fixture.student("ana")
        let dasher = try await fixture.student("dev", dasher: true)
        return (fixture, customer, dasher, try await droppedOff(fixture, customer, dasher))
    }

    func pay(_ fixture: LaundryFixture, _ job: SoukV1.Job, _ who: LaundryFixture.Student, card: String = "tok_visa", requestID: String) async throws -> SoukV1.Payment {
        try await fixture.harness.call("souk.v1.Payments", "CreatePayment", payRequest(fixture, job, card: card, requestID: requestID), token: who.token)
    }

    func payError(_ fixture: LaundryFixture, _ job: SoukV1.Job, _ who: LaundryFixture.Student, card: String = "tok_visa", requestID: String) async -> RPCError? {
        await fixture.harness.error("souk.v1.Payments", "CreatePayment", payRequest(fixture, job, card: card, requestID: requestID), token: who.token, as: SoukV1.Payment.self)
    }

    func payRequest(_ fixture: LaundryFixture, _ job: SoukV1.Job, card: String, requestID: String) -> SoukV1.CreatePaymentRequest {
        SoukV1.CreatePaymentRequest(marketplaceID: fixture.marketplace.id, requestID: requestID, target: .jobID(job.id), method: .init(method: .cardToken(card)))
    }

    func rate(_ fixture: LaundryFixture, _ job: SoukV1.Job, _ who: LaundryFixture.Student, stars: Int32, requestID: String) async throws -> SoukV1.FeedbackEntry {
        try await fixture.call("RateJob", rateRequest(fixture, job, stars: stars, requestID: requestID), who)
    }

    func rateRequest(_ fixture: LaundryFixture, _ job: SoukV1.Job, stars: Int32, requestID: String) -> SoukV1.RateJobRequest {
        SoukV1.RateJobRequest(marketplaceID: fixture.marketplace.id, requestID: requestID, jobID: job.id, stars: stars, comment: "folded neatly")
    }

    func account(_ fixture: LaundryFixture, _ id: String) async throws -> SoukV1.Account {
        let recordID = try #require(RecordID(id))
        return try #require(try fixture.harness.identity.account(recordID, fixture.harness.store))
    }

    func job(_ fixture: LaundryFixture, _ id: String, _ who: LaundryFixture.Student) async throws -> SoukV1.Job {
        try await fixture.call("GetJob", SoukV1.GetJobRequest(marketplaceID: fixture.marketplace.id, jobID: id), who)
    }

    @Test func aDroppedOffJobIsPaidOnceToTheDasherAndADeclineStoresNothing() async throws {
        let fixture = try await LaundryFixture.make(payments: true)
        let customer = try await fixture.student("ana")
        let dasher = try await fixture.student("dev", dasher: true)
        let early = try await fixture.submit(customer)
        #expect(await payError(fixture, early, customer, requestID: "early")?.code == .failedPrecondition)
        let cancelled = try await fixture.cancel(early, customer)
        #expect(await payError(fixture, cancelled, customer, requestID: "cancelled")?.code == .failedPrecondition)

        let job = try await droppedOff(fixture, customer, dasher)
        #expect(await payError(fixture, job, dasher, requestID: "dasher")?.code == .permissionDenied)
        let declined = await payError(fixture, job, customer, card: "tok_decline", requestID: "declined")
        #expect(declined?.soukReason == .paymentDeclined)
        #expect(try await self.job(fixture, job.id, customer).paymentID == "")

        let payment = try await pay(fixture, job, customer, requestID: "pay")
        #expect(payment.status == .successful && payment.amount?.amountMinor == 1650)
        #expect(payment.payeeAccountID == dasher.id && payment.payerAccountID == customer.id)
        #expect(try await pay(fixture, job, customer, requestID: "pay").id == payment.id)
        #expect(await payError(fixture, job, customer, requestID: "again")?.soukReason == .alreadyPaid)
        let paid = try await self.job(fixture, job.id, customer)
        #expect(paid.paymentID == payment.id && paid.paymentStatus == .successful && paid.paidAmount?.amountMinor == 1650 && paid.payTime != nil)
    }

    @Test func twoPaymentsAtOnceChargeOnce() async throws {
        let (fixture, customer, _, job) = try await scene()
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for attempt in 0..<6 {
                group.addTask { await payError(fixture, job, customer, requestID: "race-\(attempt)") == nil }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        let payments: SoukV1.ListPaymentsResponse = try await fixture.harness.call(
            "souk.v1.Payments", "ListPayments", SoukV1.ListPaymentsRequest(marketplaceID: fixture.marketplace.id, payerAccountID: customer.id),
            token: customer.token)
        #expect(payments.payments.count == 1)
    }

    @Test func bothSidesRateOnceAndTheAveragesFollow() async throws {
        let fixture = try await LaundryFixture.make(payments: true)
        let customer = try await fixture.student("ana")
        let dasher = try await fixture.student("dev", dasher: true)
        #expect(try await account(fixture, dasher.id).rating?.averageHundredths == 500)
        let job = try await droppedOff(fixture, customer, dasher)

        // The customer rates once paid; the Dasher may rate from stage 9.
        let unpaid = await fixture.harness.error("souk.v1.Laundry", "RateJob", rateRequest(fixture, job, stars: 4, requestID: "r0"), token: customer.token, as: SoukV1.FeedbackEntry.self)
        #expect(unpaid?.soukReason == .notRatable)
        let ofCustomer = try await rate(fixture, job, dasher, stars: 2, requestID: "d1")
        #expect(ofCustomer.ratedAccountID == customer.id && ofCustomer.author?.displayName == "Dev")
        _ = try await pay(fixture, job, customer, requestID: "pay")
        let ofDasher = try await rate(fixture, job, customer, stars: 4, requestID: "c1")
        #expect(ofDasher.ratedAccountID == dasher.id && ofDasher.subject?.id == job.id)
        #expect(try await rate(fixture, job, customer, stars: 4, requestID: "c1").id == ofDasher.id)
        let twice = await fixture.harness.error("souk.v1.Laundry", "RateJob", rateRequest(fixture, job, stars: 5, requestID: "c2"), token: customer.token, as: SoukV1.FeedbackEntry.self)
        #expect(twice?.code == .alreadyExists && twice?.soukReason == .alreadyRated)
        let badStars = await fixture.harness.error("souk.v1.Laundry", "RateJob", rateRequest(fixture, job, stars: 6, requestID: "c3"), token: customer.token, as: SoukV1.FeedbackEntry.self)
        #expect(badStars?.code == .invalidArgument)

        // The first rating replaces the starting 5; the next ones average with it exactly.
        #expect(try await account(fixture, dasher.id).rating == SoukV1.RatingSummary(count: 1, averageHundredths: 400))
        #expect(try await account(fixture, customer.id).customerRating == SoukV1.RatingSummary(count: 1, averageHundredths: 200))
        let second = try await droppedOff(fixture, customer, dasher)
        let wallet = SoukV1.CreatePaymentRequest(
            marketplaceID: fixture.marketplace.id, requestID: "pay-2", target: .jobID(second.id), method: .init(method: .applePayToken("applepay_test_0123456789")))
        let byWallet: SoukV1.Payment = try await fixture.harness.call("souk.v1.Payments", "CreatePayment", wallet, token: customer.token)
        #expect(byWallet.method == .applePay && byWallet.payeeAccountID == dasher.id)
        _ = try await rate(fixture, second, customer, stars: 5, requestID: "c4")
        #expect(try await account(fixture, dasher.id).rating == SoukV1.RatingSummary(count: 2, averageHundredths: 450))
        let rated = try await self.job(fixture, job.id, customer)
        #expect(rated.customerRatedDasher && rated.dasherRatedCustomer)
    }

    @Test func ratingsAtOnceCountOnce() async throws {
        let (fixture, customer, dasher, job) = try await scene()
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for attempt in 0..<6 {
                group.addTask {
                    await fixture.harness.error("souk.v1.Laundry", "RateJob", rateRequest(fixture, job, stars: 3, requestID: "race-\(attempt)"),
                                                token: dasher.token, as: SoukV1.FeedbackEntry.self) == nil
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await account(fixture, customer.id).customerRating?.count == 1)
    }

    @Test func aDisputeIsResolvedWithAPartialRefundAndTheEarningsFollow() async throws {
        let fixture = try await LaundryFixture.make(payments: true)
        let customer = try await fixture.student("ana")
        let dasher = try await fixture.student("dev", dasher: true)
        let admin = LaundryFixture.Student(id: "", token: try await fixture.harness.adminToken(fixture.marketplace))
        let market = fixture.marketplace.id
        let job = try await droppedOff(fixture, customer, dasher)
        let notPaid = await fixture.error("DisputeJob", SoukV1.DisputeJobRequest(marketplaceID: market, jobID: job.id, reason: "a sock is missing"), customer)
        #expect(notPaid?.soukReason == .notPaid)
        _ = try await pay(fixture, job, customer, requestID: "pay")
        let noReason = await fixture.error("DisputeJob", SoukV1.DisputeJobRequest(marketplaceID: market, jobID: job.id, reason: "  "), customer)
        #expect(noReason?.code == .invalidArgument)
        let disputed: SoukV1.Job = try await fixture.call(
            "DisputeJob", SoukV1.DisputeJobRequest(marketplaceID: market, jobID: job.id, reason: "a sock is missing"), customer)
        #expect(disputed.dispute?.status == .open)
        let again = await fixture.error("DisputeJob", SoukV1.DisputeJobRequest(marketplaceID: market, jobID: job.id, reason: "twice"), customer)
        #expect(again?.soukReason == .alreadyDisputed)
        let byDasher = await fixture.error("ResolveDispute", SoukV1.ResolveDisputeRequest(marketplaceID: market, jobID: job.id, resolution: "no"), dasher)
        #expect(byDasher?.code == .permissionDenied)

        let open: SoukV1.ListJobsResponse = try await fixture.call("ListJobs", SoukV1.ListJobsRequest(marketplaceID: market, openDisputes: true), admin)
        #expect(open.jobs.map(\.id) == [job.id])
        let notAdmin = await fixture.harness.error(
            "souk.v1.Laundry", "ListJobs", SoukV1.ListJobsRequest(marketplaceID: market, openDisputes: true), token: customer.token, as: SoukV1.ListJobsResponse.self)
        #expect(notAdmin?.code == .permissionDenied)

        let tooMuch = await fixture.error("ResolveDispute", SoukV1.ResolveDisputeRequest(
            marketplaceID: market, jobID: job.id, resolution: "refund", refund: .init(amountMinor: 1651, currencyCode: "USD")), admin)
        #expect(tooMuch?.code == .invalidArgument)
        let resolved: SoukV1.Job = try await fixture.call("ResolveDispute", SoukV1.ResolveDisputeRequest(
            marketplaceID: market, jobID: job.id, resolution: "one sock: 400 back", refund: .init(amountMinor: 400, currencyCode: "USD")), admin)
        #expect(resolved.dispute?.status == .resolved && resolved.dispute?.outcome == .partialRefund && resolved.dispute?.refund?.amountMinor == 400)
        #expect(resolved.paymentStatus == .partiallyRefunded && resolved.refundedAmount?.amountMinor == 400)
        let payment: SoukV1.Payment = try await fixture.harness.call(
            "souk.v1.Payments", "GetPayment", SoukV1.GetPaymentRequest(marketplaceID: market, paymentID: job.paymentID.isEmpty ? resolved.paymentID : job.paymentID),
            token: customer.token)
        #expect(payment.refundedAmount?.amountMinor == 400)
        let none: SoukV1.ListJobsResponse = try await fixture.call("ListJobs", SoukV1.ListJobsRequest(marketplaceID: market, openDisputes: true), admin)
        #expect(none.jobs.isEmpty)

        // The harness clock starts on Friday 2027-01-15 (UTC); the week runs Monday 11th to Sunday 17th.
        for (period, from, to) in [(SoukV1.EarningsPeriod.week, SoukV1.Date(year: 2027, month: 1, day: 11), SoukV1.Date(year: 2027, month: 1, day: 17)),
                                   (.month, SoukV1.Date(year: 2027, month: 1, day: 1), SoukV1.Date(year: 2027, month: 1, day: 31))] {
            let earnings: SoukV1.DasherEarnings = try await fixture.call("GetDasherEarnings", SoukV1.GetDasherEarningsRequest(
                marketplaceID: market, period: period, startDate: from, endDate: to), dasher)
            #expect(earnings.periods.count == 1)
            let only = try #require(earnings.periods.first)
            #expect(only.startDate == from && only.endDate == to)
            #expect(only.jobsPaid == 1 && only.paid?.amountMinor == 1650 && only.refunded?.amountMinor == 400 && only.earnings?.amountMinor == 1250)
            #expect(earnings.totalEarnings?.amountMinor == 1250)
        }
        let others = await fixture.harness.error("souk.v1.Laundry", "GetDasherEarnings", SoukV1.GetDasherEarningsRequest(
            marketplaceID: market, dasherAccountID: dasher.id, period: .week, startDate: .init(year: 2027, month: 1, day: 1), endDate: .init(year: 2027, month: 1, day: 1)),
            token: customer.token, as: SoukV1.DasherEarnings.self)
        #expect(others?.code == .permissionDenied)
    }

    @Test func anAdminsDirectRefundReachesTheJobAndTheEarnings() async throws {
        let (fixture, customer, dasher, job) = try await scene()
        let admin = try await fixture.harness.adminToken(fixture.marketplace)
        let payment = try await pay(fixture, job, customer, requestID: "pay")
        let _: SoukV1.Payment = try await fixture.harness.call("souk.v1.Payments", "RefundPayment", SoukV1.RefundPaymentRequest(
            marketplaceID: fixture.marketplace.id, requestID: "refund", paymentID: payment.id, amount: .init(amountMinor: 150, currencyCode: "USD"),
            reason: "late drop-off"), token: admin)
        let refunded = try await self.job(fixture, job.id, customer)
        #expect(refunded.paymentStatus == .partiallyRefunded && refunded.refundedAmount?.amountMinor == 150)
        let earnings: SoukV1.DasherEarnings = try await fixture.call("GetDasherEarnings", SoukV1.GetDasherEarningsRequest(
            marketplaceID: fixture.marketplace.id, period: .month, startDate: .init(year: 2027, month: 1, day: 1), endDate: .init(year: 2027, month: 1, day: 31)),
            dasher)
        #expect(earnings.totalEarnings?.amountMinor == 1500)
    }

    @Test func adminsResolvingAtOnceRefundOnce() async throws {
        let (fixture, customer, _, job) = try await scene()
        let market = fixture.marketplace.id
        let payment = try await pay(fixture, job, customer, requestID: "pay")
        let _: SoukV1.Job = try await fixture.call("DisputeJob", SoukV1.DisputeJobRequest(marketplaceID: market, jobID: job.id, reason: "torn"), customer)
        let admin = LaundryFixture.Student(id: "", token: try await fixture.harness.adminToken(fixture.marketplace))
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for attempt in 0..<5 {
                group.addTask {
                    await fixture.error("ResolveDispute", SoukV1.ResolveDisputeRequest(
                        marketplaceID: market, jobID: job.id, resolution: "refund \(attempt)", refund: .init(amountMinor: 400, currencyCode: "USD")), admin) == nil
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        let refunded: SoukV1.Payment = try await fixture.harness.call(
            "souk.v1.Payments", "GetPayment", SoukV1.GetPaymentRequest(marketplaceID: market, paymentID: payment.id), token: customer.token)
        #expect(refunded.refundedAmount?.amountMinor == 400 && refunded.refunds.count == 1)
    }

    @Test func aDisputeWaitsNoLongerThanSevenDaysAfterPaying() async throws {
        let (fixture, customer, _, job) = try await scene()
        _ = try await pay(fixture, job, customer, requestID: "pay")
        fixture.harness.clock.advance(.seconds(7 * 24 * 3600 + 1))
        // A week later the access token has expired: the customer signs in again.
        let session: SoukV1.Session = try await fixture.harness.accounts(
            "Login", SoukV1.LoginRequest(marketplaceID: fixture.marketplace.id, email: "ana@rutgers.edu", password: "Role-pass-1"))
        let again = LaundryFixture.Student(id: customer.id, token: session.accessToken)
        let late = await fixture.error("DisputeJob", SoukV1.DisputeJobRequest(marketplaceID: fixture.marketplace.id, jobID: job.id, reason: "late"), again)
        #expect(late?.soukReason == .disputeWindowClosed)
    }

    @Test func historiesShowTheOtherPartyAndTheAmount() async throws {
        let (fixture, customer, dasher, job) = try await scene()
        let market = fixture.marketplace.id
        let mine: SoukV1.ListJobsResponse = try await fixture.call("ListJobs", SoukV1.ListJobsRequest(marketplaceID: market, states: [.droppedOff]), customer)
        let seenByCustomer = try #require(mine.jobs.first)
        #expect(seenByCustomer.id == job.id && seenByCustomer.dasher?.displayName == "Dev" && seenByCustomer.room == "101")
        #expect(seenByCustomer.createTime != nil && seenByCustomer.completeTime != nil && seenByCustomer.finalPrice?.total?.amountMinor == 1650)
        let worked: SoukV1.ListJobsResponse = try await fixture.call(
            "ListJobs", SoukV1.ListJobsRequest(marketplaceID: market, owner: .dasherAccountID(dasher.id), states: [.droppedOff]), dasher)
        let seenByDasher = try #require(worked.jobs.first)
        #expect(seenByDasher.customer?.displayName == "Ana" && seenByDasher.room == "" && seenByDasher.completeTime != nil)
    }

    @Test func theEventStreamEndsOnceTheJobIsDroppedOff() async throws {
        let (fixture, customer, _, job) = try await scene(payments: false)
        guard case .serverStreaming(let handler)? = fixture.harness.method("souk.v1.Laundry", "WatchJob")?.handler else {
            throw RPCError(.unimplemented, "WatchJob")
        }
        for resume in [Int64(0), 1] {
            let events = Mutex<[SoukV1.JobEvent]>([])
            let writer = RPCWriter<ByteBuffer> { bytes, _ in
                let event = try SoukV1.JobEvent(decoding: Array(bytes.readableBytesView))
                events.withLock { $0.append(event) }
            }
            let request = SoukV1.WatchJobRequest(marketplaceID: fixture.marketplace.id, jobID: job.id, resumeAfterSequence: resume)
            try await handler(ByteBuffer(bytes: request.encoded()), writer, try fixture.harness.context("souk.v1.Laundry", "WatchJob", token: customer.token))
            let seen = events.withLock { $0 }
            #expect(seen.last?.job?.stage == .droppedOffLaundry)
            #expect(seen.count == (resume == 0 ? 1 : 10))
        }
    }

    @Test func weeksStartOnMondayAndMonthsOnTheFirst() {
        let thursday = CivilDate(year: 1970, month: 1, day: 1)
        #expect(EarningsTable.period(thursday, .week) == 0)
        #expect(EarningsTable.days(of: 0, .week) == (CivilDate(year: 1969, month: 12, day: 29), CivilDate(year: 1970, month: 1, day: 4)))
        let sunday = CivilDate(year: 2027, month: 1, day: 17)
        let monday = CivilDate(year: 2027, month: 1, day: 18)
        #expect(EarningsTable.period(monday, .week) == EarningsTable.period(sunday, .week) + 1)
        #expect(EarningsTable.days(of: EarningsTable.period(monday, .week), .week).0 == monday)
        #expect(EarningsTable.days(of: EarningsTable.period(sunday, .month), .month) == (CivilDate(year: 2027, month: 1, day: 1), CivilDate(year: 2027, month: 1, day: 31)))
        #expect(EarningsTable.days(of: EarningsTable.period(CivilDate(year: 2028, month: 2, day: 9), .month), .month).1 == CivilDate(year: 2028, month: 2, day: 29))
    }
}
