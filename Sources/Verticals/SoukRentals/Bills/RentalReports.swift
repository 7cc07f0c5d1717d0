import SoukIdentity
import SoukKit
import SoukMessages
import SoukPayments
import SoukReports
import SoukStore

/// What rentals tell the dashboards' totals (`SoukReports`), in the transactions of their bills
/// and leases: a bill issued is due (its total due now), changed while due changes what is due,
/// paid or voided is due no more; a paid bill's money and its three-way split count on the day
/// it was paid (a deposit or a monthly bill); a lease started (ACTIVE) or ended counts on its day
/// and in the leases active now; a deposit returned counts on its day.
enum RentalReports {
    static func timeZone(_ marketplaceID: String, _ transaction: Transaction) throws -> String {
        guard let id = RecordID(marketplaceID) else { return "" }
        return try IdentityRecords.marketplace(id, transaction)?.timeZone ?? ""
    }

    static func today(_ marketplaceID: String, _ transaction: Transaction) throws -> Int64 {
        ReportTotals.day(transaction.now, timeZone: try timeZone(marketplaceID, transaction))
    }

    /// What is due and active now.
    static func now(_ marketplaceID: String, _ transaction: Transaction, _ change: (inout SoukStoreV1.ReportDay) -> Void) throws {
        try ReportTotals.add(.rentalsNow, day: 0, marketplaceID: marketplaceID, transaction: transaction, change)
    }

    static func issued(_ bill: SoukStoreV1.Bill, marketplaceID: String, transaction: Transaction) throws {
        try now(marketplaceID, transaction) {
            $0.billsDue += 1
            $0.amountDue += bill.total.minor
        }
    }

    /// A DUE bill's total changed from `before`.
    static func changed(from before: Int64, _ bill: SoukStoreV1.Bill, marketplaceID: String, transaction: Transaction) throws {
        guard bill.status == .due, bill.total.minor != before else { return }
        try now(marketplaceID, transaction) { $0.amountDue += bill.total.minor - before }
    }

    static func paid(_ bill: SoukStoreV1.Bill, day: Int64, marketplaceID: String, transaction: Transaction) throws {
        let amount = bill.total.minor
        try ReportTotals.add(.rentals, day: day, marketplaceID: marketplaceID, transaction: transaction) {
            $0.gross += amount
            if bill.kind == .deposit { $0.depositsPaid += amount } else { $0.monthlyBillsPaid += amount }
            $0.providerFees += bill.split?.providerFee.minor ?? 0
            $0.platformFees += bill.split?.platformFee.minor ?? 0
            $0.lessorShares += bill.split?.lessorShare.minor ?? 0
        }
    }

    static let billPaid = TransitionEffect<SoukStoreV1.Bill>("add to the dashboards' totals") { move, transaction in
        try now(move.marketplaceID, transaction) {
            $0.billsDue -= 1
            $0.amountDue -= move.before.total.minor
        }
        try paid(move.after, day: try today(move.marketplaceID, transaction), marketplaceID: move.marketplaceID, transaction: transaction)
    }

    static let billVoided = TransitionEffect<SoukStoreV1.Bill>("take off the dashboards' amount due") { move, transaction in
        try now(move.marketplaceID, transaction) {
            $0.billsDue -= 1
            $0.amountDue -= move.before.total.minor
        }
    }

    static let leaseStarted = TransitionEffect<SoukStoreV1.Booking>("count in the dashboards' leases") { move, transaction in
        try ReportTotals.add(.rentals, day: try today(move.marketplaceID, transaction), marketplaceID: move.marketplaceID, transaction: transaction) {
            $0.leasesStarted += 1
        }
        try now(move.marketplaceID, transaction) { $0.activeLeases += 1 }
    }

    static let leaseEnded = TransitionEffect<SoukStoreV1.Booking>("count in the dashboards' leases") { move, transaction in
        try ReportTotals.add(.rentals, day: try today(move.marketplaceID, transaction), marketplaceID: move.marketplaceID, transaction: transaction) {
            $0.leasesEnded += 1
        }
        try now(move.marketplaceID, transaction) { $0.activeLeases -= 1 }
    }

    static func depositReturned(_ amount: Int64, marketplaceID: String, transaction: Transaction) throws {
        guard amount > 0 else { return }
        try ReportTotals.add(.rentals, day: try today(marketplaceID, transaction), marketplaceID: marketplaceID, transaction: transaction) {
            $0.depositsReturned += amount
        }
    }

    /// The bills and bookings already stored when the totals are rebuilt.
    static let source = ReportSource("rentals") { store in
        let bills = try await store.eachPage(BillTable.table, BillTable.byBooking) { records in
            try await store.write { transaction in
                for record in records {
                    let bill = record.value.subject
                    let market = record.value.marketplaceID
                    switch bill.status {
                    case .due: try issued(bill, marketplaceID: market, transaction: transaction)
                    case .paid:
                        let zone = try timeZone(market, transaction)
                        let day = ReportTotals.day(bill.paidTime.map(StoreTime.init) ?? record.updatedAt, timeZone: zone)
                        try paid(bill, day: day, marketplaceID: market, transaction: transaction)
                    default: break
                    }
                }
            }
        }
        let bookings = try await store.eachPage(BookingTable.table, BookingTable.byLessee) { records in
            try await store.write { transaction in
                for record in records {
                    let booking = record.value.subject
                    let market = record.value.marketplaceID
                    let zone = try timeZone(market, transaction)
                    guard [.active, .ended].contains(booking.status) else { continue }
                    let started = ReportTotals.day(booking.activateTime.map(StoreTime.init) ?? record.createdAt, timeZone: zone)
                    try ReportTotals.add(.rentals, day: started, marketplaceID: market, transaction: transaction) { $0.leasesStarted += 1 }
                    if booking.status == .active {
                        try now(market, transaction) { $0.activeLeases += 1 }
                    } else {
                        let ended = ReportTotals.day(booking.endTime.map(StoreTime.init) ?? record.updatedAt, timeZone: zone)
                        try ReportTotals.add(.rentals, day: ended, marketplaceID: market, transaction: transaction) { $0.leasesEnded += 1 }
                    }
                    if let returned = booking.depositReturn, returned.amount.minor > 0 {
                        let day = ReportTotals.day(returned.returnTime.map(StoreTime.init) ?? record.updatedAt, timeZone: zone)
                        try ReportTotals.add(.rentals, day: day, marketplaceID: market, transaction: transaction) { $0.depositsReturned += returned.amount.minor }
                    }
                }
            }
        }
        return bills + bookings
    }
}
