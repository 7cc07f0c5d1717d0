import SoukGRPC
import SoukKit
import SoukMessages
import SoukOrders
import SoukStore

/// Food delivery's report totals of one restaurant or one driver over one day or one calendar
/// month of the marketplace's time zone. They are added to in the transaction of the change they
/// count (placement, completion, cancellation, delivery, cash confirmed), so a report reads a few
/// dozen totals per restaurant or driver and never the orders themselves.
struct FoodTotals: Sendable {
    /// Whose totals.
    enum Kind: String, Sendable { case restaurant, courier }
    /// How long a period.
    enum Span: String, Sendable { case day, month }
    /// What is counted; money in minor units.
    enum Counter: Int, CaseIterable, Sendable {
        case placed, completed, cancelled, revenue, commission, deliveries, earnings, cashCollected, cashUnconfirmed
    }

    var marketplaceID: String
    var kind: String
    var subjectID: String
    var span: String
    /// Days since 1970-01-01 for a day; year × 12 + month − 1 for a month.
    var period: Int64
    /// Indexed by `Counter`; missing ones are 0.
    var counts: [Int64]

    subscript(_ counter: Counter) -> Int64 {
        get { counter.rawValue < counts.count ? counts[counter.rawValue] : 0 }
        set {
            if counts.count <= counter.rawValue { counts += Array(repeating: 0, count: counter.rawValue + 1 - counts.count) }
            counts[counter.rawValue] = newValue
        }
    }
}

enum FoodTotalsTable {
    /// One total per (kind, span, period, subject); a report reads a range of periods.
    static let byPeriod = Index<FoodTotals>.unique("food_totals.period") {
        [.string($0.marketplaceID), .string($0.kind), .string($0.span), .int($0.period), .string($0.subjectID)]
    }

    static let table = Table(
        "food_totals",
        codec: FieldCodec<FoodTotals>(
            write: { value, writer in
                writer.string(value.marketplaceID)
                writer.string(value.kind)
                writer.string(value.subjectID)
                writer.string(value.span)
                writer.int(value.period)
                writer.list(value.counts) { writer, count in writer.int(count) }
            },
            read: { reader in
                FoodTotals(
                    marketplaceID: try reader.string(), kind: try reader.string(), subjectID: try reader.string(), span: try reader.string(),
                    period: try reader.int(), counts: try reader.list { try $0.int() })
            }),
        indexes: [byPeriod])

    static var all: [AnyTable] { [table.erased] }

    static func period(_ date: CivilDate, _ span: FoodTotals.Span) -> Int64 {
        switch span {
        case .day: Int64(date.daysSinceEpoch)
        case .month: Int64(date.year * 12 + date.month - 1)
        }
    }
}

/// The changes food orders and deliveries make to the report totals.
enum FoodTotalsLedger {
    /// Adds `changes` to the day and month totals of `subjectID` that hold `time`.
    static func add(
        _ changes: [(FoodTotals.Counter, Int64)], kind: FoodTotals.Kind, subjectID: String, at time: StoreTime,
        marketplace: SoukV1.Marketplace, marketplaceID: String, transaction: Transaction
    ) throws {
        guard !subjectID.isEmpty else { return }
        let date = MarketplaceClock(timeZone: marketplace.timeZone).date(of: time)
        for span in [FoodTotals.Span.day, .month] {
            let period = FoodTotalsTable.period(date, span)
            let key: [KeyPart] = [.string(marketplaceID), .string(kind.rawValue), .string(span.rawValue), .int(period), .string(subjectID)]
            // The unique read locks the key, present or not: concurrent first changes of a period serialize here.
            if let current = try transaction.get(FoodTotalsTable.table, unique: FoodTotalsTable.byPeriod, key) {
                try transaction.update(FoodTotalsTable.table, current.id) { totals in
                    for (counter, amount) in changes { totals[counter] += amount }
                }
            } else {
                var totals = FoodTotals(
                    marketplaceID: marketplaceID, kind: kind.rawValue, subjectID: subjectID, span: span.rawValue, period: period, counts: [])
                for (counter, amount) in changes { totals[counter] += amount }
                try transaction.insert(FoodTotalsTable.table, totals)
            }
        }
    }

    /// A food order was placed: counted on its placement day.
    static func placed(_ order: SoukStoreV1.Order, marketplace: SoukV1.Marketplace, marketplaceID: String, transaction: Transaction) throws {
        try add([(.placed, 1)], kind: .restaurant, subjectID: order.restaurantID, at: transaction.now, marketplace: marketplace,
                marketplaceID: marketplaceID, transaction: transaction)
    }

    /// The restaurant completed a food order: its subtotal is revenue and its commission owed.
    static func completed(_ order: SoukStoreV1.Order, marketplace: SoukV1.Marketplace, marketplaceID: String, transaction: Transaction) throws {
        try add(
            [(.completed, 1), (.revenue, order.price?.subtotal?.amountMinor ?? 0), (.commission, order.commission?.amountMinor ?? 0)],
            kind: .restaurant, subjectID: order.restaurantID, at: transaction.now, marketplace: marketplace, marketplaceID: marketplaceID,
            transaction: transaction)
    }

    /// A food order was cancelled or rejected: counted on the day it was.
    static func cancelled(_ order: SoukStoreV1.Order, marketplace: SoukV1.Marketplace, marketplaceID: String, transaction: Transaction) throws {
        try add([(.cancelled, 1)], kind: .restaurant, subjectID: order.restaurantID, at: transaction.now, marketplace: marketplace,
                marketplaceID: marketplaceID, transaction: transaction)
    }

    /// A driver delivered an order and collected `cash` (minor units): the delivery fee is earned.
    static func delivered(
        courierID: String, fee: Int64, cash: Int64, marketplace: SoukV1.Marketplace, marketplaceID: String, transaction: Transaction
    ) throws {
        try add([(.deliveries, 1), (.earnings, fee), (.cashCollected, cash), (.cashUnconfirmed, cash)], kind: .courier,
                subjectID: courierID, at: transaction.now, marketplace: marketplace, marketplaceID: marketplaceID, transaction: transaction)
    }

    /// Cash a driver collected at `collectTime` is no longer unconfirmed: the restaurant confirmed
    /// it, or the order was cancelled and the cash voided.
    static func cashSettled(
        courierID: String, amount: Int64, collectTime: StoreTime, marketplace: SoukV1.Marketplace, marketplaceID: String,
        transaction: Transaction
    ) throws {
        try add([(.cashUnconfirmed, -amount)], kind: .courier, subjectID: courierID, at: collectTime, marketplace: marketplace,
                marketplaceID: marketplaceID, transaction: transaction)
    }
}
