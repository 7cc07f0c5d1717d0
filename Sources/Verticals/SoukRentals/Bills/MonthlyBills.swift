import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// The lessor's monthly bills: the booking's fixed rent plus the month's utilities, one per
/// month of an ACTIVE lease, and their corrections while DUE.
struct MonthlyBills {
    let store: Store

    /// Most utility lines one bill carries.
    static let maxUtilities = 20

    func create(_ request: SoukV1.CreateMonthlyBillRequest, _ call: SoukCall) async throws -> SoukV1.Bill {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let lessor = try call.requireCaller().accountID.description
        var checks = FieldChecks()
        let checkedRequestID = try checks.run { try RequestFields.requestID(request.requestID) }
        let checkedBookingID = try checks.run { try RequestFields.id(request.bookingID, field: "booking_id") }
        let month = request.period.flatMap { (1...12).contains($0.month) && (1970...9999).contains($0.year) ? $0 : nil }
        checks.require(month != nil, "period", "must name a month: year and month 1 to 12")
        let checkedUtilities = try checks.run { try Self.checkUtilities(request.utilities, currency: marketplace.currencyCode) }
        let checkedDueDate = try checks.run { try Self.checkDueDate(request.dueDate) }
        try checks.finish()
        let (requestID, bookingID, period, utilities, named) = (checkedRequestID!, checkedBookingID!, month!, checkedUtilities!, checkedDueDate ?? nil)
        let rules = RentalRules(marketplace)
        let clock = MarketplaceClock(timeZone: marketplace.timeZone)
        let actor = AuditActor(call, requestID: requestID)
        let market = marketplaceID.description
        let stored = try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: market, account: lessor, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Bill>()
        ) { transaction in
            let booking = try transaction.require(BookingTable.table, bookingID, in: marketplaceID, "booking").value.subject
            guard booking.status == .active else {
                throw RPCError.souk(
                    .failedPrecondition, .invalidTransition, "booking \(bookingID) is \(booking.status.protoName): monthly bills need an ACTIVE lease",
                    field: "booking_id")
            }
            guard let start = CivilDate(booking.startDate), let end = CivilDate(booking.endDate),
                  LeaseDates.months(from: start, to: end).contains(LessorIncomeTotals.month(period)) else {
                throw RPCError.invalidField("period", "must be a month of the lease")
            }
            let today = clock.date(of: transaction.now)
            if let named, named < today { throw RPCError.invalidField("due_date", "must be today or later") }
            let due = named ?? max(today, CivilDate(year: Int(period.year), month: Int(period.month), day: Int(rules.billDueDay)))
            let key: [KeyPart] = [.string(market), .string(bookingID.description), .int(LessorIncomeTotals.month(period))]
            if let existing = try transaction.get(BillTable.table, unique: BillTable.monthly, key) {
                throw RPCError.souk(
                    .alreadyExists, .duplicate, "booking \(bookingID) already has bill \(existing.id) for \(period.year)-\(period.month)",
                    field: "period")
            }
            var bill = SoukStoreV1.Bill(
                bookingID: bookingID.description, listingID: booking.listingID, lesseeAccountID: booking.lesseeAccountID,
                lessorAccountID: booking.lessorAccountID, kind: .monthly, period: period, rent: booking.monthlyRent, utilities: utilities,
                dueDate: LeaseDates.proto(due), status: .due, note: request.note)
            bill.total = Self.total(bill)
            let record = try RentalLifecycles.bill.create(BillRecord(marketplaceID: market, bill), in: BillTable.table, by: actor, transaction: transaction)
            try RentalReports.issued(bill, marketplaceID: market, transaction: transaction)
            try BookingChanges.billChanged(record, actor: actor, reason: "monthly bill issued", transaction: transaction)
            try BookingChanges.notify(
                [booking.lesseeAccountID], bookingID: bookingID.description, kind: .bill, subject: SoukV1.ResourceRef(type: .bill, id: record.id.description),
                .billIssued(
                    period: "\(period.year)-\(period.month)", amount: bill.total?.amountMinor ?? 0, currency: marketplace.currencyCode,
                    due: LeaseDates.text(due)),
                marketplaceID: market, transaction: transaction)
            return record.stamped(SoukV1.Bill())
        }.value
        return try BillViews.get(stored.id, call, store: store)
    }

    func update(_ request: SoukV1.UpdateBillRequest, _ call: SoukCall) async throws -> SoukV1.Bill {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let changes = request.bill ?? SoukV1.Bill()
        var checks = FieldChecks()
        let billID = try checks.run { try RequestFields.id(changes.id, field: "bill.id") }
        let expectedVersion = try checks.run { try RequestFields.expectedVersion(request.expectedVersion) }
        let maskPaths = try checks.run { try RequestFields.maskPaths(request.updateMask, allowed: ["utilities", "due_date", "note"]) } ?? []
        var checkedUtilities: [SoukV1.UtilityCharge] = []
        if maskPaths.contains("utilities") {
            checkedUtilities = try checks.run { try Self.checkUtilities(changes.utilities, currency: marketplace.currencyCode, field: "bill.utilities") } ?? []
        }
        var dueDate: CivilDate?
        if maskPaths.contains("due_date") {
            dueDate = try checks.run { try Self.checkDueDate(changes.dueDate, field: "bill.due_date") } ?? nil
            checks.require(dueDate != nil || changes.dueDate != nil, "bill.due_date", "is required")
        }
        try checks.finish()
        let (id, expected, paths, utilities, named) = (billID!, expectedVersion ?? nil, maskPaths, checkedUtilities, dueDate)
        let clock = MarketplaceClock(timeZone: marketplace.timeZone)
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let current = try transaction.require(BillTable.table, id, in: marketplaceID, "bill")
            if let expected, expected != current.version {
                throw RPCError.staleVersion("bill", id.description, expected: expected, actual: current.version)
            }
            guard current.value.subject.kind == .monthly else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "bill \(id) is a deposit bill: it cannot change")
            }
            guard current.value.subject.status == .due else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "bill \(id) is \(current.value.subject.status.protoName): only a DUE bill changes")
            }
            let today = clock.date(of: transaction.now)
            if let named, named < today { throw RPCError.invalidField("bill.due_date", "must be today or later") }
            let updated = try transaction.update(BillTable.table, id) { record in
                if paths.contains("utilities") { record.subject.utilities = utilities }
                if paths.contains("note") { record.subject.note = changes.note }
                if let named {
                    record.subject.dueDate = LeaseDates.proto(named)
                    record.subject.overdue = false
                    record.subject.overdueTime = nil
                }
                record.subject.total = Self.total(record.subject)
            }
            try RentalReports.changed(from: current.value.subject.total.minor, updated.value.subject, marketplaceID: marketplaceID.description, transaction: transaction)
            try BookingChanges.billChanged(updated, actor: actor, reason: "bill changed", transaction: transaction)
            try BookingChanges.notify(
                [updated.value.subject.lesseeAccountID], bookingID: updated.value.subject.bookingID, kind: .bill,
                subject: SoukV1.ResourceRef(type: .bill, id: id.description),
                .billChanged(amount: updated.value.subject.total?.amountMinor ?? 0, currency: marketplace.currencyCode),
                marketplaceID: marketplaceID.description, transaction: transaction)
            return updated
        }
        return BillViews.view(record, call)
    }

    /// Rent plus utilities.
    static func total(_ bill: SoukStoreV1.Bill) -> SoukV1.Money {
        let sum = bill.utilities.reduce(bill.rent?.amountMinor ?? 0) { $0 + ($1.amount?.amountMinor ?? 0) }
        return SoukV1.Money(amountMinor: sum, currencyCode: bill.rent?.currencyCode ?? "")
    }

    /// Each utility names its kind and a non-negative amount in the marketplace's currency (at
    /// most 1,000,000,000 minor units); the amounts carry the currency.
    /// The utility lines with the marketplace's currency; every wrong field of every line is
    /// named at once.
    static func checkUtilities(_ utilities: [SoukV1.UtilityCharge], currency: String, field: String = "utilities") throws -> [SoukV1.UtilityCharge] {
        guard utilities.count <= maxUtilities else { throw RPCError.invalidField(field, "at most \(maxUtilities) charges") }
        var checks = FieldChecks()
        var checked: [SoukV1.UtilityCharge] = []
        for (index, utility) in utilities.enumerated() {
            let path = "\(field)[\(index)]"
            checks.require(utility.kind != .unspecified, "\(path).kind", "is required")
            let amount = utility.amount.flatMap { amount in
                (0...1_000_000_000).contains(amount.amountMinor) && (amount.currencyCode.isEmpty || amount.currencyCode == currency) ? amount : nil
            }
            checks.require(amount != nil, "\(path).amount", "must be 0 to 1,000,000,000 \(currency)")
            checks.require(utility.description.count <= 200, "\(path).description", "must be at most 200 characters")
            var line = utility
            line.amount = SoukV1.Money(amountMinor: amount?.amountMinor ?? 0, currencyCode: currency)
            checked.append(line)
        }
        try checks.finish()
        return checked
    }

    static func checkDueDate(_ date: SoukV1.Date?, field: String = "due_date") throws -> CivilDate? {
        guard let date else { return nil }
        guard let day = CivilDate(date) else { throw RPCError.invalidField(field, "must be a valid calendar date") }
        return day
    }
}
