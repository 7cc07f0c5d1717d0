import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

/// Pricing, the ten stages, the customer's cancellation and the final price.
@Suite struct JobFlowTests {
    @Test func theEstimateIsLoadsTimesMachineCostPlusServiceFeeAndAddOns() async throws {
        let f = try await LaundryFixture.make()
        let customer = try await f.student("ana")
        let price: SoukV1.PriceBreakdown = try await f.call("EstimateJobPrice", SoukV1.EstimateJobPriceRequest(
            marketplaceID: f.marketplace.id, loadsEstimate: 3, addOns: [.folding, .ironing]), customer)
        #expect(price.subtotal?.amountMinor == 900)
        #expect(price.fees.map { $0.amount?.amountMinor ?? 0 } == [500, 250, 500])
        #expect(price.total?.amountMinor == 2_150)
        let zero = await f.harness.error("souk.v1.Laundry", "EstimateJobPrice", SoukV1.EstimateJobPriceRequest(
            marketplaceID: f.marketplace.id, loadsEstimate: 0), token: customer.token, as: SoukV1.PriceBreakdown.self)
        #expect(zero?.code == .invalidArgument && zero?.message.hasPrefix("loads_estimate") == true)
        let job = try await f.submit(customer, loads: 3, addOns: [.folding])
        #expect(job.stage == .waitingForDasherToAccept && job.state == .active && job.estimate?.total?.amountMinor == 1_650)
    }

    @Test func theDasherMovesTheJobOneStageAtATimeAndStageSevenFixesTheFinalPrice() async throws {
        let f = try await LaundryFixture.make()
        let customer = try await f.student("ana")
        let dasher = try await f.student("dan", dasher: true)
        let other = try await f.student("olga", dasher: true)
        var job = try await f.submit(customer, loads: 2)
        #expect(try await f.requestWork(dasher)?.id == job.id)
        job = try await f.accept(job, dasher)
        #expect(job.stage == .dasherAcceptedRequest && job.dasher?.displayName == "Dan")
        let skip = await f.error("AdvanceJobStage", SoukV1.AdvanceJobStageRequest(
            marketplaceID: f.marketplace.id, jobID: job.id, targetStage: .pickedUpLaundry), dasher)
        #expect(skip?.soukReason == .stageNotNext)
        let stranger = await f.error("AdvanceJobStage", SoukV1.AdvanceJobStageRequest(
            marketplaceID: f.marketplace.id, jobID: job.id, targetStage: .dasherOnWayForPickup), other)
        #expect(stranger?.code == .permissionDenied)
        for stage in [SoukV1.JobStage.dasherOnWayForPickup, .pickedUpLaundry, .laundryInWasher, .finishedWashing, .laundryInDryer] {
            job = try await f.advance(job, to: stage, dasher)
        }
        let noCost = await f.error("AdvanceJobStage", SoukV1.AdvanceJobStageRequest(
            marketplaceID: f.marketplace.id, jobID: job.id, targetStage: .finishedDrying), dasher)
        #expect(noCost?.code == .invalidArgument && noCost?.soukReason == .finalCostRequired)
        job = try await f.advance(job, to: .finishedDrying, dasher, loads: 3, cost: 900)
        #expect(job.actualLoads == 3 && job.machineCostTotal?.amountMinor == 900 && job.finalPrice?.total?.amountMinor == 1_400)
        #expect(!job.finalPriceConfirmationRequired)
        job = try await f.advance(job, to: .dasherOnWayForDropOff, dasher)
        job = try await f.advance(job, to: .droppedOffLaundry, dasher)
        #expect(job.stage == .droppedOffLaundry && job.state == .droppedOff && job.stage.rawValue == 9)
    }

