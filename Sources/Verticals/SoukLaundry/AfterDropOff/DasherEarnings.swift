import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// A Dasher's payments of one week (Monday to Sunday) or one calendar month of the
/// marketplace's time zone, added to in the transaction that pays or refunds a job, so the
/// earnings of a range read one total per period and never the jobs.
struct EarningsTotals: Sendable {
    /// How long a period.
    enum Span: String, Sendable { case week, month }

    var marketplaceID: String
    var dasherID: String
    var span: String
    /// Weeks since the week of 1970-01-01 (Monday 1969-12-29); year × 12 + month − 1 for a month.
    var period: Int64
    var jobsPaid: Int64 = 0
    /// Minor units.
    var paid: Int64 = 0
    var refunded: Int64 = 0
}

enum EarningsTable {
    /// One total per (Dasher, span, period); a range of periods is one index range.
    static let byPeriod = Index<EarningsTotals>.unique("laundry_earnings.period") {
        [.string($0.marketplaceID), .string($0.dasherID), .string($0.span), .int($0.period)]
    }

    static let table = Table(
        "laundry_earnings",
        codec: FieldCodec<EarningsTotals>(
            write: { value, writer in
                writer.string(value.marketplaceID)
                writer.string(value.dasherID)
                writer.string(value.span)
                writer.int(value.period)
                writer.int(value.jobsPaid)
                writer.int(value.paid)
                writer.int(value.refunded)
            },
            read: { reader in
                EarningsTotals(
                    marketplaceID: try reader.string(), dasherID: try reader.string(), span: try reader.string(), period: try reader.int(),
                    jobsPaid: try reader.int(), paid: try reader.int(), refunded: try reader.int())
            }),
        indexes: [byPeriod])

    /// The period of `span` holding `date`.
    static func period(_ date: CivilDate, _ span: EarningsTotals.Span) -> Int64 {
        switch span {
        case .week: Int64((date.daysSinceEpoch + 3).floorDivided(by: 7))
        case .month: Int64(date.year * 12 + date.month - 1)
        }
    }

    /// First and last day of `period`.
    static func days(of period: Int64, _ span: EarningsTotals.Span) -> (CivilDate, CivilDate) {
        switch span {
        case .week:
            let monday = Int(period) * 7 - 3
            return (CivilDate(daysSinceEpoch: monday), CivilDate(daysSinceEpoch: monday + 6))
        case .month:
            let (year, month) = (Int(period) / 12, Int(period) % 12 + 1)
            let first = CivilDate(year: year, month: month, day: 1)
            let next = month == 12 ? CivilDate(year: year + 1, month: 1, day: 1) : CivilDate(year: year, month: month + 1, day: 1)
            return (first, CivilDate(daysSinceEpoch: next.daysSinceEpoch - 1))
        }
    }
}

/// The changes paying and refunding jobs make to the Dashers' earnings totals.
enum EarningsLedger {
    /// A job of `dasherID` was paid `amount` minor units now.
    static func paid(_ amount: Int64, dasherID: String, marketplace: SoukV1.Marketplace, marketplaceID: String, transaction: Transaction) throws {
        try add(dasherID: dasherID, marketplace: marketplace, marketplaceID: marketplaceID, transaction: transaction) {
            $0.jobsPaid += 1
            $0.paid += amount
        }
    }

    /// `amount` minor units of a job of `dasherID` were refunded now.
    static func refunded(_ amount: Int64, dasherID: String, marketplace: SoukV1.Marketplace, marketplaceID: String, transaction: Transaction) throws {
        try add(dasherID: dasherID, marketplace: marketplace, marketplaceID: marketplaceID, transaction: transaction) { $0.refunded += amount }
    }

