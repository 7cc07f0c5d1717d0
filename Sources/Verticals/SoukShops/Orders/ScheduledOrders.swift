import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukStore

/// A water-services order that holds a place in a window, stored under the order's id: whether
/// it still holds it, and whether its customer got the reminder of the day before.
struct ScheduledOrder: Sendable {
    var marketplaceID: String
    var customerAccountID: String
    var orderNumber: String
    var windowStart: StoreTime
    /// PENDING or APPROVED: it holds a place and is due a reminder.
    var active: Bool
    var reminded: Bool
}

enum ScheduledOrderTable {
    /// Active orders not yet reminded, by window start (across marketplaces: the reminder job
    /// serves them all).
    static let dueReminders = Index<ScheduledOrder>.nonUnique("scheduled_orders.due") {
        $0.active && !$0.reminded ? [.time($0.windowStart)] : nil
    }
    static let table = Table(
        "scheduled_orders",
        codec: FieldCodec<ScheduledOrder>(
            write: { value, writer in
                writer.string(value.marketplaceID)
                writer.string(value.customerAccountID)
                writer.string(value.orderNumber)
                writer.time(value.windowStart)
                writer.bool(value.active)
                writer.bool(value.reminded)
            },
            read: { reader in
                ScheduledOrder(
                    marketplaceID: try reader.string(), customerAccountID: try reader.string(), orderNumber: try reader.string(),
                    windowStart: try reader.time(), active: try reader.bool(), reminded: try reader.bool())
            }),
        indexes: [dueReminders])
}

enum ScheduledOrders {
    /// Brings the order's schedule record up to date after a placement, move or status change.
    /// A moved window is due a new reminder.
    static func track(_ record: StoredRecord<OrderRecord>, transaction: Transaction) throws {
        let order = record.value.subject
        guard let start = order.scheduledWindow?.startTime.map(StoreTime.init) else { return }
        let active = [.pending, .approved].contains(order.status)
        if let current = try transaction.get(ScheduledOrderTable.table, record.id) {
            try transaction.update(ScheduledOrderTable.table, record.id) {
                $0.reminded = $0.reminded && $0.windowStart == start
                $0.windowStart = start
                $0.active = active
            }
            _ = current
        } else {
            try transaction.insert(
                ScheduledOrderTable.table,
                ScheduledOrder(
                    marketplaceID: record.value.marketplaceID, customerAccountID: order.customerAccountID, orderNumber: order.orderNumber,
                    windowStart: start, active: active, reminded: false),
                id: record.id)
        }
    }

    /// Stops tracking a cancelled order; returns whether it held a place in its window.
    static func release(_ orderID: RecordID, transaction: Transaction) throws -> Bool {
        guard let current = try transaction.get(ScheduledOrderTable.table, orderID), current.value.active else { return false }
        try transaction.update(ScheduledOrderTable.table, orderID) { $0.active = false }
        return true
    }

    /// Writes the reminder of each active order whose window starts within the next day, once.
    /// Orders whose window already started are dropped without one.
    static func sendDue(store: Store) async throws -> Int {
        var sent = 0
        while true {
            let (count, more) = try await store.write { transaction -> (Int, Bool) in
                let horizon = transaction.now.adding(.seconds(86_400))
                let due = try transaction.list(
                    ScheduledOrderTable.table, ScheduledOrderTable.dueReminders, .prefix([], before: [.time(horizon)]), limit: 100)
                var count = 0
                for record in due {
                    try transaction.update(ScheduledOrderTable.table, record.id) { $0.reminded = true }
                    guard record.value.windowStart > transaction.now else { continue }
                    var when: NotificationText.When?
                    if let id = RecordID(record.value.marketplaceID), let marketplace = try IdentityRecords.marketplace(id, transaction) {
                        when = ServiceOrders.when(record.value.windowStart, marketplace)
                    }
                    try Notifier.send(
                        [Notifier.Note(
                            to: record.value.customerAccountID, kind: .order, .orderReminder(number: record.value.orderNumber, at: when),
                            subject: SoukV1.ResourceRef(type: .order, id: record.id.description))],
                        marketplaceID: record.value.marketplaceID, transaction: transaction)
                    count += 1
                }
                return (count, due.count == 100)
            }
            sent += count
            if !more { return sent }
        }
    }
}
