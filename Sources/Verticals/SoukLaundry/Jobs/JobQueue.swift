import SoukIdentity
import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// A dorm's queue of pending jobs and the Dashers who ask for work from it: offers, their
/// answers and their lapse, and the customer sending an accepted Dasher away.
///
/// A Dasher asking for work is offered the oldest queued job naming them, else the oldest
/// queued job of their dorm they may take (`JobRules.mayOffer`). Candidates are read in queue
/// order from the index; one that a commit has taken since is passed over unlocked, the others
/// are locked and checked again inside the write: two Dashers asking at once lock the same job,
/// the second sees it offered and goes on to the next, so no job is offered twice and the
/// queue's order is kept. A job leaves the queue when offered and
/// returns to its place (its id, which orders the index) when denied, lapsed or rejected.
struct JobQueue {
    let laundry: Laundry
    var store: Store { laundry.store }

    func requestWork(_ request: SoukV1.RequestWorkRequest, _ call: SoukCall) async throws -> SoukV1.RequestWorkResponse {
        let dasher = try LaundryStudents.requireStudent(call, store: store)
        guard LaundryStudents.isActiveDasher(dasher) else {
            throw RPCError.souk(.permissionDenied, .notAllowed, "account \(dasher.id) is not an active Dasher")
        }
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let market = marketplaceID.description
        let rules = JobRules(marketplace)
        let timeout = rules.offerTimeout
        let actor = AuditActor(call)
        let offered: StoredRecord<JobRecord>? = try await store.write { transaction in
            let now = transaction.now
            // An offer that lapsed is not held any more, though the scheduler may not have
            // returned it to the queue yet.
            let held = try transaction.list(
                JobTable.table, JobTable.offeredTo, .starting(with: [.string(market), .string(dasher.id)]), limit: PageRequest.maximumSize)
            if let live = held.first(where: { Self.isLive($0.value.subject, at: now) }) { return live }
            for range in [
                (JobTable.preferred, [KeyPart.string(market), .string(dasher.id)]),
                (JobTable.queue, [KeyPart.string(market), .string(LaundryStudents.dorm(dasher))]),
            ] {
                if let job = try Self.take(range.0, range.1, for: dasher, rules: rules, now: now, store: store, transaction: transaction) {
                    let updated = try transaction.update(JobTable.table, job.id) { record in
                        record.subject.offeredToAccountID = dasher.id
                        record.subject.offerExpireTime = Timestamp(now.adding(timeout))
                    }
                    try JobLifecycle.machine.recordChange(updated, in: JobTable.table, by: actor, reason: "offered", transaction: transaction)
                    // On the Dasher's stream and phones too, with how long the offer has.
                    try Notifier.send(
                        [Notifier.Note(
                            to: dasher.id, kind: .job, .jobOffered, subject: SoukV1.ResourceRef(type: .job, id: job.id.description),
                            expires: now.adding(timeout))],
                        marketplaceID: market, transaction: transaction)
                    return updated
                }
            }
            return nil
        }
        var response = SoukV1.RequestWorkResponse()
        response.job = try offered.map { try JobViews.view($0, call, store: store) }
        return response
    }

    /// The first job of `index` under `prefix` that is still queued and that `dasher` may take,
    /// read and locked; nil when none.
    ///
    /// Dashers asking at the same moment must not queue up behind one another: a job taken by a
    /// commit since the page was read is passed over without a lock, and so is a job another
    /// Dasher's transaction is taking right now (its lock held: `getUnlessLocked`), for the next
    /// one. Each candidate is checked before it is locked, so a Dasher locks only a job it would
    /// take, and the jobs passed over are the ones being taken: FIFO holds among the Dashers who
    /// may take them.
    private static func take(
        _ index: Index<JobRecord>, _ prefix: [KeyPart], for dasher: SoukV1.Account, rules: JobRules, now: StoreTime, store: Store,
        transaction: Transaction
    ) throws -> StoredRecord<JobRecord>? {
        var page = PageRequest(size: PageRequest.maximumSize)
        while true {
            let candidates = try store.list(JobTable.table, index, .starting(with: prefix), page: page)
            for candidate in candidates.items {
                guard let latest = try store.get(JobTable.table, candidate.id),
                      try mayTake(latest, dasher: dasher, rules: rules, now: now, store: store),
                      case .read(let job?) = try transaction.getUnlessLocked(JobTable.table, candidate.id),
                      try mayTake(job, dasher: dasher, rules: rules, now: now, store: store)
                else { continue }
                return job
            }
            guard let token = candidates.nextPageToken else { return nil }
            page = PageRequest(size: PageRequest.maximumSize, token: token)
        }
    }

