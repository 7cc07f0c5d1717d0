import Foundation
import SoukMessages
import SoukStore

/// A calendar day (proleptic Gregorian), for card expiries and scheduled windows.
public struct CivilDate: Sendable, Hashable, Comparable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The day `days` after 1970-01-01 (civil_from_days).
    public init(daysSinceEpoch days: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// A valid date from the contract's `Date`, or nil.
    public init?(_ date: SoukV1.Date?) {
        guard let date, (1...12).contains(date.month), date.day >= 1, date.year >= 1970, date.year <= 9999 else { return nil }
        self.init(year: Int(date.year), month: Int(date.month), day: Int(date.day))
        guard CivilDate(daysSinceEpoch: daysSinceEpoch) == self else { return nil }
    }

    public static func < (a: CivilDate, b: CivilDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }
}

extension StoreTime {
    /// The UTC calendar day of this instant.
    public var civilDate: CivilDate {
        let seconds = microsecondsSinceEpoch / 1_000_000 - (microsecondsSinceEpoch < 0 && microsecondsSinceEpoch % 1_000_000 != 0 ? 1 : 0)
        return CivilDate(daysSinceEpoch: Int((seconds - (seconds < 0 && seconds % 86400 != 0 ? 86400 : 0)) / 86400))
    }
}

/// A marketplace's time zone, for the days and windows its customers schedule in.
public struct MarketplaceClock: Sendable {
    let zone: TimeZone

    /// UTC when the identifier is empty or unknown.
    public init(timeZone identifier: String) {
        zone = TimeZone(identifier: identifier) ?? TimeZone(identifier: "UTC")!
    }

    /// The instant at `minute` minutes after local midnight of `date`.
    public func instant(_ date: CivilDate, minute: Int) -> StoreTime {
        let localSeconds = Int64(date.daysSinceEpoch) * 86400 + Int64(minute) * 60
        // The offset in force at that local time (approximated by the offset at the UTC instant of
        // the same wall-clock reading, then corrected once).
        var offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(localSeconds))))
        offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(localSeconds - offset))))
        return StoreTime(microsecondsSinceEpoch: (localSeconds - offset) * 1_000_000)
    }

    /// The local calendar day of `time`.
    public func date(of time: StoreTime) -> CivilDate {
        let seconds = time.microsecondsSinceEpoch / 1_000_000
        let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
        return StoreTime(microsecondsSinceEpoch: (seconds + offset) * 1_000_000).civilDate
    }
}
