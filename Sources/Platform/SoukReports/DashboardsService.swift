import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The dashboards of `souk.v1.Reports` (the food vertical serves its restaurant reports and
/// driver earnings; `ServiceAssembly` joins the two declarations). Each reads the day totals
/// of its window, one index range per kind, never the orders, payments or bills themselves.
struct DashboardsService {
    let store: Store
    var now: StoreTime { store.configuration.clock() }

    var declaration: SoukV1Services.Reports {
        SoukV1Services.Reports(
            getOrdersOverview: .handler(verticals: [.waterServices, .retail, .foodDelivery, .laundry], ordersOverview),
            listRestaurantReports: .unimplemented,
            listCourierEarnings: .unimplemented,
            getTransactionReport: .handler(transactionReport),
            getRentalRevenueReport: .handler(verticals: [.rentals], rentalRevenue))
    }

    func ordersOverview(_ request: SoukV1.GetOrdersOverviewRequest, _ call: SoukCall) async throws -> SoukV1.OrdersOverview {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let range: DashboardWindow.Range? = switch request.range {
        case .period(let period): .period(period)
        case .dates(let dates): .dates(dates)
        case nil: nil
        }
        let window = try DashboardWindow(range, endTime: request.endTime, marketplace: marketplace, now: now)
        let orders = try window.totals(.orders, marketplaceID: marketplaceID.description, store: store)
        let accounts = try window.totals(.accounts, marketplaceID: marketplaceID.description, store: store)
        let money = { (amount: Int64) in SoukV1.Money(amountMinor: amount, currencyCode: marketplace.currencyCode) }
        var overview = SoukV1.OrdersOverview()
        overview.window = window.window
        var byStatus: [SoukV1.OrderStatus: Int64] = [:]
        var sum = SoukStoreV1.ReportDay()
        for day in orders.values {
            for count in day.ordersByStatus { byStatus[count.status, default: 0] += count.count }
            sum.ordersPlaced += day.ordersPlaced
            sum.ordersCompleted += day.ordersCompleted
            sum.ordersCancelled += day.ordersCancelled
            sum.revenue += day.revenue
            sum.tax += day.tax
            sum.fees += day.fees
            sum.commission += day.commission
            sum.deliveriesCompleted += day.deliveriesCompleted
            sum.activeCustomers += day.activeCustomers
            sum.activeCouriers += day.activeCouriers
        }
        overview.ordersByStatus = byStatus.filter { $0.value != 0 }.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { SoukV1.OrderStatusCount(status: $0.key, count: $0.value) }
        overview.ordersPlaced = sum.ordersPlaced
        overview.ordersCompleted = sum.ordersCompleted
        overview.ordersCancelled = sum.ordersCancelled
        overview.revenue = money(sum.revenue)
        overview.tax = money(sum.tax)
        overview.fees = money(sum.fees)
        overview.commission = money(sum.commission)
        overview.deliveriesCompleted = sum.deliveriesCompleted
        overview.activeCustomers = sum.activeCustomers
        overview.activeCouriers = sum.activeCouriers
        overview.newAccounts = accounts.values.reduce(0) { $0 + $1.newAccounts }
        overview.activeAccounts = accounts.values.reduce(0) { $0 + $1.activeAccounts }
        overview.days = window.days.map { day in
            let (o, a) = (orders[day], accounts[day])
            return SoukV1.OrdersDay(
                date: DashboardWindow.date(day), ordersPlaced: o?.ordersPlaced ?? 0, ordersCompleted: o?.ordersCompleted ?? 0,
                ordersCancelled: o?.ordersCancelled ?? 0, revenue: money(o?.revenue ?? 0), newAccounts: a?.newAccounts ?? 0,
                activeAccounts: a?.activeAccounts ?? 0)
        }
        return overview
    }

    func transactionReport(_ request: SoukV1.GetTransactionReportRequest, _ call: SoukCall) async throws -> SoukV1.TransactionReport {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let range: DashboardWindow.Range? = switch request.range {
        case .period(let period): .period(period)
        case .dates(let dates): .dates(dates)
        case nil: nil
        }
        let window = try DashboardWindow(range, endTime: request.endTime, marketplace: marketplace, now: now)
        let payments = try window.totals(.payments, marketplaceID: marketplaceID.description, store: store)
        let money = { (amount: Int64) in SoukV1.Money(amountMinor: amount, currencyCode: marketplace.currencyCode) }
        var buckets: [SoukStoreV1.ReportPaymentBucket] = []
        var methods: [SoukStoreV1.ReportMethodMoney] = []
        for day in payments.values {
            for bucket in day.payments {
                if let index = buckets.firstIndex(where: { $0.method == bucket.method && $0.status == bucket.status }) {
                    buckets[index].count += bucket.count
                    buckets[index].amount += bucket.amount
                } else {
                    buckets.append(bucket)
                }
            }
            for method in day.methods {
                if let index = methods.firstIndex(where: { $0.method == method.method }) {
                    methods[index].receivedCount += method.receivedCount
                    methods[index].received += method.received
                    methods[index].refundCount += method.refundCount
                    methods[index].refunded += method.refunded
                    methods[index].collectedCount += method.collectedCount
                    methods[index].collected += method.collected
                } else {
                    methods.append(method)
                }
            }
        }
        var report = SoukV1.TransactionReport()
        report.window = window.window
        report.buckets = buckets.filter { $0.count != 0 }.sorted { ($0.method.rawValue, $0.status.rawValue) < ($1.method.rawValue, $1.status.rawValue) }
            .map { SoukV1.TransactionBucket(method: $0.method, status: $0.status, count: $0.count, amount: money($0.amount)) }
        let moved = methods.filter { $0.receivedCount != 0 || $0.refundCount != 0 || $0.collectedCount != 0 }.sorted { $0.method.rawValue < $1.method.rawValue }
        report.methods = moved.map {
            SoukV1.MethodTotals(
                method: $0.method, receivedCount: $0.receivedCount, received: money($0.received), refundCount: $0.refundCount,
                refunded: money($0.refunded), collectedCount: $0.collectedCount, collected: money($0.collected))
        }
        report.received = money(methods.reduce(0) { $0 + $1.received })
        report.refunded = money(methods.reduce(0) { $0 + $1.refunded })
        report.refundCount = methods.reduce(0) { $0 + $1.refundCount }
        report.cashCollected = money(methods.reduce(0) { $0 + $1.collected })
        report.days = window.days.map { day in
            let methods = payments[day]?.methods ?? []
            return SoukV1.TransactionDay(
                date: DashboardWindow.date(day), received: money(methods.reduce(0) { $0 + $1.received }),
                refunded: money(methods.reduce(0) { $0 + $1.refunded }), cashCollected: money(methods.reduce(0) { $0 + $1.collected }))
        }
        return report
    }

    func rentalRevenue(_ request: SoukV1.GetRentalRevenueReportRequest, _ call: SoukCall) async throws -> SoukV1.RentalRevenueReport {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let range: DashboardWindow.Range? = switch request.range {
        case .period(let period): .period(period)
        case .dates(let dates): .dates(dates)
        case nil: nil
        }
        let window = try DashboardWindow(range, endTime: request.endTime, marketplace: marketplace, now: now)
        let market = marketplaceID.description
        let rentals = try window.totals(.rentals, marketplaceID: market, store: store)
        let money = { (amount: Int64) in SoukV1.Money(amountMinor: amount, currencyCode: marketplace.currencyCode) }
        var sum = SoukStoreV1.ReportDay()
        for day in rentals.values {
            sum.gross += day.gross
            sum.depositsPaid += day.depositsPaid
            sum.monthlyBillsPaid += day.monthlyBillsPaid
            sum.providerFees += day.providerFees
            sum.platformFees += day.platformFees
            sum.lessorShares += day.lessorShares
            sum.depositsReturned += day.depositsReturned
        }
        let current = try DashboardWindow.totals(.rentalsNow, from: 0, through: 0, marketplaceID: market, store: store)[0] ?? SoukStoreV1.ReportDay()
        // Leases active at the end of the window: those active now, less the net change of the
        // days after it (totals of days, not leases).
        var later: Int64 = 0
        if window.last < window.today {
            let after = try DashboardWindow.totals(.rentals, from: window.last + 1, through: window.today, marketplaceID: market, store: store)
            later = after.values.reduce(0) { $0 + $1.leasesStarted - $1.leasesEnded }
        }
        var report = SoukV1.RentalRevenueReport()
        report.window = window.window
        report.gross = money(sum.gross)
        report.depositsPaid = money(sum.depositsPaid)
        report.monthlyBillsPaid = money(sum.monthlyBillsPaid)
        report.providerFees = money(sum.providerFees)
        report.platformFees = money(sum.platformFees)
        report.lessorShares = money(sum.lessorShares)
        report.depositsReturned = money(sum.depositsReturned)
        report.billsDue = current.billsDue
        report.amountDue = money(current.amountDue)
        report.activeLeases = current.activeLeases - later
        report.days = window.days.map { day in
            let totals = rentals[day]
            return SoukV1.RentalDay(
                date: DashboardWindow.date(day), gross: money(totals?.gross ?? 0), lessorShares: money(totals?.lessorShares ?? 0),
                depositsReturned: money(totals?.depositsReturned ?? 0), leasesStarted: totals?.leasesStarted ?? 0,
                leasesEnded: totals?.leasesEnded ?? 0)
        }
        return report
    }
}

/// The whole days a dashboard covers, in the marketplace's time zone: a period ending with
/// end_time's day (as the food reports count it), or a range of dates.
struct DashboardWindow {
    enum Range {
        case period(SoukV1.ReportPeriod)
        case dates(SoukV1.DateRange)
    }

    /// The longest range of dates, in days.
    static let maximumDays: Int64 = 366

    /// Days since 1970-01-01, both included.
    let first: Int64
    let last: Int64
    /// The marketplace's today.
    let today: Int64
    let window: SoukV1.TimeWindow

    var days: [Int64] { Array(first...last) }

    init(_ range: Range?, endTime: Timestamp?, marketplace: SoukV1.Marketplace, now: StoreTime) throws {
        let clock = MarketplaceClock(timeZone: marketplace.timeZone)
        let today = Int64(clock.date(of: now).daysSinceEpoch)
        var checks = FieldChecks()
        var bounds: (Int64, Int64)?
        switch range {
        case nil:
            checks.add("period", "is required: a period (WEEK, MONTH, THREE_MONTHS, SIX_MONTHS, YEAR) or dates")
        case .period(let period):
            let end = endTime.map(StoreTime.init) ?? now
            checks.require(end <= now, "end_time", "must not be in the future")
            let last = clock.date(of: min(end, now))
            let first: CivilDate? = switch period {
            case .week: CivilDate(daysSinceEpoch: last.daysSinceEpoch - 6)
            case .month: Self.dayAfter(months: 1, before: last)
            case .threeMonths: Self.dayAfter(months: 3, before: last)
            case .sixMonths: Self.dayAfter(months: 6, before: last)
            case .year: Self.dayAfter(months: 12, before: last)
            default: nil
            }
            if let first {
                bounds = (Int64(first.daysSinceEpoch), Int64(last.daysSinceEpoch))
            } else {
                checks.add("period", "is required: WEEK, MONTH, THREE_MONTHS, SIX_MONTHS or YEAR")
            }
        case .dates(let dates):
            checks.require(endTime == nil, "end_time", "is only for a period; dates name their own end")
            let start = CivilDate(dates.startDate)
            let end = CivilDate(dates.endDate)
            checks.require(start != nil, "dates.start_date", "is required: a valid date (year, month, day)")
            checks.require(end != nil, "dates.end_date", "is required: a valid date (year, month, day)")
            if let start, let end {
                let (from, through) = (Int64(start.daysSinceEpoch), Int64(end.daysSinceEpoch))
                checks.require(through <= today, "dates.end_date", "must not be after today in the marketplace's time zone")
                if from > through {
                    checks.add("dates", "start_date must not be after end_date")
                } else if through - from + 1 > Self.maximumDays {
                    checks.add("dates", "covers at most \(Self.maximumDays) days")
                }
                bounds = (from, through)
            }
        }
        try checks.finish()
        let (first, last) = bounds!
        self.first = first
        self.last = last
        self.today = today
        window = SoukV1.TimeWindow(
            startTime: Timestamp(clock.instant(CivilDate(daysSinceEpoch: Int(first)), minute: 0)),
            endTime: Timestamp(clock.instant(CivilDate(daysSinceEpoch: Int(last) + 1), minute: 0)))
    }

    static func dayAfter(months: Int, before date: CivilDate) -> CivilDate {
        let index = date.year * 12 + date.month - 1 - months
        let (year, month) = (index / 12, index % 12 + 1)
        let next = month == 12 ? CivilDate(year: year + 1, month: 1, day: 1) : CivilDate(year: year, month: month + 1, day: 1)
        let length = next.daysSinceEpoch - CivilDate(year: year, month: month, day: 1).daysSinceEpoch
        let day = min(date.day, length)
        return CivilDate(daysSinceEpoch: CivilDate(year: year, month: month, day: day).daysSinceEpoch + 1)
    }

    static func date(_ day: Int64) -> SoukV1.Date {
        let date = CivilDate(daysSinceEpoch: Int(day))
        return SoukV1.Date(year: Int32(date.year), month: Int32(date.month), day: Int32(date.day))
    }

    /// The `kind` totals of the window's days, by day.
    func totals(_ kind: ReportTotals.Kind, marketplaceID: String, store: Store) throws -> [Int64: SoukStoreV1.ReportDay] {
        try Self.totals(kind, from: first, through: last, marketplaceID: marketplaceID, store: store)
    }

    static func totals(_ kind: ReportTotals.Kind, from: Int64, through: Int64, marketplaceID: String, store: Store) throws
        -> [Int64: SoukStoreV1.ReportDay]
    {
        var totals: [Int64: SoukStoreV1.ReportDay] = [:]
        var token: String? = nil
        repeat {
            let page = try store.list(
                ReportTables.days, ReportTables.byDay,
                IndexRange(prefix: [.string(marketplaceID), .string(kind.rawValue)], lower: RangeBound([.int(from)], inclusive: true),
                           upper: RangeBound([.int(through + 1)], inclusive: false)),
                page: PageRequest(size: PageRequest.maximumSize, token: token))
            // The day's shards, summed.
            for record in page.items { totals[record.value.subject.day, default: SoukStoreV1.ReportDay()].add(record.value.subject) }
            token = page.nextPageToken
        } while token != nil
        return totals
    }
}