    /// Whether `job` is queued and `dasher` may be offered it now. The customer's gender is read
    /// without a lock: Dashers looking at one customer's jobs need not wait for each other.
    private static func mayTake(
        _ job: StoredRecord<JobRecord>, dasher: SoukV1.Account, rules: JobRules, now: StoreTime, store: Store
    ) throws -> Bool {
        guard JobTable.isQueued(job.value.subject) else { return false }
        var customerGender = SoukV1.Gender.unspecified
        if job.value.subject.sameGenderOnly, let id = RecordID(job.value.subject.customerAccountID),
           let customer = try LaundryStudents.account(id, marketplaceID: job.value.marketplaceID, store)
        {
            customerGender = LaundryStudents.gender(customer)
        }
        return rules.mayOffer(job.value.subject, submitted: job.createdAt, to: dasher, customerGender: customerGender, now: now)
    }

    /// FAILED_PRECONDITION (JOB_NOT_OFFERED): the caller holds no offer of job `id`, or it lapsed.
    static func notOffered(_ id: RecordID) -> RPCError {
        RPCError.souk(.failedPrecondition, .jobNotOffered, "job \(id) is not offered to you (an offer lapses): ask for work again")
    }

    /// The `job_id` and `expected_version` of a request, every violation named.
    static func jobFields(
        _ jobID: String, _ expectedVersion: Int64, more: (inout FieldChecks) throws -> Void = { _ in }
    ) throws -> (RecordID, UInt64?) {
        try FieldChecks.target(jobID, field: "job_id", expectedVersion: expectedVersion, more: more)
    }

    /// Whether `job` holds an offer that has not lapsed at `now`. Reads and answers go by this,
    /// so a lapsed offer is never served as live before the scheduler returns it to the queue.
    static func isLive(_ job: SoukStoreV1.Job, at now: StoreTime) -> Bool {
        guard !job.offeredToAccountID.isEmpty else { return false }
        return job.offerExpireTime.map { StoreTime($0) > now } ?? true
    }

    /// The offer-lapse timer's change (`JobLifecycle.offerLapse`): the job returns to its place
    /// in its dorm's queue.
    static var offerLapse: TimerHandler {
        JobLifecycle.machine.timerHandler(JobLifecycle.offerLapse.name, in: JobTable.table) { job, transaction in
            let updated = try transaction.update(JobTable.table, job.id) { withdrawOffer(&$0.subject) }
            try JobLifecycle.machine.recordChange(
                updated, in: JobTable.table, by: .system("JobOfferLapsed"), reason: "offer lapsed", transaction: transaction)
        }
    }

