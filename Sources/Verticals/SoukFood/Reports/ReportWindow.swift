import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// The whole days a report covers in the marketplace's time zone, and the day and month totals
/// that add up to them: the days before the first whole month, the whole months, the days of the
/// last month. A year is then at most about 73 totals per restaurant or driver.
struct ReportWindow {
    /// Periods of one span, `from...through`.
    struct Piece: Equatable {
        let span: FoodTotals.Span
        let from: Int64
        let through: Int64
    }

    let first: CivilDate
    let last: CivilDate
    let pieces: [Piece]
    /// From local midnight of `first` to local midnight after `last`.
    let window: SoukV1.TimeWindow

    /// WEEK is the 7 days ending with end_time's day; MONTH, THREE_MONTHS, SIX_MONTHS and YEAR
    /// start the day after the same day 1, 3, 6 or 12 months earlier (the month's last day when
    /// it is shorter).
    init(period: SoukV1.ReportPeriod, end: StoreTime, clock: MarketplaceClock) throws {
        let last = clock.date(of: end)
        let first: CivilDate
        switch period {
        case .week: first = CivilDate(daysSinceEpoch: last.daysSinceEpoch - 6)
        case .month: first = Self.dayAfter(months: 1, before: last)
        case .threeMonths: first = Self.dayAfter(months: 3, before: last)
        case .sixMonths: first = Self.dayAfter(months: 6, before: last)
        case .year: first = Self.dayAfter(months: 12, before: last)
        default: throw RPCError.invalidField("period", "is required: WEEK, MONTH, THREE_MONTHS, SIX_MONTHS or YEAR")
        }
        self.first = first
        self.last = last
        pieces = Self.pieces(first, last)
        window = SoukV1.TimeWindow(
            startTime: Timestamp(clock.instant(first, minute: 0)),
            endTime: Timestamp(clock.instant(CivilDate(daysSinceEpoch: last.daysSinceEpoch + 1), minute: 0)))
    }

    static func dayAfter(months: Int, before date: CivilDate) -> CivilDate {
        let index = date.year * 12 + date.month - 1 - months
        let (year, month) = (index / 12, index % 12 + 1)
        let day = min(date.day, daysIn(year: year, month: month))
        return CivilDate(daysSinceEpoch: CivilDate(year: year, month: month, day: day).daysSinceEpoch + 1)
    }

    static func daysIn(year: Int, month: Int) -> Int {
        let next = month == 12 ? CivilDate(year: year + 1, month: 1, day: 1) : CivilDate(year: year, month: month + 1, day: 1)
        return next.daysSinceEpoch - CivilDate(year: year, month: month, day: 1).daysSinceEpoch
    }

    private static func pieces(_ first: CivilDate, _ last: CivilDate) -> [Piece] {
        var pieces = [Piece]()
        func append(_ span: FoodTotals.Span, _ from: Int64, _ through: Int64) {
            if let previous = pieces.last, previous.span == span, previous.through + 1 == from {
                pieces[pieces.count - 1] = Piece(span: span, from: previous.from, through: through)
            } else {
                pieces.append(Piece(span: span, from: from, through: through))
            }
        }
        var day = first
        while day <= last {
            let monthEnd = CivilDate(year: day.year, month: day.month, day: daysIn(year: day.year, month: day.month))
            if day.day == 1 && monthEnd <= last {
                append(.month, FoodTotalsTable.period(day, .month), FoodTotalsTable.period(day, .month))
                day = CivilDate(daysSinceEpoch: monthEnd.daysSinceEpoch + 1)
            } else {
                let until = min(monthEnd, last)
                append(.day, Int64(day.daysSinceEpoch), Int64(until.daysSinceEpoch))
                day = CivilDate(daysSinceEpoch: until.daysSinceEpoch + 1)
            }
        }
        return pieces
    }

    /// The sums of every subject's totals of `kind` over the window (only `subjectID`'s when given).
    func sums(kind: FoodTotals.Kind, subjectID: String?, marketplaceID: String, store: Store) throws -> [String: FoodTotals] {
        var sums = [String: FoodTotals]()
        func add(_ totals: FoodTotals) {
            var sum = sums[totals.subjectID] ?? FoodTotals(
                marketplaceID: marketplaceID, kind: kind.rawValue, subjectID: totals.subjectID, span: "", period: 0, counts: [])
            for counter in FoodTotals.Counter.allCases { sum[counter] += totals[counter] }
            sums[totals.subjectID] = sum
        }
        for piece in pieces {
            let prefix: [KeyPart] = [.string(marketplaceID), .string(kind.rawValue), .string(piece.span.rawValue)]
            if let subjectID {
                for period in piece.from...piece.through {
                    if let totals = try store.get(FoodTotalsTable.table, unique: FoodTotalsTable.byPeriod, prefix + [.int(period), .string(subjectID)]) {
                        add(totals.value)
                    }
                }
                continue
            }
            var token: String? = nil
            repeat {
                let page = try store.list(
                    FoodTotalsTable.table, FoodTotalsTable.byPeriod,
                    IndexRange(prefix: prefix, lower: RangeBound([.int(piece.from)], inclusive: true),
                               upper: RangeBound([.int(piece.through)], inclusive: true)),
                    page: PageRequest(size: PageRequest.maximumSize, token: token))
                page.items.forEach { add($0.value) }
                token = page.nextPageToken
            } while token != nil
        }
        return sums
    }
}
