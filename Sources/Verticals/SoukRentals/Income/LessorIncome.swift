import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// `GetLessorIncome`: a lessor's monthly totals over at most 24 months, read as one index range
/// of `LessorIncomeTable`, and the lessor's active leases counted from one range of bookings.
struct LessorIncome {
    let store: Store

    static let maxMonths: Int64 = 24

    func get(_ request: SoukV1.GetLessorIncomeRequest, _ call: SoukCall) async throws -> SoukV1.LessorIncome {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let lessor = request.lessorAccountID.isEmpty ? try call.requireCaller().accountID.description : request.lessorAccountID
        let (first, last) = try Self.range(request, now: store.configuration.clock(), timeZone: marketplace.timeZone)
        let market = marketplaceID.description
        let totals = try store.list(
            LessorIncomeTable.table, LessorIncomeTable.byMonth,
            .prefix([.string(market), .string(lessor)], from: [.int(first)], before: [.int(last + 1)]),
            page: PageRequest(size: Int(Self.maxMonths)))
        let byMonth = Dictionary(uniqueKeysWithValues: totals.items.map { ($0.value.month, $0.value) })
        let currency = marketplace.currencyCode
        var income = SoukV1.LessorIncome(lessorAccountID: lessor)
        var sum = LessorIncomeTotals(marketplaceID: market, lessorAccountID: lessor, month: 0)
        for month in first...last {
            let total = byMonth[month] ?? LessorIncomeTotals(marketplaceID: market, lessorAccountID: lessor, month: month)
            income.months.append(Self.view(total, period: LessorIncomeTotals.period(month), currency: currency))
            for (into, value) in [(\LessorIncomeTotals.paidBills, total.paidBills), (\.gross, total.gross), (\.providerFees, total.providerFees),
                                  (\.platformFees, total.platformFees), (\.lessorShare, total.lessorShare)] {
                sum[keyPath: into] += value
            }
        }
        income.total = Self.view(sum, period: nil, currency: currency)
        income.activeLeases = try activeLeases(lessor, marketplaceID: market)
        return income
    }

    /// The lessor's ACTIVE bookings: one range of the lessor index, read by pages.
    func activeLeases(_ lessor: String, marketplaceID: String) throws -> Int32 {
        let range = IndexRange.starting(with: [.string(marketplaceID), .string(lessor), .enumCase(SoukV1.BookingStatus.active)])
        var count: Int32 = 0
        var page = PageRequest(size: PageRequest.maximumSize)
        while true {
            let result = try store.list(BookingTable.table, BookingTable.byLessor, range, page: page)
            count += Int32(result.items.count)
            guard let token = result.nextPageToken else { return count }
            page = PageRequest(size: PageRequest.maximumSize, token: token)
        }
    }

    /// Months first...last (year × 12 + month − 1): the request's, or the last 12 months to now.
    static func range(_ request: SoukV1.GetLessorIncomeRequest, now: StoreTime, timeZone: String) throws -> (Int64, Int64) {
        let today = MarketplaceClock(timeZone: timeZone).date(of: now)
        let current = Int64(today.year * 12 + today.month - 1)
        var checks = FieldChecks()
        let to = try request.toPeriod.map { period in try checks.run { try month(period, field: "to_period") } } ?? current
        let from = try request.fromPeriod.map { period in try checks.run { try month(period, field: "from_period") } }
        try checks.finish()
        let last = to!
        let first = (from ?? last - 11)!
        checks.require(first <= last, "from_period", "must not be after to_period")
        checks.require(first > last || last - first < maxMonths, "from_period", "the range must span at most \(maxMonths) months")
        try checks.finish()
        return (first, last)
    }

    private static func month(_ period: SoukV1.BillingPeriod, field: String) throws -> Int64 {
        guard (1...12).contains(period.month), (1970...9999).contains(period.year) else {
            throw RPCError.invalidField(field, "must name a month: year and month 1 to 12")
        }
        return LessorIncomeTotals.month(period)
    }

    private static func view(_ totals: LessorIncomeTotals, period: SoukV1.BillingPeriod?, currency: String) -> SoukV1.MonthlyIncome {
        func money(_ amount: Int64) -> SoukV1.Money { SoukV1.Money(amountMinor: amount, currencyCode: currency) }
        return SoukV1.MonthlyIncome(
            period: period, paidBills: Int32(clamping: totals.paidBills), gross: money(totals.gross), providerFees: money(totals.providerFees),
            platformFees: money(totals.platformFees), lessorShare: money(totals.lessorShare))
    }
}
