import SoukIdentity
import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// DUE bills past their due date: each is marked overdue once, when its marketplace's day is
/// after the due date, and its lessee notified then.
struct OverdueBills {
    let store: Store

    /// Marks every such bill. Returns how many.
    func mark() async throws -> Int {
        let now = store.configuration.clock()
        // No marketplace's day is more than one day ahead of UTC's, so only bills due on or
        // before UTC's today can be overdue; those not yet overdue in their zone stay for later.
        let range = IndexRange.prefix([], before: [.int(Int64(now.civilDate.daysSinceEpoch) + 1)])
        var marked = 0
        var page = PageRequest(size: PageRequest.maximumSize)
        while true {
            let candidates = try store.list(BillTable.table, BillTable.unmarkedDue, range, page: page)
            if !candidates.items.isEmpty {
                marked += try await store.write { transaction in
                    var clocks = [String: MarketplaceClock]()
                    var marked = 0
                    for candidate in candidates.items {
                        guard let bill = try transaction.get(BillTable.table, candidate.id), bill.value.subject.status == .due,
                              !bill.value.subject.overdue, let due = CivilDate(bill.value.subject.dueDate) else { continue }
                        let market = bill.value.marketplaceID
                        // Read without a lock: marking bills must not hold up the marketplace's payments.
                        if clocks[market] == nil, let id = RecordID(market), let marketplace = try IdentityRecords.marketplace(id, store) {
                            clocks[market] = MarketplaceClock(timeZone: marketplace.timeZone)
                        }
                        guard let clock = clocks[market], due < clock.date(of: transaction.now) else { continue }
                        try Self.markOne(bill, transaction: transaction)
                        marked += 1
                    }
                    return marked
                }
            }
            guard let token = candidates.nextPageToken else { return marked }
            page = PageRequest(size: PageRequest.maximumSize, token: token)
        }
    }

    private static func markOne(_ bill: StoredRecord<BillRecord>, transaction: Transaction) throws {
        // A mark the server maintains: the version the lessor edits stays (decision 9).
        let updated = try transaction.updateMaintainedFields(BillTable.table, bill.id) { record in
            record.subject.overdue = true
            record.subject.overdueTime = Timestamp(transaction.now)
        }
        let subject = updated.value.subject
        try BookingChanges.billChanged(updated, actor: .system("BillOverdue"), reason: "bill overdue", transaction: transaction)
        let period = subject.kind == .deposit ? "" : "\(subject.period?.year ?? 0)-\(subject.period?.month ?? 0)"
        try BookingChanges.notify(
            [subject.lesseeAccountID], bookingID: subject.bookingID, kind: .bill, subject: SoukV1.ResourceRef(type: .bill, id: bill.id.description),
            .billOverdue(
                period: period, amount: subject.total?.amountMinor ?? 0, currency: subject.total?.currencyCode ?? "",
                due: CivilDate(subject.dueDate).map(LeaseDates.text) ?? ""),
            marketplaceID: updated.value.marketplaceID, transaction: transaction)
    }
}

extension Rentals {
    /// Every minute, and at start (so bills that fell due while the server was down are marked
    /// then): DUE bills past their due date are marked overdue and their lessees told. The
    /// index of unmarked due bills is the schedule; a bill's day ends in its marketplace's time
    /// zone, which the sweep reads.
    public var background: DomainBackground {
        let store = self.store
        return DomainBackground(jobs: [ScheduledJob("mark overdue bills", every: .seconds(60)) { try await OverdueBills(store: store).mark() }])
    }

    /// Marks the bills that became overdue. Returns how many.
    public func markOverdueBills() async throws -> Int {
        try await OverdueBills(store: store).mark()
    }
}
