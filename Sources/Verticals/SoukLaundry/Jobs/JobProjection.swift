import SoukAccess
import SoukKit
import SoukMessages
import SoukStore

/// What a caller sees of a stored job: the contract's `Job`, built field by field. It is an
/// allow-list: a field of the stored record that no line here names (the Dashers excluded from
/// the job) is never sent.
enum JobProjection {
    /// Who reads the job, by what they may see.
    enum Viewer {
        /// The job's customer, an admin or an operator: the whole job.
        case customerOrAdmin
        /// Any other caller allowed to read it (its Dasher, the Dasher it is offered to): the
        /// customer's room only while the job is active (a Dasher's history shows no room).
        case other
    }

    /// The viewer kind of `caller` for `job`.
    static func viewer(_ job: SoukStoreV1.Job, _ caller: Caller) -> Viewer {
        caller.isOperator || caller.activeRoles.contains(.admin) || job.customerAccountID == caller.accountID.description
            ? .customerOrAdmin : .other
    }

    /// The stored fields `viewer` sees, with the envelope's id, version and times. The parties'
    /// summaries and the available transitions come from other records (`JobViews.view`).
    static func job(_ record: StoredRecord<JobRecord>, for viewer: Viewer) -> SoukV1.Job {
        let job = record.value.subject
        var shown = record.stamped(SoukV1.Job())
        shown.customerAccountID = job.customerAccountID
        shown.dormID = job.dormID
        if viewer == .customerOrAdmin || job.state == .active { shown.room = job.room }
        shown.loadsEstimate = job.loadsEstimate
        shown.instructions = job.instructions
        shown.pickupTime = job.pickupTime
        shown.dropoffTime = job.dropoffTime
        shown.addOns = job.addOns
        shown.preferredDasherAccountID = job.preferredDasherAccountID
        shown.sameGenderOnly = job.sameGenderOnly
        shown.stage = job.stage
        shown.state = job.state
        shown.stageTimes = job.stageTimes
        shown.dasherAccountID = job.dasherAccountID
        shown.offeredToAccountID = job.offeredToAccountID
        shown.offerExpireTime = job.offerExpireTime
        shown.estimate = job.estimate
        shown.actualLoads = job.actualLoads
        shown.machineCostTotal = job.machineCostTotal
        shown.finalPrice = job.finalPrice
        shown.finalPriceConfirmationRequired = job.finalPriceConfirmationRequired
        shown.finalPriceConfirmTime = job.finalPriceConfirmTime
        shown.paymentID = job.paymentID
        shown.paymentStatus = job.paymentStatus
        shown.paidAmount = job.paidAmount
        shown.payTime = job.payTime
        shown.refundedAmount = job.refundedAmount
        shown.dispute = job.dispute
        shown.customerRatedDasher = job.customerRatedDasher
        shown.dasherRatedCustomer = job.dasherRatedCustomer
        shown.cancelReason = job.cancelReason
        shown.cancelTime = job.cancelTime
        shown.completeTime = job.completeTime
        return shown
    }
}
