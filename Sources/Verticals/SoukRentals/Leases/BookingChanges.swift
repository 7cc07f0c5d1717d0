import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// What happens to a booking besides its transitions: changes that are not moves (a deposit
/// returned, a bill issued, changed or paid) reach the audit log and the booking's event stream
/// as transitions do, so `WatchBooking` sees them; and the notes that tell the parties.
enum BookingChanges {
    /// Records a change of booking `record` that is not a transition (the deposit returned).
    static func record(_ record: StoredRecord<BookingRecord>, actor: AuditActor, reason: String, transaction: Transaction) throws {
        let entry = try AuditLog.record(
            in: transaction, marketplaceID: record.value.marketplaceID, resource: SoukV1.ResourceRef(type: .booking, id: record.id.description),
            actor: actor, reason: reason, resourceVersion: record.version)
        try transaction.appendLifecycleEvent(entry, of: .booking, record: record, in: BookingTable.table)
    }

    /// Tells the watchers of the bill's booking that the bill was issued, changed or paid, with
    /// both as they are now (the bill's own audit entries are written by its lifecycle).
    static func billChanged(_ bill: StoredRecord<BillRecord>, actor: AuditActor, reason: String, transaction: Transaction) throws {
        guard let bookingID = RecordID(bill.value.subject.bookingID), let booking = try transaction.get(BookingTable.table, bookingID) else {
            return
        }
        let entry = SoukV1.AuditEntry(
            resource: SoukV1.ResourceRef(type: .bill, id: bill.id.description), actorAccountID: actor.accountID, actorRole: actor.role,
            action: actor.action, toState: bill.value.subject.status.protoName, reason: reason, resourceVersion: Int64(bill.version))
        try transaction.appendLifecycleEvent(entry, of: .booking, record: booking, in: BookingTable.table, related: try BillTable.table.snapshot(bill))
    }

    /// Tells `accounts` about booking `bookingID`.
    static func notify(
        _ accounts: [String], bookingID: String, kind: SoukV1.NotificationKind = .booking, subject: SoukV1.ResourceRef? = nil,
        title: String, body: String, marketplaceID: String, transaction: Transaction
    ) throws {
        let subject = subject ?? SoukV1.ResourceRef(type: .booking, id: bookingID)
        try Notifier.send(
            accounts.filter { !$0.isEmpty }.map { Notifier.Note(to: $0, kind: kind, title: title, body: body, subject: subject) },
            marketplaceID: marketplaceID, transaction: transaction)
    }
}
