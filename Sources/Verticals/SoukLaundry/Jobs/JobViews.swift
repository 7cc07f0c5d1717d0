import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// Reading jobs: who owns one, what each party sees of it, one job, pages of jobs, and a job's
/// event stream.
enum JobViews {
    /// The customer owns a job; the Dasher assigned or offered it owns it as courier.
    static func owns(_ job: SoukStoreV1.Job, _ caller: Caller, roles: Set<SoukV1.Role>) -> Bool {
        let me = caller.accountID.description
        return roles.contains(.customer) && job.customerAccountID == me
            || roles.contains(.courier) && (job.dasherAccountID == me || job.offeredToAccountID == me)
    }

    static func ownership<Request>(_ jobID: @escaping @Sendable (Request) -> String, store: Store) -> Ownership<Request> {
        Ownership { request, call, caller, roles in
            // A malformed id is named by the handler's field checks, with the request's others.
            guard let id = RecordID(jobID(request)) else { return true }
            let (marketplaceID, _) = try call.requireMarketplace()
            guard let job = try store.get(JobTable.table, id), job.value.marketplaceID == marketplaceID.description else {
                throw RPCError.notFound("job", id.description)
            }
            return owns(job.value.subject, caller, roles: roles)
        }
    }

    /// AcceptJob and DenyJob: besides the Dasher the job is offered to, any Dasher of its dorm,
    /// whose offer may have lapsed or gone to another meanwhile; the handler answers them
    /// JOB_NOT_OFFERED (ask for work again) rather than a refusal of their role.
    static func offerOwnership<Request>(_ jobID: @escaping @Sendable (Request) -> String, store: Store) -> Ownership<Request> {
        Ownership { request, call, caller, roles in
            // A malformed id is named by the handler's field checks, with the request's others.
            guard let id = RecordID(jobID(request)) else { return true }
            let (marketplaceID, _) = try call.requireMarketplace()
            guard let job = try store.get(JobTable.table, id), job.value.marketplaceID == marketplaceID.description else {
                throw RPCError.notFound("job", id.description)
            }
            if owns(job.value.subject, caller, roles: roles) { return true }
            guard roles.contains(.courier), let person = try store.get(LaundryPersonTable.table, caller.accountID) else { return false }
            return (person.value.profile?.dormID ?? "") == job.value.subject.dormID
        }
    }

    /// Customers list their own jobs, Dashers their own; a dorm's jobs and the open disputes
    /// are for admins.
    static var listOwnership: Ownership<SoukV1.ListJobsRequest> {
        Ownership { request, _, caller, roles in
            let me = caller.accountID.description
            if request.openDisputes { return false }
            switch request.owner {
            case .dasherAccountID(let id)?: return roles.contains(.courier) && id == me
            case .dormID?: return false
            case .customerAccountID(let id)?: return roles.contains(.customer) && (id.isEmpty || id == me)
            case nil: return roles.contains(.customer)
            }
        }
    }

    /// The job as `call`'s caller sees it: its projection for the caller (`JobProjection`), the
    /// other parties as summaries (first name and rating; of the Dasher also completed jobs and
    /// time as a Dasher) and what the caller may do to it.
    static func view(_ record: StoredRecord<JobRecord>, _ call: SoukCall, store: Store) throws -> SoukV1.Job {
        var shown = record
        // A lapsed offer is shown as the scheduler will leave it, withdrawn.
        if !shown.value.subject.offeredToAccountID.isEmpty, !JobQueue.isLive(shown.value.subject, at: store.configuration.clock()) {
            JobQueue.withdrawOffer(&shown.value.subject)
        }
        let stored = shown.value.subject
        var job = JobProjection.job(shown, for: JobProjection.viewer(stored, try call.requireCaller()))
        job.availableTransitions = JobLifecycle.machine.available(on: stored, for: call, parties: [
            .customer: .account(stored.customerAccountID), .courier: .accounts([stored.dasherAccountID, stored.offeredToAccountID]),
        ])
        job.customer = try LaundryStudents.summary(stored.customerAccountID, store: store)
        if let dasher = try LaundryStudents.dasherSummary(stored.dasherAccountID, store: store) {
            job.dasher = dasher.person
            job.dasherCompletedJobs = dasher.completedJobs
            job.dasherSince = dasher.dasherSince
        }
        return job
    }

