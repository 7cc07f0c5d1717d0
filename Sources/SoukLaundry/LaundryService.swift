import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Laundry`: jobs, the dorm's queue and the ten stages. Dorms, the accepting-requests
/// switch and the list of accepting Dashers belong to the students' side and answer
/// UNIMPLEMENTED here, as do payments after stage 9, disputes and ratings.
struct LaundryService {
    let laundry: Laundry
    var store: Store { laundry.store }

    var declaration: SoukV1Services.Laundry {
        let submission = JobSubmission(laundry: laundry)
        let queue = JobQueue(laundry: laundry)
        let stages = JobStages(laundry: laundry)
        let store = store
        return SoukV1Services.Laundry(
            createDorm: .unimplemented,
            getDorm: .unimplemented,
            listDorms: .unimplemented,
            updateDorm: .unimplemented,
            estimateJobPrice: .handler(verticals: [.laundry], submission.estimate),
            listAcceptingDashers: .unimplemented,
            setAcceptingRequests: .unimplemented,
            submitJob: .handler(verticals: [.laundry], submission.submit),
            getJob: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store)) { request, call in
                try JobViews.get(request.jobID, call, store: store)
            },
            listJobs: .handler(verticals: [.laundry], owner: JobViews.listOwnership) { request, call in
                try JobViews.list(request, call, store: store)
            },
            clearPreferredDasher: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), queue.clearPreferred),
            requestWork: .handler(verticals: [.laundry], queue.requestWork),
            acceptJob: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), queue.accept),
            denyJob: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), queue.deny),
            rejectDasher: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), queue.rejectDasher),
            advanceJobStage: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), stages.advance),
            confirmFinalPrice: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), stages.confirmFinalPrice),
            cancelJob: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store), stages.cancel),
            disputeJob: .unimplemented,
            resolveDispute: .unimplemented,
            rateJob: .unimplemented,
            watchJob: .handler(verticals: [.laundry], owner: JobViews.ownership(\.jobID, store: store)) { request, writer, call in
                try await JobViews.watch(request, writer, call, store: store)
            })
    }
}
