import SoukKit
import SoukMessages

/// Calendar arithmetic of leases and bills, in days of the marketplace's time zone.
enum LeaseDates {
    /// The last day of a lease of `months` months from `start`: the day before the same day
    /// `months` later (clamped to that month's length).
    static func end(start: CivilDate, months: Int32) -> CivilDate {
        let next = addingMonths(Int(months), to: start)
        return CivilDate(daysSinceEpoch: next.daysSinceEpoch - 1)
    }

    /// `date` moved by `months`, its day clamped to the month's length.
    static func addingMonths(_ months: Int, to date: CivilDate) -> CivilDate {
        let index = date.year * 12 + date.month - 1 + months
        let (year, month) = (index / 12, index % 12 + 1)
        return CivilDate(year: year, month: month, day: min(date.day, daysIn(year: year, month: month)))
    }

    static func daysIn(year: Int, month: Int) -> Int {
        let next = month == 12 ? CivilDate(year: year + 1, month: 1, day: 1) : CivilDate(year: year, month: month + 1, day: 1)
        return next.daysSinceEpoch - CivilDate(year: year, month: month, day: 1).daysSinceEpoch
    }

    static func proto(_ date: CivilDate) -> SoukV1.Date {
        SoukV1.Date(year: Int32(date.year), month: Int32(date.month), day: Int32(date.day))
    }

    /// The months a lease from `start` to `end` touches, as year × 12 + month − 1.
    static func months(from start: CivilDate, to end: CivilDate) -> ClosedRange<Int64> {
        Int64(start.year * 12 + start.month - 1)...Int64(end.year * 12 + end.month - 1)
    }
}

extension LeaseDates {
    /// "2026-12-05".
    static func text(_ date: CivilDate) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(date.year)-\(two(date.month))-\(two(date.day))"
    }
}
