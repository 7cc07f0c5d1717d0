import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A bill as stored: its own record (`souk.store.v1.Bill`, without the id, version and times,
/// which the envelope holds) and its marketplace. RPCs answer with `BillProjection`.
public typealias BillRecord = MarketRecord<SoukStoreV1.Bill>

/// Bills and their indexes. Lists run by due date (days since 1970), then the bill's id.
enum BillTable {
    /// Days since 1970-01-01 of the bill's due date.
    static func dueDay(_ bill: SoukStoreV1.Bill) -> Int64 { Int64(CivilDate(bill.dueDate)?.daysSinceEpoch ?? 0) }

    /// Two entries per owner: under BILL_STATUS_UNSPECIFIED (any status) and under the bill's.
    private static func byStatus(_ record: BillRecord, _ owner: String) -> [[KeyPart]] {
        let base: [KeyPart] = [.string(record.marketplaceID), .string(owner)]
        let due = KeyPart.int(dueDay(record.subject))
        return [base + [.enumCase(SoukV1.BillStatus.unspecified), due], base + [.enumCase(record.subject.status), due]]
    }
    static let byLessee = Index<BillRecord>.nonUnique("rental_bills.lessee", keys: { byStatus($0, $0.subject.lesseeAccountID) })
    static let byLessor = Index<BillRecord>.nonUnique("rental_bills.lessor", keys: { byStatus($0, $0.subject.lessorAccountID) })
    static let byBooking = Index<BillRecord>.nonUnique("rental_bills.booking", keys: { byStatus($0, $0.subject.bookingID) })

    /// One monthly bill per booking and month.
    static let monthly = Index<BillRecord>.unique("rental_bills.month") { record in
        guard record.subject.kind == .monthly, let period = record.subject.period else { return nil }
        return [.string(record.marketplaceID), .string(record.subject.bookingID), .int(Int64(period.year) * 12 + Int64(period.month) - 1)]
    }
    /// DUE bills not yet marked overdue, by due day, across marketplaces (the maintenance loop).
    static let unmarkedDue = Index<BillRecord>.nonUnique("rental_bills.unmarked_due") { record in
        record.subject.status == .due && !record.subject.overdue ? [.int(dueDay(record.subject))] : nil
    }

    static let table = marketTable(
        "rental_bills", SoukStoreV1.Bill.self, indexes: [byLessee, byLessor, byBooking, monthly, unmarkedDue])
}

/// What a caller sees of a stored bill: the contract's `Bill`, built field by field (an
/// allow-list: a field added to the stored record reaches no caller until a line here names
/// it). The available transitions come from `BillViews.view`.
enum BillProjection {
    static func bill(_ record: StoredRecord<BillRecord>) -> SoukV1.Bill {
        let bill = record.value.subject
        var shown = record.stamped(SoukV1.Bill())
        shown.bookingID = bill.bookingID
        shown.listingID = bill.listingID
        shown.lesseeAccountID = bill.lesseeAccountID
        shown.lessorAccountID = bill.lessorAccountID
        shown.kind = bill.kind
        shown.period = bill.period
        shown.rent = bill.rent
        shown.utilities = bill.utilities
        shown.total = bill.total
        shown.dueDate = bill.dueDate
        shown.status = bill.status
        shown.note = bill.note
        shown.paymentID = bill.paymentID
        shown.paidTime = bill.paidTime
        shown.split = bill.split
        shown.overdue = bill.overdue
        shown.overdueTime = bill.overdueTime
        return shown
    }
}

extension SoukV1.Bill: StampedMessage {}
