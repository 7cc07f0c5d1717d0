import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// What a job's transitions do besides moving it, declared with them in `JobLifecycle.machine`
/// and run by the machine in the transition's transaction: whom each tells, and the Dasher's
/// count of completed jobs.
enum JobEffects {
    static let tellCustomerAccepted = TransitionEffect<SoukStoreV1.Job>("notify the customer") { move, transaction in
        let dasher = try RecordID(move.after.dasherAccountID).flatMap { try IdentityRecords.account($0, transaction) }
        try notify(
            [move.after.customerAccountID], move, .jobAccepted(dasher: dasher?.givenName ?? ""), transaction: transaction)
    }

    static let tellRejectedDasher = TransitionEffect<SoukStoreV1.Job>("notify the Dasher sent away") { move, transaction in
        try notify([move.before.dasherAccountID], move, .jobDasherReplaced, transaction: transaction)
    }

    static let tellDasherCancelled = TransitionEffect<SoukStoreV1.Job>("notify the Dasher assigned or offered") { move, transaction in
        let dasher = move.before.dasherAccountID.isEmpty ? move.before.offeredToAccountID : move.before.dasherAccountID
        try notify([dasher], move, .jobCancelled, transaction: transaction)
    }

    static let tellDasherPriceConfirmed = TransitionEffect<SoukStoreV1.Job>("notify the Dasher") { move, transaction in
        try notify([move.after.dasherAccountID], move, .jobPriceConfirmed, transaction: transaction)
    }

    static let tellCustomerStage = TransitionEffect<SoukStoreV1.Job>("notify the customer") { move, transaction in
        let stage = move.after.stage
        let position = JobLifecycle.stages.firstIndex(of: stage) ?? 0
        try notify(
            [move.after.customerAccountID], move,
            .jobStage(position: position, stage: JobChanges.title(stage), confirmPrice: move.after.finalPriceConfirmationRequired),
            transaction: transaction)
    }

    static let countCompleted = TransitionEffect<SoukStoreV1.Job>("add to the Dasher's completed jobs") { move, transaction in
        guard move.after.stage == .droppedOffLaundry, let dasherID = RecordID(move.after.dasherAccountID) else { return }
        try LaundryStudents.countCompleted(dasherID, marketplaceID: move.marketplaceID, transaction: transaction)
    }

    private static func notify(_ accounts: [String], _ move: LifecycleMove<SoukStoreV1.Job>, _ text: NotificationText, transaction: Transaction) throws {
        let subject = move.ref(.job)
        try Notifier.send(
            accounts.map { Notifier.Note(to: $0, kind: .job, text, subject: subject) }, marketplaceID: move.marketplaceID,
            transaction: transaction)
    }
}
