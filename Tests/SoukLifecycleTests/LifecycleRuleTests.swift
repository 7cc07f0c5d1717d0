import SoukFood
import SoukOrders
import SoukShops
import SoukGRPC
import SoukKit
import SoukLaundry
import SoukMessages
import SoukStore
import Testing

/// The rules the apps state, fired one by one against a real store.
@Suite struct LifecycleRuleTests {
    let customer = Accounts.actor(.customer, Accounts.all[0])
    let dasher = Accounts.actor(.courier, Accounts.all[1])
    let otherDasher = Accounts.actor(.courier, Accounts.all[2])

    func newJob(_ store: Store) async throws -> StoredRecord<TestRecord<SoukStoreV1.Job>> {
        var job = SoukStoreV1.Job(customerAccountID: customer.accountID, offeredToAccountID: dasher.accountID)
        job.lifecycleState = .stage(.waitingForDasherToAccept)
        let (value, customer) = (TestRecord(marketplaceID: Accounts.marketplace, subject: job), customer)
        return try await store.write { try JobLifecycle.machine.create(value, in: TestTables.jobs, by: customer, transaction: $0) }
    }

    func fire<Subject, State, Name>(
        _ machine: StateMachine<Subject, State, Name>, _ name: Name, _ record: StoredRecord<TestRecord<Subject>>,
        in table: Table<TestRecord<Subject>>, by actor: AuditActor, to target: State? = nil, expectedVersion: UInt64? = nil,
        store: Store, change: @escaping @Sendable (inout TestRecord<Subject>) -> Void = { _ in }
    ) async throws -> StoredRecord<TestRecord<Subject>> {
        let id = record.id
        return try await store.write { transaction in
            try machine.fire(
                name, on: id, in: table, marketplaceID: Accounts.marketplace, by: actor, to: target, expectedVersion: expectedVersion,
                transaction: transaction, change: change)
        }
    }

    /// The Dasher accepts the offer and becomes the job's Dasher (the laundry domain's change).
    func accept(_ job: StoredRecord<TestRecord<SoukStoreV1.Job>>, store: Store) async throws -> StoredRecord<TestRecord<SoukStoreV1.Job>> {
        let dasherID = dasher.accountID
        return try await fire(JobLifecycle.machine, .accept, job, in: TestTables.jobs, by: dasher, store: store) { job in
            job.subject.dasherAccountID = dasherID
            job.subject.offeredToAccountID = ""
        }
    }

