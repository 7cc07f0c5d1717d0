import Logging
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore
import Synchronization

/// The dashboards' totals: per marketplace and day (of the marketplace's time zone), orders by
/// status and money, new and active accounts, payments by method, rental money. The owners of
/// what they count call `ReportTotals` inside their own transactions; the Reports service's
/// dashboards (GetOrdersOverview, GetTransactionReport, GetRentalRevenueReport) read them.
///
/// A store whose orders, payments, bills or accounts predate the totals (or whose totals are of
/// an older format) gets them rebuilt once at start (`rebuildIfNeeded`): every owner registered a
/// `ReportSource` that replays its records through the same calls as its live changes.
public final class Reports: SoukDomain {
    /// The format of the totals; a store with another one is rebuilt at start.
    public static let format: Int32 = 1

    public let store: Store
    public let sources: ReportSources
    let logger: Logger

    public static var tables: [AnyTable] { ReportTables.all }

    public init(store: Store, sources: ReportSources = ReportSources(), logger: Logger = Logger(label: "souk.reports")) {
        self.store = store
        self.sources = sources
        self.logger = logger
    }

    public convenience init(mounting context: DomainContext) throws {
        self.init(store: context.store, sources: context.shared { ReportSources() })
    }

    public func services(_ kit: ServiceKit) -> [any RPCService] {
        [DashboardsService(store: store).declaration.rpcService(kit)]
    }

    /// Rebuilds every total from the owners' records when the store has none of this format yet:
    /// clears the totals and the activity markers, replays every registered source, then records
    /// the format. Run at start, before calls are served and timers fire, so nothing changes
    /// meanwhile. Returns how many records were replayed (nil when nothing was to do).
    @discardableResult
    public func rebuildIfNeeded() async throws -> Int? {
        let stored = try store.get(ReportTables.state, unique: ReportTables.stateKey, [])
        if stored?.value.subject.format == Self.format { return nil }
        return try await rebuild()
    }

    /// Every total stored, by "marketplace|kind|day" (the day's shards summed): for a recount's comparison.
    public func totals() throws -> [String: SoukStoreV1.ReportDay] {
        var all: [String: SoukStoreV1.ReportDay] = [:]
        var token: String? = nil
        repeat {
            let page = try store.list(ReportTables.days, ReportTables.byMarketplace, page: PageRequest(size: PageRequest.maximumSize, token: token))
            for record in page.items {
                let key = "\(record.value.marketplaceID)|\(record.value.subject.kind)|\(record.value.subject.day)"
                var sum = all[key] ?? SoukStoreV1.ReportDay(kind: record.value.subject.kind, day: record.value.subject.day)
                sum.add(record.value.subject)
                all[key] = sum
            }
            token = page.nextPageToken
        } while token != nil
        return all
    }

    /// Clears the totals and the activity markers and replays every registered source (see
    /// `rebuildIfNeeded`); only while nothing else writes. Returns how many records were replayed.
    @discardableResult
    public func rebuild() async throws -> Int {
        try await clear(ReportTables.days, ReportTables.byMarketplace)
        try await clear(ReportTables.seen, ReportTables.seenKey)
        var replayed = 0
        for source in sources.all {
            let count = try await source.replay(store)
            logger.info("report totals rebuilt", metadata: ["source": "\(source.name)", "records": "\(count)"])
            replayed += count
        }
        try await store.write { transaction in
            if let current = try transaction.get(ReportTables.state, unique: ReportTables.stateKey, []) {
                try transaction.update(ReportTables.state, current.id) { $0.subject.format = Self.format }
            } else {
                try transaction.insert(ReportTables.state, ReportStateRecord(marketplaceID: "", SoukStoreV1.ReportState(format: Self.format)))
            }
        }
        return replayed
    }

    private func clear<Value>(_ table: Table<Value>, _ index: Index<Value>) async throws {
        while true {
            let ids = try store.list(table, index, page: PageRequest(size: PageRequest.maximumSize)).items.map(\.id)
            guard !ids.isEmpty else { return }
            try await store.write { transaction in
                for id in ids where try transaction.get(table, id) != nil { _ = try transaction.delete(table, id) }
            }
        }
    }
}

/// How an owner's records already stored are counted into the totals when they are rebuilt:
/// `replay` walks the owner's own table (a page per transaction) and calls `ReportTotals` for
/// each record as its live changes would have. Returns how many records it replayed.
public struct ReportSource: Sendable {
    public let name: String
    public let replay: @Sendable (Store) async throws -> Int

    public init(_ name: String, replay: @escaping @Sendable (Store) async throws -> Int) {
        self.name = name
        self.replay = replay
    }
}

/// The sources the owners register when they are mounted (`context.shared { ReportSources() }`).
public final class ReportSources: Sendable {
    private let sources = Mutex<[ReportSource]>([])

    public init() {}

    public func register(_ source: ReportSource) {
        sources.withLock { $0.append(source) }
    }

    public var all: [ReportSource] { sources.withLock { $0 } }
}

extension Store {
    /// Every record of `table` in `index`'s `range`, a page at a time: for a `ReportSource`'s
    /// replay (each record at most once, however many entries it has in the index).
    public func eachPage<Value>(
        _ table: Table<Value>, _ index: Index<Value>, _ range: IndexRange = IndexRange(), _ body: ([StoredRecord<Value>]) async throws -> Void
    ) async throws -> Int {
        var token: String? = nil
        var seen = Set<RecordID>()
        repeat {
            let page = try list(table, index, range, page: PageRequest(size: PageRequest.maximumSize, token: token))
            let fresh = page.items.filter { seen.insert($0.id).inserted }
            if !fresh.isEmpty { try await body(fresh) }
            token = page.nextPageToken
        } while token != nil
        return seen.count
    }
}
