import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

/// The dorm's queue: FIFO, denials and rejections, the preferred Dasher, the same-gender rule,
/// and Dashers asking at once.
@Suite struct JobQueueTests {
    @Test func aDasherGetsTheOldestJobOfTheirDormAndADeniedJobKeepsItsPlace() async throws {
        let f = try await LaundryFixture.make()
        let customer = try await f.student("ana")
        let elsewhere = try await f.student("eli", dorm: "hardenbergh")
        let dan = try await f.student("dan", dasher: true)
        let dee = try await f.student("dee", dasher: true)
        _ = try await f.submit(elsewhere)
        let first = try await f.submit(customer)
        let second = try await f.submit(customer)
        let offered = try #require(try await f.requestWork(dan))
        #expect(offered.id == first.id && offered.offeredToAccountID == dan.id)
        #expect(try await f.requestWork(dan)?.id == first.id)  // asking again returns the same offer
        #expect(try await f.requestWork(dee)?.id == second.id)
        _ = try await f.deny(offered, dan)
        // Denied: back at its place, before newer jobs, and never offered to dan again.
        let third = try await f.submit(customer)
        #expect(try await f.requestWork(dan)?.id == third.id)
        _ = try await f.deny(second, dee)
        let freshDasher = try await f.student("fay", dasher: true)
        #expect(try await f.requestWork(freshDasher)?.id == first.id)
    }

    @Test func anUnansweredOfferLapsesAndTheJobReturnsToItsPlace() async throws {
        let f = try await LaundryFixture.make()
        let customer = try await f.student("ana")
        let dan = try await f.student("dan", dasher: true)
        let dee = try await f.student("dee", dasher: true)
        let job = try await f.submit(customer)
        _ = try await f.submit(customer)
        #expect(try await f.requestWork(dan)?.id == job.id)
        f.harness.clock.advance(.seconds(121))
        #expect(try await f.harness.fireDueTimers(f.laundry) == 1)
        #expect(try await f.requestWork(dee)?.id == job.id)
    }

    @Test func theCustomerRejectsTheDasherOnceAndTheJobGoesBackToTheQueue() async throws {
        let f = try await LaundryFixture.make()
        let customer = try await f.student("ana")
        let dan = try await f.student("dan", dasher: true)
        let dee = try await f.student("dee", dasher: true)
        var job = try await f.submit(customer)
        _ = try await f.requestWork(dan)
        job = try await f.accept(job, dan)
        job = try await f.call("RejectDasher", SoukV1.RejectDasherRequest(marketplaceID: f.marketplace.id, jobID: job.id), customer)
        #expect(job.stage == .waitingForDasherToAccept && job.dasherAccountID.isEmpty)
        #expect(try await f.requestWork(dan) == nil)
        #expect(try await f.requestWork(dee)?.id == job.id)
        let again = await f.error("RejectDasher", SoukV1.RejectDasherRequest(marketplaceID: f.marketplace.id, jobID: job.id), customer)
        #expect(again?.code == .failedPrecondition)
    }

    @Test func aJobNamingADasherWaitsForThemUntilTheOfferTimeout() async throws {
        let f = try await LaundryFixture.make()
        let customer = try await f.student("ana")
        let dan = try await f.student("dan", dasher: true)
        let dee = try await f.student("dee", dasher: true)
        let notAccepting = await f.harness.error("souk.v1.Laundry", "SubmitJob", SoukV1.SubmitJobRequest(
            marketplaceID: f.marketplace.id, requestID: "x", loadsEstimate: 1, preferredDasherAccountID: dan.id), token: customer.token,
            as: SoukV1.Job.self)
        #expect(notAccepting?.code == .failedPrecondition && notAccepting?.soukReason == .dasherNotAccepting)
        try await f.setAccepting(dan)
        let older = try await f.submit(customer)
        let named = try await f.submit(customer, preferred: dan.id)
        #expect(try await f.requestWork(dan)?.id == named.id)  // the job naming dan before the older one
        _ = try await f.deny(named, dan)
        // The preference goes with the denial: the job is anyone's now, in its place.
        #expect(try await f.requestWork(dee)?.id == older.id)
        _ = try await f.accept(older, dee)

        let waiting = try await f.submit(customer, preferred: dan.id)
        let fay = try await f.student("fay", dasher: true)
        #expect(try await f.requestWork(fay)?.id == named.id)
        _ = try await f.accept(named, fay)
        let gus = try await f.student("gus", dasher: true)
        #expect(try await f.requestWork(gus) == nil)  // only the job waiting for dan is left
        f.harness.clock.advance(.seconds(121))
        #expect(try await f.requestWork(gus)?.id == waiting.id)
    }

    @Test func aSameGenderJobGoesOnlyToADasherOfTheCustomersGender() async throws {
        let f = try await LaundryFixture.make()
        let customer = try await f.student("ana", gender: .female)
        let unshared = try await f.student("una")
        let dan = try await f.student("dan", dasher: true, gender: .male)
        let dee = try await f.student("dee", dasher: true, gender: .female)
        let refused = await f.harness.error("souk.v1.Laundry", "SubmitJob", SoukV1.SubmitJobRequest(
            marketplaceID: f.marketplace.id, requestID: "x", loadsEstimate: 1, sameGenderOnly: true), token: unshared.token, as: SoukV1.Job.self)
        #expect(refused?.code == .invalidArgument && refused?.message.hasPrefix("same_gender_only") == true)
        let job = try await f.submit(customer, sameGender: true)
        #expect(try await f.requestWork(dan) == nil)
        #expect(try await f.requestWork(dee)?.id == job.id)
    }

    /// 50 Dashers ask at once from a queue of 20: 20 distinct jobs, 30 told the queue is empty.
    @Test func fiftyDashersAskingAtOnceNeverShareAJob() async throws {
        let f = try await LaundryFixture.make()
        let customer = try await f.student("ana")
        var jobs: [String] = []
        for _ in 0..<20 { jobs.append(try await f.submit(customer).id) }
        var dashers: [LaundryFixture.Student] = []
        for index in 0..<50 { dashers.append(try await f.student("dasher\(index)", dasher: true)) }
        let offers = try await withThrowingTaskGroup(of: String?.self) { group in
            for dasher in dashers { group.addTask { try await f.requestWork(dasher)?.id } }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        let taken = offers.compactMap { $0 }
        #expect(taken.count == 20 && Set(taken) == Set(jobs))
        #expect(offers.filter { $0 == nil }.count == 30)
    }

    /// Fewer Dashers than jobs, asking at once: exactly the oldest jobs are taken (FIFO).
    @Test func dashersAskingAtOnceTakeTheOldestJobs() async throws {
        let f = try await LaundryFixture.make()
        let customer = try await f.student("ana")
        var jobs: [String] = []
        for _ in 0..<20 { jobs.append(try await f.submit(customer).id) }
        var dashers: [LaundryFixture.Student] = []
        for index in 0..<8 { dashers.append(try await f.student("dasher\(index)", dasher: true)) }
        let offers = try await withThrowingTaskGroup(of: String?.self) { group in
            for dasher in dashers { group.addTask { try await f.requestWork(dasher)?.id } }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(Set(offers.compactMap { $0 }) == Set(jobs.prefix(8)))
    }
}
