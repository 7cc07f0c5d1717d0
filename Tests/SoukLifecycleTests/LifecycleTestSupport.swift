import Foundation
import SoukGRPC
import SoukKit
import SoukLaundry
import SoukMessages
import SoukNotifications
import SoukReports
import SoukStore
import SoukTesting

/// A record as the domains will store one: the contract message and its marketplace.
struct TestRecord<Subject: ProtoMessage>: LifecycleRecord {
    var marketplaceID: String
    var subject: Subject
}

/// The tables the tests move records through, one per contract message.
enum TestTables {
    static let orders = table("orders", SoukStoreV1.Order.self)
    /// With the index a water order's cancellation looks its open deliveries up by.
    static let deliveries = table(
        "deliveries", SoukStoreV1.Delivery.self,
        indexes: [.nonUnique("deliveries.order") { [.string($0.marketplaceID), .string($0.subject.orderID)] }])
    static let payments = table("payments", SoukStoreV1.Payment.self)
    static let jobs = table("jobs", SoukStoreV1.Job.self)
    static let bookings = table("bookings", SoukStoreV1.Booking.self)
    static let bills = table("bills", SoukStoreV1.Bill.self)
    static let tickets = table("tickets", SoukStoreV1.Ticket.self)

    static let schema = Schema(
        // The effects of the real machines write notifications, the Dasher's completed jobs and the dashboards' totals.
        KitTables.all + Notifications.tables + Laundry.tables + Reports.tables + [orders.erased, deliveries.erased, payments.erased, jobs.erased, bookings.erased, bills.erased, tickets.erased])

    static func table<Subject: ProtoMessage>(
        _ name: String, _: Subject.Type, indexes: [Index<TestRecord<Subject>>] = []
    ) -> Table<TestRecord<Subject>> {
        Table(
            name,
            codec: FieldCodec.marketplaceMessage(Subject.self, split: { ($0.marketplaceID, $0.subject) }, make: TestRecord.init),
            indexes: indexes)
    }
}

/// Opens a store with the test tables in a fresh temporary directory, runs `body`, then closes and removes it.
func withLifecycleStore<R>(_ body: (Store) async throws -> R) async throws -> R {
    try await withTemporaryStore(schema: TestTables.schema) { store, _ in try await body(store) }
}

/// The marketplace and accounts the tests act with.
enum Accounts {
    static let marketplace = RecordID.generate().description
    static let all = (0 ..< 3).map { _ in RecordID.generate().description }

    static func actor(_ role: SoukV1.Role, _ account: String) -> AuditActor {
        AuditActor(accountID: account, role: role, action: "test/\(role.protoName)")
    }
}

/// What a refused call answered: its status code and ErrorInfo reason.
struct Refusal: Equatable, CustomStringConvertible {
    var code: StatusCode
    var reason: SoukV1.ErrorReason

    init(code: StatusCode, reason: SoukV1.ErrorReason) {
        self.code = code
        self.reason = reason
    }

    init?(_ error: any Error) {
        guard let error = error as? RPCError else { return nil }
        self.init(code: error.code, reason: error.soukReason ?? .unspecified)
    }

    var description: String { "\(code) \(reason.protoName)" }
}

/// Deterministic choices drawn from one generated integer (xorshift).
struct Dice {
    var value: UInt64

    init(_ seed: Int) { value = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1 }

    mutating func roll(_ n: Int) -> Int {
        value ^= value << 13
        value ^= value >> 7
        value ^= value << 17
        return Int(value % UInt64(n))
    }

    mutating func pick<T>(_ options: [T]) -> T { options[roll(options.count)] }
}