    func accept(_ request: SoukV1.AcceptJobRequest, _ call: SoukCall) async throws -> SoukV1.Job {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected) = try Self.jobFields(request.jobID, request.expectedVersion)
        let dasher = try LaundryStudents.requireStudent(call, store: store)
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let current = try transaction.require(id, in: marketplaceID)
            let offer = current.value.subject
            if expected == nil || expected == current.version, offer.state == .active, offer.stage == .waitingForDasherToAccept,
               offer.offeredToAccountID != dasher.id || !Self.isLive(offer, at: transaction.now)
            {
                throw Self.notOffered(id)
            }
            let job = try JobLifecycle.machine.fire(
                .accept, on: id, in: JobTable.table, marketplaceID: marketplaceID.description, by: actor, expectedVersion: expected,
                transaction: transaction
            ) { record in
                record.subject.dasherAccountID = dasher.id
                Self.withdrawOffer(&record.subject)
                Self.stamp(&record.subject, .dasherAcceptedRequest, transaction.now)
            }
            return job
        }
        return try JobViews.view(record, call, store: store)
    }

    func deny(_ request: SoukV1.DenyJobRequest, _ call: SoukCall) async throws -> SoukV1.Job {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected) = try Self.jobFields(request.jobID, request.expectedVersion)
        let me = try call.requireCaller().accountID.description
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let job = try transaction.require(id, in: marketplaceID)
            guard job.value.subject.state == .active, job.value.subject.offeredToAccountID == me,
                  Self.isLive(job.value.subject, at: transaction.now) else {
                throw Self.notOffered(id)
            }
            let updated = try transaction.update(JobTable.table, id, expectedVersion: expected) { record in
                Self.withdrawOffer(&record.subject)
                Self.exclude(me, from: &record.subject)
            }
            try JobLifecycle.machine.recordChange(updated, in: JobTable.table, by: actor, reason: "denied", transaction: transaction)
            return updated
        }
        return try JobViews.view(record, call, store: store)
    }

    func rejectDasher(_ request: SoukV1.RejectDasherRequest, _ call: SoukCall) async throws -> SoukV1.Job {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected) = try JobQueue.jobFields(request.jobID, request.expectedVersion) { checks in
            checks.require(request.reason.count <= 2000, "reason", "must be at most 2000 characters")
        }
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let before = try transaction.require(id, in: marketplaceID)
            let dasher = before.value.subject.dasherAccountID
            let job = try JobLifecycle.machine.fire(
                .rejectDasher, on: id, in: JobTable.table, marketplaceID: marketplaceID.description, by: actor,
                expectedVersion: expected, reason: request.reason, transaction: transaction
            ) { record in
                record.subject.dasherAccountID = ""
                Self.exclude(dasher, from: &record.subject)
                Self.stamp(&record.subject, .waitingForDasherToAccept, transaction.now)
            }
            return job
        }
        return try JobViews.view(record, call, store: store)
    }

    func clearPreferred(_ request: SoukV1.ClearPreferredDasherRequest, _ call: SoukCall) async throws -> SoukV1.Job {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected) = try JobQueue.jobFields(request.jobID, request.expectedVersion)
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let job = try transaction.require(id, in: marketplaceID)
            guard job.value.subject.state == .active, job.value.subject.stage == .waitingForDasherToAccept,
                  !job.value.subject.preferredDasherAccountID.isEmpty else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "job \(id) is not at stage 0 with a preferred Dasher")
            }
            let updated = try transaction.update(JobTable.table, id, expectedVersion: expected) { $0.subject.preferredDasherAccountID = "" }
            try JobLifecycle.machine.recordChange(updated, in: JobTable.table, by: actor, reason: "preferred Dasher cleared", transaction: transaction)
            return updated
        }
        return try JobViews.view(record, call, store: store)
    }

    /// The job is offered to nobody: back in its dorm's queue, at its place, when at stage 0.
    static func withdrawOffer(_ job: inout SoukStoreV1.Job) {
        job.offeredToAccountID = ""
        job.offerExpireTime = nil
    }

    /// `dasher` is never offered the job again, nor named as its preferred Dasher.
    static func exclude(_ dasher: String, from job: inout SoukStoreV1.Job) {
        guard !dasher.isEmpty else { return }
        if !job.excludedDasherAccountIDs.contains(dasher) { job.excludedDasherAccountIDs.append(dasher) }
        if job.preferredDasherAccountID == dasher { job.preferredDasherAccountID = "" }
    }

    /// Records when the job reached `stage` (the latest time when reached again).
    static func stamp(_ job: inout SoukStoreV1.Job, _ stage: SoukV1.JobStage, _ now: StoreTime) {
        job.stageTimes.removeAll { $0.stage == stage }
        job.stageTimes.append(SoukV1.StageTime(stage: stage, time: Timestamp(now)))
    }
}

extension Transaction {
    /// Job `id` of the marketplace, read and locked; NOT_FOUND otherwise.
    func require(_ id: RecordID, in marketplaceID: RecordID) throws -> StoredRecord<JobRecord> {
        try require(JobTable.table, id, in: marketplaceID, "job")
    }
}
