import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Reading jobs: who owns one, what each party sees of it, one job, pages of jobs, and a job's
/// event stream.
enum JobViews {
    /// The customer owns a job; the Dasher assigned or offered it owns it as courier.
    static func owns(_ job: SoukV1.Job, _ caller: Caller, roles: Set<SoukV1.Role>) -> Bool {
        let me = caller.accountID.description
        return roles.contains(.customer) && job.customerAccountID == me
            || roles.contains(.courier) && (job.dasherAccountID == me || job.offeredToAccountID == me)
    }

    static func ownership<Request>(_ jobID: @escaping @Sendable (Request) -> String, store: Store) -> Ownership<Request> {
        Ownership { request, call, caller, roles in
            let id = try RequestFields.id(jobID(request), field: "job_id")
            let (marketplaceID, _) = try call.requireMarketplace()
            guard let job = try store.get(JobTable.table, id), job.value.marketplaceID == marketplaceID.description else {
                throw RPCError.notFound("job", id.description)
            }
            return owns(job.value.subject, caller, roles: roles)
        }
    }

    /// Customers list their own jobs, Dashers their own; a dorm's jobs and the open disputes
    /// are for admins.
    static var listOwnership: Ownership<SoukV1.ListJobsRequest> {
        Ownership { request, _, caller, roles in
            let me = caller.accountID.description
            if request.openDisputes { return false }
            if !request.dasherAccountID.isEmpty { return roles.contains(.courier) && request.dasherAccountID == me }
            guard request.dormID.isEmpty else { return false }
            return roles.contains(.customer) && (request.customerAccountID.isEmpty || request.customerAccountID == me)
        }
    }

    /// The job as `call`'s caller sees it: the other parties as summaries (first name and
    /// rating; of the Dasher also completed jobs and time as a Dasher); the Dashers excluded from it only for admins; the customer's room for the
    /// Dasher only while the job is active (a Dasher's history shows the first name).
    static func view(_ record: StoredRecord<JobRecord>, _ call: SoukCall, store: Store) throws -> SoukV1.Job {
        var job = record.job
        let caller = try call.requireCaller()
        job.availableTransitions = JobLifecycle.machine.available(on: job, for: call, parties: [
            .customer: .account(job.customerAccountID), .courier: .accounts([job.dasherAccountID, job.offeredToAccountID]),
        ])
        let admin = caller.isOperator || caller.activeRoles.contains(.admin)
        if !admin { job.excludedDasherAccountIDs = [] }
        if !admin, job.customerAccountID != caller.accountID.description, job.state != .active { job.room = "" }
        job.customer = try LaundryStudents.summary(job.customerAccountID, store: store)
        if let dasher = try LaundryStudents.dasherSummary(job.dasherAccountID, store: store) {
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

    /// Newest first, one index range: the owner named (or the caller as customer) and the state
    /// (UNSPECIFIED: any); or the open disputes, oldest first.
    static func list(_ request: SoukV1.ListJobsRequest, _ call: SoukCall, store: Store) throws -> SoukV1.ListJobsResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let caller = try call.requireCaller()
        let owners = [request.customerAccountID, request.dasherAccountID, request.dormID].filter { !$0.isEmpty }
        guard owners.count <= 1 else {
            throw RPCError.invalidField("customer_account_id", "set at most one of customer_account_id, dasher_account_id, dorm_id")
        }
        if request.openDisputes {
            guard owners.isEmpty, request.state == .unspecified else {
                throw RPCError.invalidField("open_disputes", "takes no other filter")
            }
            return try page(request, "open_disputes", JobTable.openDisputes, .starting(with: [.string(marketplaceID.description)]), .ascending, call, store)
        }
        let (index, owner): (Index<JobRecord>, String) =
            !request.dasherAccountID.isEmpty ? (JobTable.byDasher, request.dasherAccountID)
            : !request.dormID.isEmpty ? (JobTable.byDorm, request.dormID)
            : (JobTable.byCustomer, request.customerAccountID.isEmpty ? caller.accountID.description : request.customerAccountID)
        let filters = [owner, request.dasherAccountID.isEmpty ? "" : "d", request.dormID.isEmpty ? "" : "r", request.state.protoName]
            .joined(separator: "|")
        let range = IndexRange.starting(with: [.string(marketplaceID.description), .string(owner), .enumCase(request.state)])
        return try page(request, filters, index, range, .descending, call, store)
    }

    /// One page of `index` in `range`, as the caller sees the jobs.
    private static func page(
        _ request: SoukV1.ListJobsRequest, _ filters: String, _ index: Index<JobRecord>, _ range: IndexRange, _ direction: ScanDirection,
        _ call: SoukCall, _ store: Store
    ) throws -> SoukV1.ListJobsResponse {
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let result = try store.list(JobTable.table, index, range, direction: direction, page: page)
        var response = SoukV1.ListJobsResponse()
        response.jobs = try result.items.map { try view($0, call, store: store) }
        response.nextPageToken = RequestFields.nextPageToken(result.nextPageToken, filters: filters)
        return response
    }

    /// The job's changes as `LifecycleWatch` sends them, each with the job as that change left
    /// it, until the job is final (stage 9 or cancelled).
    static func watch(_ request: SoukV1.WatchJobRequest, _ writer: RPCWriter<SoukV1.JobEvent>, _ call: SoukCall, store: Store) async throws {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.jobID, field: "job_id")
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
