import SoukKit
import SoukMessages
import SoukStore

/// The marketplace's job rules, with the values the contract's comments give as examples when
/// the marketplace sets none.
struct JobRules: Sendable {
    /// How long an offer stays reserved, and how long a job naming a Dasher waits for them.
    var offerTimeout: Duration
    /// Last stage (app number) the customer may still cancel in.
    var lastCancellableStage: Int32

    init(_ marketplace: SoukV1.Marketplace) {
        let settings = marketplace.settings?.laundry
        offerTimeout = settings?.jobOfferTimeout.flatMap { $0 > .zero ? $0 : nil } ?? .seconds(120)
        lastCancellableStage = settings?.lastCancellableStage ?? 2
    }

    /// Whether `dasher` may be offered the queued `job` (submitted at `submitted`) at `now`: not
    /// their own job, not one they denied or were rejected from, of their gender when the
    /// customer asked so (`customerGender`), and not one still waiting for the Dasher it names.
    func mayOffer(
        _ job: SoukStoreV1.Job, submitted: StoreTime, to dasher: SoukV1.Account, customerGender: SoukV1.Gender, now: StoreTime
    ) -> Bool {
        if job.customerAccountID == dasher.id || job.excludedDasherAccountIDs.contains(dasher.id) { return false }
        if job.sameGenderOnly, customerGender == .unspecified || LaundryStudents.gender(dasher) != customerGender { return false }
        let named = job.preferredDasherAccountID
        return named.isEmpty || named == dasher.id || submitted.adding(offerTimeout) <= now
    }
}
