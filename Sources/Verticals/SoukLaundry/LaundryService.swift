import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Laundry`: dorms, the Dasher quiz and the accepting Dashers (`People/`); jobs, the
/// dorm's queue and the ten stages (`Jobs/`); ratings, disputes and earnings (`AfterDropOff/`).
/// Jobs are paid through `Payments.CreatePayment` (`JobPayable`).
struct LaundryService {
    let laundry: Laundry
    var store: Store { laundry.store }

    var declaration: SoukV1Services.Laundry {
        let submission = JobSubmission(laundry: laundry)
        let queue = JobQueue(laundry: laundry)
        let stages = JobStages(laundry: laundry)
        let people = LaundryPeople(store: store)
        let disputes = JobDisputes(laundry: laundry)
        let store = store
        return SoukV1Services.Laundry(
            createDorm: .handler(verticals: [.laundry], people.createDorm),
            getDorm: .handler(verticals: [.laundry], people.getDorm),
            listDorms: .handler(verticals: [.laundry], people.listDorms),
            updateDorm: .handler(verticals: [.laundry], people.updateDorm),
            estimateJobPrice: .handler(verticals: [.laundry], submission.estimate),
            listAcceptingDashers: .handler(verticals: [.laundry], people.listAcceptingDashers),
            setAcceptingRequests: .handler(verticals: [.laundry], people.setAcceptingRequests),
            submitJob: .handler(verticals: [.laundry], submission.submit),
            getJob: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store)) { request, call in
                try JobViews.get(request.jobID, call, store: store)
            },
            listJobs: .handler(verticals: [.laundry], owner: JobViews.listOwnership) { request, call in
                try JobViews.list(request, call, store: store)
            },
            clearPreferredDasher: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), queue.clearPreferred),
            requestWork: .handler(verticals: [.laundry], queue.requestWork),
            acceptJob: .handler(verticals: [.laundry], owner: JobViews.offerOwnership(\.jobID, store: store), queue.accept),
            denyJob: .handler(verticals: [.laundry], owner: JobViews.offerOwnership(\.jobID, store: store), queue.deny),
            rejectDasher: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), queue.rejectDasher),
            advanceJobStage: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), stages.advance),
            confirmFinalPrice: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), stages.confirmFinalPrice),
            cancelJob: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), stages.cancel),
            disputeJob: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), disputes.dispute),
            resolveDispute: .handler(verticals: [.laundry], disputes.resolve),
            rateJob: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), JobRatings(laundry: laundry).rate),
            watchJob: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store)) { request, writer, call in
                try await JobViews.watch(request, writer, call, store: store)
            },
            getDasherEarnings: .handler(
                verticals: [.laundry], owner: DasherEarningsReport.ownership, DasherEarningsReport(laundry: laundry).earnings),
            createQuizQuestion: .handler(verticals: [.laundry], people.createQuizQuestion),
            listQuizQuestions: .handler(verticals: [.laundry], people.listQuizQuestions),
            updateQuizQuestion: .handler(verticals: [.laundry], people.updateQuizQuestion),
            submitQuizAnswers: .handler(verticals: [.laundry], people.submitQuizAnswers))
    }
}
