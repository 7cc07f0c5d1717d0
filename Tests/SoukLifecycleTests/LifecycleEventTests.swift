import SoukFood
import SoukOrders
import SoukShops
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import Testing

/// The events of a streamed lifecycle carry the record as each move left it, and events of the
/// older format (the audit entry alone) still decode.
@Suite struct LifecycleEventTests {
    let provider = Accounts.actor(.provider, Accounts.all[1])

    @Test func eachEventHoldsTheRecordAsItsMoveLeftIt() async throws {
        try await withLifecycleStore { store in
            let machine = OrderLifecycles.retail
            let table = TestTables.orders
            var pending = SoukStoreV1.Order()
            pending.status = .pending
            let order = pending
            let created = try await store.write { transaction in
                try machine.create(TestRecord(marketplaceID: Accounts.marketplace, subject: order), in: table, by: provider, transaction: transaction)
            }
            for move in [OrderMove.ship, .deliver] {
                try await store.write { transaction in
                    try machine.fire(move, on: created.id, in: table, marketplaceID: Accounts.marketplace, by: provider, transaction: transaction)
                }
            }
            let events = try store.events(in: lifecycleStream(.order, created.id), after: 0).map { try LifecycleEvent(decoding: $0.payload) }
            let records = try events.map { event in
                try event.record(of: table, id: created.id) { throw RPCError(.internalError, "no snapshot") }
            }
            #expect(records.map(\.value.subject.status) == [.pending, .shipped, .delivered])
            #expect(records.map(\.version) == [1, 2, 3])
            #expect(events.map(\.entry.toState) == ["ORDER_STATUS_PENDING", "ORDER_STATUS_SHIPPED", "ORDER_STATUS_DELIVERED"])
        }
    }

    @Test func anEventOfTheOlderFormatFallsBackToTheCurrentRecord() throws {
        var entry = SoukV1.AuditEntry()
        entry.fromState = "ORDER_STATUS_PENDING"
        entry.toState = "ORDER_STATUS_SHIPPED"
        let old = try LifecycleEvent(decoding: entry.encoded())
        #expect(old.entry == entry && old.record == nil && old.related == nil)
        let current = StoredRecord(
            id: RecordID.generate(), version: 7, createdAt: StoreTime.now(), updatedAt: StoreTime.now(),
            value: TestRecord(marketplaceID: Accounts.marketplace, subject: SoukStoreV1.Order()))
        #expect(try old.record(of: TestTables.orders, id: current.id) { current }.version == 7)

        let new = try LifecycleEvent(decoding: LifecycleEvent(entry: entry, record: try TestTables.orders.snapshot(current)).encoded())
        #expect(new.entry == entry && new.related == nil)
        #expect(try new.record(of: TestTables.orders, id: current.id) { throw RPCError(.internalError, "unused") }.version == 7)
    }
}
