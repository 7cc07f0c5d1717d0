import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `souk.v1.Laundry`. Dorms, the Dasher quiz and the Dasher switch and list live in `People/`;
/// the job RPCs are not served yet.
struct LaundryService {
    let laundry: Laundry
    var store: Store { laundry.store }

    var declaration: SoukV1Services.Laundry {
        let people = LaundryPeople(store: store)
        let laundryOnly: Set<SoukV1.Vertical> = [.laundry]
        return SoukV1Services.Laundry(
            createDorm: .handler(verticals: laundryOnly, people.createDorm),
            getDorm: .handler(verticals: laundryOnly, people.getDorm),
            listDorms: .handler(verticals: laundryOnly, people.listDorms),
            updateDorm: .handler(verticals: laundryOnly, people.updateDorm),
            estimateJobPrice: .unimplemented,
            listAcceptingDashers: .handler(verticals: laundryOnly, people.listAcceptingDashers),
            setAcceptingRequests: .handler(verticals: laundryOnly, people.setAcceptingRequests),
            submitJob: .unimplemented,
            getJob: .unimplemented,
            listJobs: .unimplemented,
            clearPreferredDasher: .unimplemented,
            requestWork: .unimplemented,
            acceptJob: .unimplemented,
            denyJob: .unimplemented,
            rejectDasher: .unimplemented,
            advanceJobStage: .unimplemented,
            cancelJob: .unimplemented,
            disputeJob: .unimplemented,
            resolveDispute: .unimplemented,
            rateJob: .unimplemented,
            watchJob: .unimplemented,
            createQuizQuestion: .handler(verticals: laundryOnly, people.createQuizQuestion),
            listQuizQuestions: .handler(verticals: laundryOnly, people.listQuizQuestions),
            updateQuizQuestion: .handler(verticals: laundryOnly, people.updateQuizQuestion),
            submitQuizAnswers: .handler(verticals: laundryOnly, people.submitQuizAnswers))
    }
}