    /// Job `id` of the call's marketplace as the caller sees it; NOT_FOUND otherwise.
    static func get(_ id: String, _ call: SoukCall, store: Store) throws -> SoukV1.Job {
        let (marketplaceID, _) = try call.requireMarketplace()
        let recordID = try RequestFields.id(id, field: "job_id")
        guard let record = try store.get(JobTable.table, recordID), record.value.marketplaceID == marketplaceID.description else {
            throw RPCError.notFound("job", id)
        }
        return try view(record, call, store: store)
    }

    /// Newest first (or oldest with `order_by`), one index range: the owner named (or the caller
    /// as customer), under the one state asked for or any (`StatusPages`); or the open
    /// disputes, oldest first.
    static func list(_ request: SoukV1.ListJobsRequest, _ call: SoukCall, store: Store) throws -> SoukV1.ListJobsResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let caller = try call.requireCaller()
        var checks = FieldChecks()
        let states = try checks.run { try StatusPages<SoukV1.JobState>(request.states, field: "states") }
        let direction = try checks.run { try CreateTimeOrder.direction(request.orderBy) }
        let market = KeyPart.string(marketplaceID.description)
        if request.openDisputes {
            checks.require(request.owner == nil && request.states.isEmpty && request.orderBy.isEmpty, "open_disputes", "takes no other filter nor order_by")
            let page = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: "open_disputes") }
            try checks.finish()
            let result = try store.list(JobTable.table, JobTable.openDisputes, .starting(with: [market]), direction: .ascending, page: page!)
            return try response(result.items, result.nextPageToken, "open_disputes", call, store)
        }
        let (index, owner, kind): (Index<JobRecord>, String, String) =
            switch request.owner {
            case .dasherAccountID(let id)?: (JobTable.byDasher, id, "d")
            case .dormID(let id)?: (JobTable.byDorm, id, "r")
            case .customerAccountID(let id)? where !id.isEmpty: (JobTable.byCustomer, id, "c")
            default: (JobTable.byCustomer, caller.accountID.description, "c")
            }
        checks.require(!owner.isEmpty, kind == "d" ? "dasher_account_id" : "dorm_id", "must not be empty when set")
        let filters = [owner, kind, states?.stamp ?? "", direction == .ascending ? "asc" : "desc"].joined(separator: "|")
        let page = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        let range = IndexRange.starting(with: [market, .string(owner), states!.keyPart])
        let result = try states!.page(JobTable.table, index, range, direction: direction!, page: page!, store: store) { $0.subject.state }
        return try response(result.items, result.nextPageToken, filters, call, store)
    }

    /// The page of `records` as the caller sees the jobs.
    private static func response(
        _ records: [StoredRecord<JobRecord>], _ storeToken: String?, _ filters: String, _ call: SoukCall, _ store: Store
    ) throws -> SoukV1.ListJobsResponse {
        var response = SoukV1.ListJobsResponse()
        response.jobs = try records.map { try view($0, call, store: store) }
        response.nextPageToken = RequestFields.nextPageToken(storeToken, filters: filters)
        return response
    }

    /// The job's changes as `LifecycleWatch` sends them, each with the job as that change left
    /// it, until the job is final (stage 9 or cancelled).
    static func watch(_ request: SoukV1.WatchJobRequest, _ writer: RPCWriter<SoukV1.JobEvent>, _ call: SoukCall, store: Store) async throws {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try LifecycleWatch.target(request.jobID, field: "job_id", resumeAfter: request.resumeAfterSequence)
        func current() throws -> StoredRecord<JobRecord> { try store.require(JobTable.table, id, in: marketplaceID, "job") }
        try await LifecycleWatch.run(
            lifecycleStream(.job, id), resumeAfter: request.resumeAfterSequence, store: store, writer: writer,
            current: { sequence in
                let job = try view(try current(), call, store: store)
                return (SoukV1.JobEvent(sequence: Int64(sequence), eventTime: job.updateTime, job: job, previousStage: job.stage), job.state != .active)
            },
            change: { stored, change in
                let job = try view(try change.record(of: JobTable.table, id: id, orCurrent: current), call, store: store)
                let entry = change.entry
                let previous = SoukV1.JobStage.allCases.first { $0.protoName == entry.fromState } ?? job.stage
                let event = SoukV1.JobEvent(
                    sequence: Int64(stored.sequence), eventTime: Timestamp(stored.time), job: job, previousStage: previous,
                    actorAccountID: entry.actorAccountID)
                return (event, job.state != .active)
            })
    }
}