    private static func add(
        dasherID: String, marketplace: SoukV1.Marketplace, marketplaceID: String, transaction: Transaction, change: (inout EarningsTotals) -> Void
    ) throws {
        guard !dasherID.isEmpty else { return }
        let date = MarketplaceClock(timeZone: marketplace.timeZone).date(of: transaction.now)
        for span in [EarningsTotals.Span.week, .month] {
            let period = EarningsTable.period(date, span)
            let key: [KeyPart] = [.string(marketplaceID), .string(dasherID), .string(span.rawValue), .int(period)]
            // The unique read locks the key, present or not: concurrent first payments of a period serialize here.
            if let current = try transaction.get(EarningsTable.table, unique: EarningsTable.byPeriod, key) {
                try transaction.update(EarningsTable.table, current.id) { change(&$0) }
            } else {
                var totals = EarningsTotals(marketplaceID: marketplaceID, dasherID: dasherID, span: span.rawValue, period: period)
                change(&totals)
                try transaction.insert(EarningsTable.table, totals)
            }
        }
    }
}

/// `GetDasherEarnings`: the Dasher's totals of each week or month of a range.
struct DasherEarningsReport {
    let laundry: Laundry
    var store: Store { laundry.store }

    /// Most periods one answer holds.
    static let maxPeriods: Int64 = 60

    /// Dashers read their own earnings; admins anyone's.
    static var ownership: Ownership<SoukV1.GetDasherEarningsRequest> {
        Ownership { request, _, caller, roles in
            roles.contains(.courier) && (request.dasherAccountID.isEmpty || request.dasherAccountID == caller.accountID.description)
        }
    }

    func earnings(_ request: SoukV1.GetDasherEarningsRequest, _ call: SoukCall) async throws -> SoukV1.DasherEarnings {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let caller = try call.requireCaller()
        let dasher = request.dasherAccountID.isEmpty ? caller.accountID.description : request.dasherAccountID
        var checks = FieldChecks()
        let spans: [SoukV1.EarningsPeriod: EarningsTotals.Span] = [.week: .week, .month: .month]
        let chosen = spans[request.period]
        checks.require(chosen != nil, "period", "is required: EARNINGS_PERIOD_WEEK or EARNINGS_PERIOD_MONTH")
        let startDate = CivilDate(request.startDate)
        let endDate = CivilDate(request.endDate)
        checks.require(startDate != nil, "start_date", "must be a valid date")
        checks.require(endDate != nil, "end_date", "must be a valid date")
        if let start = startDate, let end = endDate {
            checks.require(start <= end, "end_date", "must not be before start_date")
            if let span = chosen, start <= end {
                let periods = EarningsTable.period(end, span) - EarningsTable.period(start, span) + 1
                checks.require(periods <= Self.maxPeriods, "end_date", "the range holds \(periods) periods; at most \(Self.maxPeriods)")
            }
        }
        try checks.finish()
        let span = chosen!
        let (first, last) = (EarningsTable.period(startDate!, span), EarningsTable.period(endDate!, span))
        let prefix: [KeyPart] = [.string(marketplaceID.description), .string(dasher), .string(span.rawValue)]
        let found = try store.list(
            EarningsTable.table, EarningsTable.byPeriod,
            IndexRange(prefix: prefix, lower: RangeBound([.int(first)], inclusive: true), upper: RangeBound([.int(last)], inclusive: true)),
            page: PageRequest(size: Int(Self.maxPeriods))).items
        let byPeriod = Dictionary(found.map { ($0.value.period, $0.value) }, uniquingKeysWith: { a, _ in a })
        let currency = marketplace.currencyCode
        func money(_ minor: Int64) -> SoukV1.Money { SoukV1.Money(amountMinor: minor, currencyCode: currency) }
        var response = SoukV1.DasherEarnings(dasherAccountID: dasher, period: request.period)
        var total: Int64 = 0
        for period in first...last {
            let totals = byPeriod[period]
            let (from, through) = EarningsTable.days(of: period, span)
            let (paid, refunded) = (totals?.paid ?? 0, totals?.refunded ?? 0)
            total += paid - refunded
            response.periods.append(SoukV1.DasherEarningsPeriod(
                startDate: from.contract, endDate: through.contract, jobsPaid: totals?.jobsPaid ?? 0, paid: money(paid),
                refunded: money(refunded), earnings: money(paid - refunded)))
        }
        response.totalEarnings = money(total)
        return response
    }
}

extension CivilDate {
    /// The contract's `Date`.
    var contract: SoukV1.Date { SoukV1.Date(year: Int32(year), month: Int32(month), day: Int32(day)) }
}

extension Int {
    /// Division rounding toward negative infinity.
    func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
