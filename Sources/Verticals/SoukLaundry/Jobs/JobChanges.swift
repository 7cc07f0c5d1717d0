import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// The notes that tell a job's parties of its changes, and the words of its stages. (Changes
/// that are not transitions, an offer, a denial, a lapsed offer, are recorded by the lifecycle:
/// `StateMachine.recordChange`.)
enum JobChanges {
    /// Tells `accounts` about job `record`.
    static func notify(_ accounts: [String], _ record: StoredRecord<JobRecord>, _ text: NotificationText, transaction: Transaction) throws {
        let subject = SoukV1.ResourceRef(type: .job, id: record.id.description)
        try Notifier.send(
            accounts.map { Notifier.Note(to: $0, kind: .job, text, subject: subject) },
            marketplaceID: record.value.marketplaceID, transaction: transaction)
    }

    /// The words of a stage for messages ("Picked Up Laundry").
    static func title(_ stage: SoukV1.JobStage) -> String {
        switch stage {
        case .waitingForDasherToAccept: "Waiting for Dasher To Accept"
        case .dasherAcceptedRequest: "Dasher Accepted Request"
        case .dasherOnWayForPickup: "Dasher on Way for Pickup"
        case .pickedUpLaundry: "Picked Up Laundry"
        case .laundryInWasher: "Laundry in Washer"
        case .finishedWashing: "Finished Washing"
        case .laundryInDryer: "Laundry in Dryer"
        case .finishedDrying: "Finished Drying"
        case .dasherOnWayForDropOff: "Dasher on Way for Drop Off"
        case .droppedOffLaundry: "Dropped Off Laundry"
        case .unrecognized(let value): "Stage \(value)"
        }
    }
}
