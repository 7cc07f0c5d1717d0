import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// What the transitions of bookings and bills do besides moving them, declared with them in
/// `RentalLifecycles` and run by the machine in the transition's transaction: the listing a
/// booking frees, the deposit bill its cancellation voids, the booking a paid deposit starts,
/// what the booking's watchers see of its bills, the lessor's income a paid bill adds to, and
/// whom each tells.
enum RentalEffects {
    // MARK: Bookings

    static let tellLesseeConfirmed = TransitionEffect<SoukStoreV1.Booking>("notify the lessee") { move, transaction in
        let bill = try RecordID(move.after.depositBillID).flatMap { try transaction.get(BillTable.table, $0) }
        let due = bill.flatMap { CivilDate($0.value.subject.dueDate) }.map(LeaseDates.text) ?? ""
        try tell([move.after.lesseeAccountID], move, .bookingConfirmed(listing: move.after.listingTitle, depositDue: due), transaction: transaction)
    }

    /// The lessor's own words, or the server's when it declines for another reason (another
    /// request confirmed, the listing archived).
    static let tellLesseeDeclined = TransitionEffect<SoukStoreV1.Booking>("notify the lessee") { move, transaction in
        try tell(
            [move.after.lesseeAccountID], move, .bookingDeclined(listing: move.after.listingTitle, reason: move.reason, byServer: move.actor.isServer),
            transaction: transaction)
    }

    /// A confirmed booking held its listing and its unpaid deposit bill.
    static let releaseConfirmed = TransitionEffect<SoukStoreV1.Booking>("void the deposit bill and free the listing, once confirmed") { move, transaction in
        guard move.before.status == .confirmed else { return }
        let marketplaceID = try RequestFields.id(move.marketplaceID, field: "marketplace_id")
        try DepositBills.void(move.after.depositBillID, marketplaceID: marketplaceID, actor: move.actor, transaction: transaction)
        try freeListing.run(move, transaction)
    }

    static let tellLessorWithdrawn = TransitionEffect<SoukStoreV1.Booking>("notify the lessor") { move, transaction in
        try tell([move.after.lessorAccountID], move, .bookingWithdrawn(listing: move.after.listingTitle), transaction: transaction)
    }

    static let freeListing = TransitionEffect<SoukStoreV1.Booking>("free the listing") { move, transaction in
        guard let listing = RecordID(move.after.listingID) else { return }
        try ListingStates.markAvailable(
            listing, bookingID: move.id.description, marketplaceID: try RequestFields.id(move.marketplaceID, field: "marketplace_id"),
            actor: move.actor, transaction: transaction)
    }

    static let tellLesseeEnded = TransitionEffect<SoukStoreV1.Booking>("notify the lessee") { move, transaction in
        try tell([move.after.lesseeAccountID], move, .leaseEnded(listing: move.after.listingTitle), transaction: transaction)
    }

    // MARK: Bills

    /// The bill's change as an event of its booking's stream, so `WatchBooking` sees it.
    static func showOnBooking(_ reason: String) -> TransitionEffect<SoukStoreV1.Bill> {
        TransitionEffect("show on the booking's stream") { move, transaction in
            guard let bill = try transaction.get(BillTable.table, move.id) else { return }
            try BookingChanges.billChanged(bill, actor: move.actor, reason: reason, transaction: transaction)
        }
    }

    static let activateBooking = TransitionEffect<SoukStoreV1.Bill>("activate the booking, for a deposit") { move, transaction in
        guard move.after.kind == .deposit, let bookingID = RecordID(move.after.bookingID) else { return }
        try RentalLifecycles.booking.fire(
            .activate, on: bookingID, in: BookingTable.table, marketplaceID: move.marketplaceID, by: .system("DepositPaid"), transaction: transaction
        ) { $0.subject.activateTime = Timestamp(transaction.now) }
    }

    static let tellLessorPaid = TransitionEffect<SoukStoreV1.Bill>("notify the lessor") { move, transaction in
        let bill = move.after
        let currency = bill.split?.lessorShare?.currencyCode ?? bill.total?.currencyCode ?? ""
        try BookingChanges.notify(
            [bill.lessorAccountID], bookingID: bill.bookingID, kind: .bill, subject: move.ref(.bill),
            .billPaid(
                deposit: bill.kind == .deposit, amount: bill.total?.amountMinor ?? 0, share: bill.split?.lessorShare?.amountMinor ?? 0,
                currency: currency),
            marketplaceID: move.marketplaceID, transaction: transaction)
    }

    /// The bill's total and its split (stored on it by the paying transaction) count in the
    /// lessor's income of the month it was paid in, in the marketplace's time zone.
    static let addToLessorIncome = TransitionEffect<SoukStoreV1.Bill>("add to the lessor's income of the month") { move, transaction in
        guard let marketplaceID = RecordID(move.marketplaceID), let marketplace = try IdentityRecords.marketplace(marketplaceID, transaction) else {
            return
        }
        let bill = move.after
        let split = RentSplit(
            providerFee: bill.split?.providerFee?.amountMinor ?? 0, platformFee: bill.split?.platformFee?.amountMinor ?? 0,
            lessorShare: bill.split?.lessorShare?.amountMinor ?? 0)
        let month = MarketplaceClock(timeZone: marketplace.timeZone).date(of: transaction.now)
        try LessorIncomeTable.add(
            amount: bill.total?.amountMinor ?? 0, split: split, lessorAccountID: bill.lessorAccountID,
            month: Int64(month.year * 12 + month.month - 1), marketplaceID: move.marketplaceID, transaction: transaction)
    }

    private static func tell(_ accounts: [String], _ move: LifecycleMove<SoukStoreV1.Booking>, _ text: NotificationText, transaction: Transaction) throws {
        try BookingChanges.notify(accounts, bookingID: move.id.description, text, marketplaceID: move.marketplaceID, transaction: transaction)
    }
}
