import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// Changes of a job that are not stage transitions (an offer, a denial, a lapsed offer): the
/// audit log and the job's event stream get them as transitions do, so `WatchJob` sees every
/// change; and the notes that tell the parties.
enum JobChanges {
    static func record(_ record: StoredRecord<JobRecord>, actor: AuditActor, reason: String = "", transaction: Transaction) throws {
        let entry = try AuditLog.record(
            in: transaction, marketplaceID: record.value.marketplaceID,
            resource: SoukV1.ResourceRef(type: .job, id: record.id.description), actor: actor, reason: reason,
            resourceVersion: record.version)
        try transaction.appendLifecycleEvent(entry, of: .job, record: record, in: JobTable.table)
    }

    /// Tells `accounts` about job `record`.
    static func notify(_ accounts: [String], _ record: StoredRecord<JobRecord>, title: String, body: String, transaction: Transaction) throws {
        let subject = SoukV1.ResourceRef(type: .job, id: record.id.description)
        try Notifier.send(
            accounts.map { Notifier.Note(to: $0, kind: .job, title: title, body: body, subject: subject) },
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