    @Test func aFinalPriceAboveTwiceTheEstimateWaitsForTheCustomer() async throws {
        let f = try await LaundryFixture.make()
        let customer = try await f.student("ana")
        let dasher = try await f.student("dan", dasher: true)
        var job = try await f.submit(customer, loads: 1)  // 300 + 500 = 800
        _ = try await f.requestWork(dasher)
        job = try await f.accept(job, dasher)
        for stage in [SoukV1.JobStage.dasherOnWayForPickup, .pickedUpLaundry, .laundryInWasher, .finishedWashing, .laundryInDryer] {
            job = try await f.advance(job, to: stage, dasher)
        }
        job = try await f.advance(job, to: .finishedDrying, dasher, loads: 4, cost: 1_200)  // 1,700 > 1,600
        #expect(job.finalPriceConfirmationRequired)
        let held = await f.error("AdvanceJobStage", SoukV1.AdvanceJobStageRequest(
            marketplaceID: f.marketplace.id, jobID: job.id, targetStage: .dasherOnWayForDropOff), dasher)
        #expect(held?.code == .failedPrecondition && held?.soukReason == .finalPriceUnconfirmed)
        job = try await f.call("ConfirmFinalPrice", SoukV1.ConfirmFinalPriceRequest(marketplaceID: f.marketplace.id, jobID: job.id), customer)
        #expect(!job.finalPriceConfirmationRequired && job.finalPriceConfirmTime != nil)
        job = try await f.advance(job, to: .dasherOnWayForDropOff, dasher)
        #expect(job.stage == .dasherOnWayForDropOff)
    }

    @Test func theCustomerCancelsUpToStageTwoAndIsRefusedOnceTheLaundryIsPickedUp() async throws {
        let f = try await LaundryFixture.make()
        let customer = try await f.student("ana")
        let dasher = try await f.student("dan", dasher: true)
        let waiting = try await f.submit(customer)
        let cancelled = try await f.cancel(waiting, customer)
        #expect(cancelled.state == .cancelled && cancelled.stage == .waitingForDasherToAccept)
        #expect(try await f.requestWork(dasher) == nil)

        var job = try await f.submit(customer)
        _ = try await f.requestWork(dasher)
        job = try await f.accept(job, dasher)
        job = try await f.advance(job, to: .dasherOnWayForPickup, dasher)
        job = try await f.advance(job, to: .pickedUpLaundry, dasher)
        let refused = await f.error("CancelJob", SoukV1.CancelJobRequest(marketplaceID: f.marketplace.id, jobID: job.id), customer)
        #expect(refused?.code == .failedPrecondition && refused?.soukReason == .cancelNotAllowed)
        #expect(refused?.message.contains("already been picked up") == true)
    }

    @Test func everyStageChangeIsOnTheJobsStreamAndOnlyOwnersReadIt() async throws {
        let f = try await LaundryFixture.make()
        let customer = try await f.student("ana")
        let stranger = try await f.student("sam")
        let dasher = try await f.student("dan", dasher: true)
        var job = try await f.submit(customer)
        _ = try await f.requestWork(dasher)
        job = try await f.accept(job, dasher)
        job = try await f.advance(job, to: .dasherOnWayForPickup, dasher)
        let denied = await f.error("GetJob", SoukV1.GetJobRequest(marketplaceID: f.marketplace.id, jobID: job.id), stranger)
        #expect(denied?.code == .permissionDenied)
        let mine: SoukV1.ListJobsResponse = try await f.call("ListJobs", SoukV1.ListJobsRequest(marketplaceID: f.marketplace.id), customer)
        #expect(mine.jobs.map(\.id) == [job.id])
        let history = try f.harness.store.transitions(of: RecordID(job.id)!, marketplaceID: f.marketplace.id, page: PageRequest(size: 100))
        #expect(history.entries.map(\.toState).filter { !$0.isEmpty } == [
            "JOB_STAGE_WAITING_FOR_DASHER_TO_ACCEPT", "JOB_STAGE_DASHER_ACCEPTED_REQUEST", "JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP",
        ])
    }
}
