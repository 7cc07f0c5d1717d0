import Logging
import ServiceLifecycle
import SoukFood
import SoukOrders
import SoukShops
import SoukKit
import SoukMessages
import SoukStore
import SoukTesting
import Testing

/// The scheduler fires the timers the lifecycles arm: when due, after a restart for those that
/// fell due while the server was down, never once cancelled, and it stops with its service group.
@Suite struct SchedulerTests {
    static let machine = DeliveryLifecycles.foodDelivery
    static let timeout: Duration = .seconds(90)

    /// An offer to a driver, expiring `timeout` after now.
    static func offer(_ store: Store) async throws -> StoredRecord<TestRecord<SoukStoreV1.Delivery>> {
        try await store.write { transaction in
            var delivery = SoukStoreV1.Delivery(courierAccountID: Accounts.all[0], status: .offered)
            delivery.offerExpireTime = Timestamp(transaction.now.adding(timeout))
            return try machine.create(
                TestRecord(marketplaceID: Accounts.marketplace, subject: delivery), in: TestTables.deliveries, by: .system("Test"),
                transaction: transaction)
        }
    }

    /// The offer-lapse handler, which also yields each delivery it expired once committed.
    static func lapse(_ fired: AsyncStream<RecordID>.Continuation? = nil) -> TimerHandler {
        let handler = machine.timerHandler(DeliveryLifecycles.offerLapse.name, in: TestTables.deliveries)
        return TimerHandler(key: handler.key) { id, transaction in
            try handler.run(id, transaction)
            transaction.afterCommit { fired?.yield(id) }
        }
    }

    static func status(_ store: Store, _ id: RecordID) throws -> SoukV1.DeliveryStatus? {
        try store.get(TestTables.deliveries, id)?.value.subject.status
    }

    static func armed(_ store: Store, _ id: RecordID) throws -> [ArmedTimer] {
        try store.get(TimerTable.table, id)?.value.timers ?? []
    }

    @Test func aTimerFiresItsDelayedTransitionOnceDueAndIsGoneAfter() async throws {
        let clock = ManualClock()
        try await withTemporaryStore(schema: TestTables.schema, clock: clock) { store, _ in
            let scheduler = Scheduler(store: store, timers: [Self.lapse()], jobs: [])
            let offer = try await Self.offer(store)
            #expect(try Self.armed(store, offer.id).map(\.key) == ["Food delivery/offer lapse"])
            clock.advance(Self.timeout - .seconds(1))
            #expect(try await scheduler.fireDue() == 0)
            #expect(try Self.status(store, offer.id) == .offered)
            clock.advance(.seconds(1))
            #expect(try await scheduler.fireDue() == 1)
            #expect(try Self.status(store, offer.id) == .expired)
            #expect(try Self.armed(store, offer.id).isEmpty)
            #expect(try await scheduler.fireDue() == 0)
            let entries = try store.transitions(of: offer.id, marketplaceID: Accounts.marketplace, page: PageRequest(size: 10)).entries
            #expect(entries.map(\.toState) == ["DELIVERY_STATUS_OFFERED", "DELIVERY_STATUS_EXPIRED"])
            #expect(entries.last?.action == "system/Timer/offer lapse")
        }
    }

    @Test func aTransitionThatMakesATimerMootCancelsItAndItNeverFires() async throws {
        let clock = ManualClock()
        try await withTemporaryStore(schema: TestTables.schema, clock: clock) { store, _ in
            let scheduler = Scheduler(store: store, timers: [Self.lapse()], jobs: [])
            let offer = try await Self.offer(store)
            _ = try await store.write { transaction in
                try Self.machine.fire(
                    .accept, on: offer.id, in: TestTables.deliveries, marketplaceID: Accounts.marketplace,
                    by: Accounts.actor(.courier, Accounts.all[0]), transaction: transaction)
            }
            #expect(try Self.armed(store, offer.id).isEmpty)
            clock.advance(Self.timeout * 2)
            #expect(try await scheduler.fireDue() == 0)
            #expect(try Self.status(store, offer.id) == .inProgress)
        }
    }

    @Test func aTimerDueWhileTheServerWasDownFiresAtStartAndTheSchedulerStopsWithItsGroup() async throws {
        let clock = ManualClock()
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.sub("db")
        var store = try Store(StoreConfiguration.forTests(path, clock: clock), schema: TestTables.schema)
        let offer = try await Self.offer(store)
        await store.close()

        // Down past the offer's expiry.
        clock.advance(Self.timeout + .seconds(60))
        store = try Store(StoreConfiguration.forTests(path, clock: clock), schema: TestTables.schema)
        let (fired, continuation) = AsyncStream.makeStream(of: RecordID.self)
        let group = ServiceGroup(
            services: [Scheduler(store: store, timers: [Self.lapse(continuation)], jobs: [], tick: .seconds(3600))],
            logger: Logger(label: "test"))
        try await withThrowingTaskGroup { tasks in
            tasks.addTask { try await group.run() }
            // The first look at the due timers, at start (the next would be an hour later).
            var firings = fired.makeAsyncIterator()
            #expect(await firings.next() == offer.id)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(try Self.status(store, offer.id) == .expired)
        #expect(try Self.armed(store, offer.id).isEmpty)
        await store.close()
    }
}
