import SoukIdentity
import SoukGRPC
import SoukKit
import SoukMessages
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
        _ = try await expireDueOffers()
        let actor = AuditActor(call)
        let offered: StoredRecord<JobRecord>? = try await store.write { transaction in
            if let held = try transaction.first(JobTable.table, JobTable.offeredTo, .starting(with: [.string(market), .string(dasher.id)])) {
                return held
            }
            let now = transaction.now
            for range in [
                (JobTable.preferred, [KeyPart.string(market), .string(dasher.id)]),
                (JobTable.queue, [KeyPart.string(market), .string(LaundryStudents.dorm(dasher))]),
            ] {
                if let job = try Self.take(range.0, range.1, for: dasher, rules: rules, now: now, store: store, transaction: transaction) {
                    let updated = try transaction.update(JobTable.table, job.id) { record in
                        record.subject.offeredToAccountID = dasher.id
                        record.subject.offerExpireTime = Timestamp(now.adding(timeout))
                    }
                    try JobChanges.record(updated, actor: actor, reason: "offered", transaction: transaction)
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
           let customer = try store.get(AccountTable.table, id), customer.value.account.marketplaceID == job.value.marketplaceID
        {
            customerGender = LaundryStudents.gender(customer.value.account)
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

    /// Returns every offer past its time to its dorm's queue. Returns how many.
    func expireDueOffers() async throws -> Int {
        let now = laundry.now
        let due = try store.list(JobTable.table, JobTable.offerExpiry, .prefix([], before: [.time(now)]), page: PageRequest(size: PageRequest.maximumSize))
        guard !due.items.isEmpty else { return 0 }
        return try await store.write { transaction in
            var expired = 0
            for candidate in due.items {
                guard let job = try transaction.get(JobTable.table, candidate.id), job.value.subject.state == .active,
                      !job.value.subject.offeredToAccountID.isEmpty, let expiry = job.value.subject.offerExpireTime,
                      StoreTime(expiry) <= transaction.now else { continue }
                let updated = try transaction.update(JobTable.table, job.id) { Self.withdrawOffer(&$0.subject) }
                try JobChanges.record(updated, actor: .system("JobOfferLapsed"), reason: "offer lapsed", transaction: transaction)
                expired += 1
            }
            return expired
        }
    }

    func accept(_ request: SoukV1.AcceptJobRequest, _ call: SoukCall) async throws -> SoukV1.Job {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected) = try Self.jobFields(request.jobID, request.expectedVersion)
        let dasher = try LaundryStudents.requireStudent(call, store: store)
        _ = try await expireDueOffers()
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let current = try transaction.require(id, in: marketplaceID)
            if expected == nil || expected == current.version, current.value.subject.state == .active,
               current.value.subject.stage == .waitingForDasherToAccept, current.value.subject.offeredToAccountID != dasher.id
            {
                throw Self.notOffered(id)
            }
            let job = try JobLifecycle.machine.fire(
                "accept", on: id, in: JobTable.table, marketplaceID: marketplaceID.description, by: actor, expectedVersion: expected,
                transaction: transaction
            ) { record in
                record.subject.dasherAccountID = dasher.id
                Self.withdrawOffer(&record.subject)
                Self.stamp(&record.subject, .dasherAcceptedRequest, transaction.now)
            }
            try JobChanges.notify(
                [job.value.subject.customerAccountID], job, title: "\(dasher.givenName) accepted your laundry job",
                body: "Stage 1: Dasher Accepted Request.", transaction: transaction)
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
            guard job.value.subject.state == .active, job.value.subject.offeredToAccountID == me else {
                throw Self.notOffered(id)
            }
            let updated = try transaction.update(JobTable.table, id, expectedVersion: expected) { record in
                Self.withdrawOffer(&record.subject)
                Self.exclude(me, from: &record.subject)
            }
            try JobChanges.record(updated, actor: actor, reason: "denied", transaction: transaction)
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
                "reject_dasher", on: id, in: JobTable.table, marketplaceID: marketplaceID.description, by: actor,
                expectedVersion: expected, reason: request.reason, transaction: transaction
            ) { record in
                record.subject.dasherAccountID = ""
                Self.exclude(dasher, from: &record.subject)
                Self.stamp(&record.subject, .waitingForDasherToAccept, transaction.now)
            }
            try JobChanges.notify([dasher], job, title: "The customer chose another Dasher", body: "The job is no longer yours.", transaction: transaction)
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
            try JobChanges.record(updated, actor: actor, reason: "preferred Dasher cleared", transaction: transaction)
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
