import SoukKit
import SoukMessages
import SoukStore

/// Where a laundry job stands: one of its ten stages, or cancelled (the job keeps the stage it
/// was cancelled in, and `state` says CANCELLED). `JobStage` numbers are the app's stage numbers.
public enum LaundryJobState: LifecycleState {
    case stage(SoukV1.JobStage)
    case cancelled

    public var protoName: String {
        switch self {
        case .stage(let stage): stage.protoName
        case .cancelled: SoukV1.JobState.cancelled.protoName
        }
    }
}

extension SoukStoreV1.Job {
    /// The job's lifecycle state, kept in `stage` and `state` (which also says when stage 9 was reached).
    public var lifecycleState: LaundryJobState {
        get { state == .cancelled ? .cancelled : .stage(stage) }
        set {
            switch newValue {
            case .stage(let stage):
                self.stage = stage
                state = stage == .droppedOffLaundry ? .droppedOff : .active
            case .cancelled:
                state = .cancelled
            }
        }
    }
}

/// A laundry job's transitions.
public enum JobMove: String, TransitionName {
    case accept, rejectDasher = "reject_dasher", cancel, confirmFinalPrice = "confirm_final_price", advance
}

/// The lifecycle of a Drip 'n Dash job. Offering a job to a Dasher, a denial and a lapsed offer
/// leave it at stage 0: they are not transitions. A final price above twice the estimate holds
/// the job at stage 7 until the customer confirms it.
public enum JobLifecycle {
    /// The ten stages in order, 0 to 9.
    public static let stages: [SoukV1.JobStage] = [
        .waitingForDasherToAccept, .dasherAcceptedRequest, .dasherOnWayForPickup, .pickedUpLaundry, .laundryInWasher,
        .finishedWashing, .laundryInDryer, .finishedDrying, .dasherOnWayForDropOff, .droppedOffLaundry,
    ]

    static let offeredDasher = TransitionGuard<SoukStoreV1.Job>.only(.courier, "only the Dasher it is offered to") { $0.offeredToAccountID }
    static let assignedDasher = TransitionGuard<SoukStoreV1.Job>.only(.courier, "only the assigned Dasher") { $0.dasherAccountID }
    static let priceConfirmed = TransitionGuard<SoukStoreV1.Job>("no final price waiting for the customer's confirmation") { job, _ in
        !job.finalPriceConfirmationRequired
    }
    static let confirmationPending = TransitionGuard<SoukStoreV1.Job>("a final price waiting for the customer's confirmation") { job, _ in
        job.finalPriceConfirmationRequired
    }

    public static let machine = StateMachine<SoukStoreV1.Job, LaundryJobState, JobMove>(
        "Laundry job", resource: .job, state: \.lifecycleState, initial: [.stage(stages[0])], streamed: true,
        transitions: [
            Transition(
                .accept, from: [.stage(stages[0])], to: .stage(stages[1]), by: [.courier], guards: [offeredDasher],
                effects: [JobEffects.tellCustomerAccepted]),
            // The customer sends the accepted Dasher away: back to the queue at its place.
            Transition(
                .rejectDasher, from: [.stage(stages[1]), .stage(stages[2])], to: .stage(stages[0]), by: [.customer],
                effects: [JobEffects.tellRejectedDasher]),
            // Stages 0–2; from stage 3 the laundry is picked up.
            Transition(
                .cancel, from: stages[0...2].map { .stage($0) }, to: .cancelled, by: [.customer], refusal: .cancelNotAllowed,
                effects: [JobEffects.tellDasherCancelled, JobReports.cancelled]),
            // The job stays at stage 7; the confirmation lets it go on to stage 8.
            Transition(
                .confirmFinalPrice, from: [.stage(stages[7])], to: .stage(stages[7]), by: [.customer], guards: [confirmationPending],
                effects: [JobEffects.tellDasherPriceConfirmed]),
        ]
            // One stage at a time, forward, from stage 1 to stage 9: each stage has exactly one next.
            + zip(stages.dropFirst(), stages.dropFirst(2)).map { from, to in
                Transition(.advance, from: [.stage(from)], to: .stage(to), by: [.courier],
                    guards: from == stages[7] ? [assignedDasher, priceConfirmed] : [assignedDasher], refusal: .stageNotNext,
                    effects: to == stages[9] ? [JobEffects.countCompleted, JobEffects.tellCustomerStage, JobReports.completed] : [JobEffects.tellCustomerStage])
            },
        timers: [offerLapse])

    /// An offer a Dasher leaves unanswered lapses at its `offer_expire_time`: the job returns to
    /// its place in its dorm's queue (`JobQueue.lapse`). Until the scheduler gets to it, reads
    /// treat a lapsed offer as gone (`JobQueue.isLive`).
    public static let offerLapse = LifecycleTimer<SoukStoreV1.Job, JobMove>("offer lapse", at: "offer_expire_time") { job in
        job.state == .active && !job.offeredToAccountID.isEmpty ? job.offerExpireTime.map { StoreTime($0) } : nil
    }
}