    func refusal(_ body: () async throws -> Void) async -> RPCError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? RPCError
        }
    }

    @Test func theAssignedDasherMovesAJobOneStageAtATimeToDropOff() async throws {
        try await withLifecycleStore { store in
            let machine = JobLifecycle.machine
            var job = try await newJob(store)
            let wrong = await refusal { _ = try await fire(machine, .accept, job, in: TestTables.jobs, by: otherDasher, store: store) }
            #expect(wrong?.code == .failedPrecondition && wrong?.soukReason == .invalidTransition)
            #expect(wrong?.message.contains("only the Dasher it is offered to") == true)

            job = try await accept(job, store: store)
            #expect(job.value.subject.stage == .dasherAcceptedRequest)

            let skip = await refusal {
                _ = try await fire(machine, .advance, job, in: TestTables.jobs, by: dasher, to: .stage(.pickedUpLaundry), store: store)
            }
            #expect(skip?.code == .failedPrecondition && skip?.soukReason == .stageNotNext)
            #expect(skip?.message.contains("it is JOB_STAGE_DASHER_ACCEPTED_REQUEST") == true)
            #expect(skip?.message.contains("advance → JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP") == true)

            for stage in JobLifecycle.stages.dropFirst(2) {
                let byOther = await refusal { _ = try await fire(machine, .advance, job, in: TestTables.jobs, by: otherDasher, store: store) }
                #expect(byOther?.soukReason == .invalidTransition && byOther?.message.contains("only the assigned Dasher") == true)
                job = try await fire(machine, .advance, job, in: TestTables.jobs, by: dasher, to: .stage(stage), store: store)
                #expect(job.value.subject.stage == stage)
                if stage == .pickedUpLaundry {
                    let cancel = await refusal { _ = try await fire(machine, .cancel, job, in: TestTables.jobs, by: customer, store: store) }
                    #expect(cancel?.code == .failedPrecondition && cancel?.soukReason == .cancelNotAllowed)
                }
            }
            #expect(job.value.subject.state == .droppedOff)
            let done = await refusal { _ = try await fire(machine, .advance, job, in: TestTables.jobs, by: dasher, store: store) }
            #expect(done?.message.contains("JOB_STAGE_DROPPED_OFF_LAUNDRY, a final state") == true)

            let history = try store.transitions(of: job.id, marketplaceID: Accounts.marketplace, page: PageRequest(size: 100))
            #expect(history.entries.map(\.toState) == JobLifecycle.stages.map(\.protoName))
            #expect(history.entries.dropFirst().allSatisfy { $0.actorAccountID == dasher.accountID && $0.actorRole == .courier })
        }
    }

    @Test func theCustomerCancelsAJobUpToStageTwoAndADasherMayNot() async throws {
        try await withLifecycleStore { store in
            let machine = JobLifecycle.machine
            var job = try await newJob(store)
            job = try await accept(job, store: store)
            job = try await fire(machine, .advance, job, in: TestTables.jobs, by: dasher, store: store)
            let byDasher = await refusal { _ = try await fire(machine, .cancel, job, in: TestTables.jobs, by: dasher, store: store) }
            #expect(byDasher?.code == .permissionDenied && byDasher?.soukReason == .notAllowed)
            job = try await fire(machine, .cancel, job, in: TestTables.jobs, by: customer, store: store)
            #expect(job.value.subject.state == .cancelled && job.value.subject.stage == .dasherOnWayForPickup)
            let entry = try store.transitions(of: job.id, marketplaceID: Accounts.marketplace, page: PageRequest()).entries.last
            #expect(entry?.fromState == "JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP" && entry?.toState == "JOB_STATE_CANCELLED")
        }
    }

    @Test func rolesAdmitTheOperatorAsAdminAndTheServerOnlyWhereDeclared() async throws {
        try await withLifecycleStore { store in
            let machine = OrderLifecycles.waterServices
            let value = TestRecord(marketplaceID: Accounts.marketplace, subject: SoukStoreV1.Order(status: .pending))
            let order = try await store.write { try machine.create(value, in: TestTables.orders, by: .system("Test"), transaction: $0) }
            let guest = await refusal {
                _ = try await fire(machine, .approve, order, in: TestTables.orders, by: Accounts.actor(.unspecified, ""), store: store)
            }
            #expect(guest?.code == .permissionDenied)
            let server = await refusal { _ = try await fire(machine, .cancel, order, in: TestTables.orders, by: .system("Test"), store: store) }
            #expect(server?.code == .permissionDenied && server?.message == "the server may not cancel this order")
            let approved = try await fire(machine, .approve, order, in: TestTables.orders, by: Accounts.actor(.operator, Accounts.all[2]), store: store)
            #expect(approved.value.subject.status == .approved)
            let again = await refusal { _ = try await fire(machine, .approve, approved, in: TestTables.orders, by: .system("Test"), store: store) }
            #expect(again?.code == .failedPrecondition && again?.soukReason == .invalidTransition)
            #expect(again?.message == "cannot approve order \(order.id): it is ORDER_STATUS_APPROVED, from which: cancel → ORDER_STATUS_CANCELLED, complete → ORDER_STATUS_COMPLETED")
        }
    }

    @Test func aStaleVersionIsAbortedBeforeTheStateIsLookedAtAndOtherMarketplacesSeeNothing() async throws {
        try await withLifecycleStore { store in
            let machine = OrderLifecycles.retail
            let value = TestRecord(marketplaceID: Accounts.marketplace, subject: SoukStoreV1.Order(status: .pending))
            let order = try await store.write { try machine.create(value, in: TestTables.orders, by: customer, transaction: $0) }
            let admin = Accounts.actor(.admin, Accounts.all[2])
            let shipped = try await fire(machine, .ship, order, in: TestTables.orders, by: admin, expectedVersion: 1, store: store)
            // A retried ship that already happened: ABORTED, not "already shipped".
            let retried = await refusal { _ = try await fire(machine, .ship, order, in: TestTables.orders, by: admin, expectedVersion: 1, store: store) }
            #expect(retried?.code == .aborted && retried?.soukReason == .staleVersion)
            let elsewhere = await refusal {
                _ = try await store.write { transaction in
                    try machine.fire(.deliver, on: shipped.id, in: TestTables.orders, marketplaceID: "other", by: admin, transaction: transaction)
                }
            }
            #expect(elsewhere?.code == .notFound)
        }
    }

    @Test func aRecordStartsOnlyInAnInitialStateAndHistoryLeavesOutOtherAuditEntries() async throws {
        try await withLifecycleStore { store in
            let machine = OrderLifecycles.foodDelivery
            let wrongStart = TestRecord(marketplaceID: Accounts.marketplace, subject: SoukStoreV1.Order(status: .delivered))
            let refused = await refusal {
                _ = try await store.write { try machine.create(wrongStart, in: TestTables.orders, by: customer, transaction: $0) }
            }
            #expect(refused?.code == .internalError)

            let value = TestRecord(marketplaceID: Accounts.marketplace, subject: SoukStoreV1.Order(status: .placed))
            let order = try await store.write { try machine.create(value, in: TestTables.orders, by: customer, transaction: $0) }
            let author = customer
            _ = try await store.write { transaction in
                // An update that is not a state change (a note edited) is audited but is no transition.
                try AuditLog.record(
                    in: transaction, marketplaceID: Accounts.marketplace, resource: SoukV1.ResourceRef(type: .order, id: order.id.description),
                    actor: author, resourceVersion: 2)
            }
            let accepted = try await fire(machine, .accept, order, in: TestTables.orders, by: Accounts.actor(.provider, Accounts.all[1]), store: store)
            let page = try store.transitions(of: order.id, marketplaceID: Accounts.marketplace, page: PageRequest(size: 1))
            #expect(page.entries.map(\.toState) == ["ORDER_STATUS_PLACED"] && page.nextPageToken != nil)
            let next = try store.transitions(of: order.id, marketplaceID: Accounts.marketplace, page: PageRequest(size: 5, token: page.nextPageToken))
            #expect(next.entries.map(\.toState) == ["ORDER_STATUS_PREPARING"] && next.nextPageToken == nil)
            #expect(next.entries.first?.resourceVersion == Int64(accepted.version))
        }
    }
}
