import SoukKit
import SoukMessages
import SoukStore

/// A laundry job as stored: its own record (`souk.store.v1.Job`, without the id, version and
/// times, which the envelope holds) and its marketplace. RPCs answer with `JobProjection`.
public typealias JobRecord = MarketRecord<SoukStoreV1.Job>

/// Jobs and their indexes. Entries of a non-unique index end with the record id, a version 7
/// id, so every range below is in submission order: the queue's FIFO order.
enum JobTable {
    /// Whether the job waits in its dorm's queue: stage 0, not cancelled, offered to nobody.
    static func isQueued(_ job: SoukStoreV1.Job) -> Bool {
        job.state == .active && job.stage == .waitingForDasherToAccept && job.offeredToAccountID.isEmpty
    }

    /// The dorm's queue, oldest first.
    static let queue = Index<JobRecord>.nonUnique("laundry_jobs.queue") { record in
        isQueued(record.subject) ? [.string(record.marketplaceID), .string(record.subject.dormID)] : nil
    }
    /// Queued jobs that name a preferred Dasher, oldest first: offered to that Dasher first.
    static let preferred = Index<JobRecord>.nonUnique("laundry_jobs.preferred") { record in
        guard isQueued(record.subject), !record.subject.preferredDasherAccountID.isEmpty else { return nil }
        return [.string(record.marketplaceID), .string(record.subject.preferredDasherAccountID)]
    }
    /// The unanswered offer a Dasher holds.
    static let offeredTo = Index<JobRecord>.nonUnique("laundry_jobs.offered_to") { record in
        guard record.subject.state == .active, !record.subject.offeredToAccountID.isEmpty else { return nil }
        return [.string(record.marketplaceID), .string(record.subject.offeredToAccountID)]
    }

    /// Two entries per owner: under JOB_STATE_UNSPECIFIED (any state) and under the job's state,
    /// so that a list with or without a state filter is one range.
    private static func byState(_ record: JobRecord, _ owner: String) -> [[KeyPart]] {
        guard !owner.isEmpty else { return [] }
        let base: [KeyPart] = [.string(record.marketplaceID), .string(owner)]
        return [base + [.enumCase(SoukV1.JobState.unspecified)], base + [.enumCase(record.subject.state)]]
    }
    static let byCustomer = Index<JobRecord>.nonUnique("laundry_jobs.customer", keys: { byState($0, $0.subject.customerAccountID) })
    static let byDasher = Index<JobRecord>.nonUnique("laundry_jobs.dasher", keys: { byState($0, $0.subject.dasherAccountID) })
    static let byDorm = Index<JobRecord>.nonUnique("laundry_jobs.dorm", keys: { byState($0, $0.subject.dormID) })
    /// Jobs whose charge is disputed and not resolved yet, oldest first: the admins' inbox.
    static let openDisputes = Index<JobRecord>.nonUnique("laundry_jobs.open_disputes") { record in
        record.subject.dispute?.status == .open ? [.string(record.marketplaceID)] : nil
    }

    /// Offers by the time they lapse (`laundry_jobs.offer_expiry`) went with the polling loop:
    /// the offer-lapse timer keeps its own schedule.
    static let table = marketTable(
        "laundry_jobs", SoukStoreV1.Job.self, indexes: [queue, preferred, offeredTo, byCustomer, byDasher, byDorm, openDisputes]
    ).retiring("laundry_jobs.offer_expiry")

    static var all: [AnyTable] { [table.erased] }
}
