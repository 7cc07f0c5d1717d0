import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A bill as stored: the contract message (without its id, version and times) and its
/// marketplace.
public typealias BillRecord = MarketRecord<SoukV1.Bill>

/// Bills and their indexes. Lists run by due date (days since 1970), then the bill's id.
enum BillTable {
    /// Days since 1970-01-01 of the bill's due date.
    static func dueDay(_ bill: SoukV1.Bill) -> Int64 { Int64(CivilDate(bill.dueDate)?.daysSinceEpoch ?? 0) }

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

    /// Not converted yet: stores the contract message `souk.v1.Bill` itself, not a `souk.store.v1` record (ADDING-A-SERVICE.md, "Stored records are not wire messages").
    static let table = marketTable(
        "rental_bills", SoukV1.Bill.self, indexes: [byLessee, byLessor, byBooking, monthly, unmarkedDue])
}

extension StoredRecord where Value == BillRecord {
    /// The bill with the envelope's id, version and times.
    var bill: SoukV1.Bill { api() }
}

extension SoukV1.Bill: StampedMessage {}
