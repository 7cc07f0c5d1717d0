import SoukKit
import SoukMessages
import SoukStore

/// One kind of totals of one marketplace and day (`SoukStoreV1.ReportDay`).
public typealias ReportDayRecord = MarketRecord<SoukStoreV1.ReportDay>
typealias ReportSeenRecord = MarketRecord<SoukStoreV1.ReportSeen>
typealias ReportStateRecord = MarketRecord<SoukStoreV1.ReportState>

/// The reports module's own tables: nobody else writes them (the owners of what they count call
/// `ReportTotals` inside their transactions), and nobody reads them but the dashboards.
enum ReportTables {
    /// A few records per (marketplace, kind, day), one per shard: a dashboard reads a range of days.
    static let byDay = Index<ReportDayRecord>.unique("report_days.day") {
        [.string($0.marketplaceID), .string($0.subject.kind), .int($0.subject.day), .int(Int64($0.subject.shard))]
    }
    /// How many records a day's totals of one kind are spread over, at most: as many as the
    /// store's writer threads by default, so transactions running at once never share one
    /// (`Transaction.slot`); a day has as many as were ever written at once.
    static let shards: Int32 = 64
    /// Every total of a marketplace, for the rebuild (which clears them) and the recount.
    static let byMarketplace = Index<ReportDayRecord>.nonUnique("report_days.marketplace") { [.string($0.marketplaceID)] }
    static let days = marketTable("report_days", SoukStoreV1.ReportDay.self, indexes: [byDay, byMarketplace])

    /// One marker per (marketplace, role, day, account): the account was counted active.
    static let seenKey = Index<ReportSeenRecord>.unique("report_seen.key") {
        [.string($0.marketplaceID), .string($0.subject.role), .int($0.subject.day), .string($0.subject.accountID)]
    }
    static let seen = marketTable("report_seen", SoukStoreV1.ReportSeen.self, indexes: [seenKey])

    /// One record (marketplace ""): the format the totals were built with.
    static let stateKey = Index<ReportStateRecord>.unique("report_state.key") { _ in [] }
    static let state = marketTable("report_state", SoukStoreV1.ReportState.self, indexes: [stateKey])

    static var all: [AnyTable] { [days.erased, seen.erased, state.erased] }
}
