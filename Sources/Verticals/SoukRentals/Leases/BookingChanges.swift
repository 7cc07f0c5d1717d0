import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// What happens to a booking besides its transitions: a bill issued, changed or paid reaches the
/// booking's event stream, so `WatchBooking` sees it; and the notes that tell the parties.
/// (Changes of the booking that are not transitions, a deposit returned, are recorded by the
/// lifecycle: `StateMachine.recordChange`.)
enum BookingChanges {
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
        _ text: NotificationText, marketplaceID: String, transaction: Transaction
    ) throws {
        let subject = subject ?? SoukV1.ResourceRef(type: .booking, id: bookingID)
        try Notifier.send(
            accounts.filter { !$0.isEmpty }.map { Notifier.Note(to: $0, kind: kind, text, subject: subject) },
            marketplaceID: marketplaceID, transaction: transaction)
    }
}
