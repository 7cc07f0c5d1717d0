import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A booking's deposit bill: issued on confirmation, voided with a cancellation, and what it
/// paid bounds the deposit's return.
enum DepositBills {
    /// Issues the deposit of `booking` (rent × deposit months, fixed at request time), due on `due`.
    static func issue(
        for booking: SoukStoreV1.Booking, bookingID: RecordID, due: CivilDate, marketplaceID: String, actor: AuditActor, transaction: Transaction
    ) throws -> StoredRecord<BillRecord> {
        let bill = SoukStoreV1.Bill(
            bookingID: bookingID.description, listingID: booking.listingID, lesseeAccountID: booking.lesseeAccountID,
            lessorAccountID: booking.lessorAccountID, kind: .deposit, rent: booking.deposit, total: booking.deposit,
            dueDate: LeaseDates.proto(due), status: .due)
        let record = try RentalLifecycles.bill.create(BillRecord(marketplaceID: marketplaceID, bill), in: BillTable.table, by: actor, transaction: transaction)
        try RentalReports.issued(bill, marketplaceID: marketplaceID, transaction: transaction)
        return record
    }

    /// Voids the unpaid deposit bill `id` with its booking's cancellation.
    static func void(_ id: String, marketplaceID: RecordID, actor: AuditActor, transaction: Transaction) throws {
        guard let recordID = RecordID(id) else { return }
        try RentalLifecycles.bill.fire(
            .void, on: recordID, in: BillTable.table, marketplaceID: marketplaceID.description, by: actor, reason: "booking cancelled",
            transaction: transaction)
    }

    /// What the deposit bill `id` was paid; 0 when it was not.
    static func paidAmount(_ id: String, marketplaceID: RecordID, transaction: Transaction) throws -> Int64 {
        guard let recordID = RecordID(id), let bill = try transaction.get(BillTable.table, recordID),
              bill.value.marketplaceID == marketplaceID.description, bill.value.subject.status == .paid else { return 0 }
        return bill.value.subject.total?.amountMinor ?? 0
    }
}
