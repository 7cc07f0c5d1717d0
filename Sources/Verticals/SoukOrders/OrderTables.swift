import Synchronization
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// An order as stored.
package typealias OrderRecord = MarketRecord<SoukStoreV1.Order>

/// Orders of every vertical, with the index of each list `Orders.ListOrders` serves. Entries end
/// with the order's id (a version 7 UUID), so each list is in placement order; newest first is a
/// descending scan.
enum OrderTable {
    static let byMarketplace = Index<OrderRecord>.nonUnique("orders.marketplace") { [.string($0.marketplaceID)] }
    static let byCustomer = Index<OrderRecord>.nonUnique("orders.customer") {
        [.string($0.marketplaceID), .string($0.subject.customerAccountID)]
    }
    /// Retail history by delivery date: only delivered orders have an entry.
    static let byCustomerDelivered = Index<OrderRecord>.nonUnique("orders.customer_delivered") { record in
        guard let time = record.subject.deliverTime else { return nil }
        return [.string(record.marketplaceID), .string(record.subject.customerAccountID), .time(StoreTime(time))]
    }
    static let byStatus = Index<OrderRecord>.nonUnique("orders.status") {
        [.string($0.marketplaceID), .enumCase($0.subject.status)]
    }
    static let byCourier = Index<OrderRecord>.nonUnique("orders.courier") {
        $0.subject.courierAccountID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.courierAccountID)]
    }
    static let byRestaurantStatus = Index<OrderRecord>.nonUnique("orders.restaurant_status") {
        $0.subject.restaurantID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.restaurantID), .enumCase($0.subject.status)]
    }
    static let byRestaurant = Index<OrderRecord>.nonUnique("orders.restaurant") {
        $0.subject.restaurantID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.restaurantID)]
    }
    /// Food: the restaurant owner's orders (`as_seller`).
    static let bySeller = Index<OrderRecord>.nonUnique("orders.seller") {
        $0.subject.sellerAccountID.isEmpty ? nil : [.string($0.marketplaceID), .string($0.subject.sellerAccountID)]
    }
    /// Orders still moving (an admin's "active orders"): only those have an entry.
    static let byActive = Index<OrderRecord>.nonUnique("orders.active") {
        OrderParties.isActive($0.subject.status) ? [.string($0.marketplaceID)] : nil
    }
    /// Water services: the service ordered (the order's one line).
    static let byService = Index<OrderRecord>.nonUnique("orders.service") { record in
        guard let line = record.subject.lines.first, line.itemType == .service else { return nil }
        return [.string(record.marketplaceID), .string(line.itemID)]
    }
    /// The order number people quote, unique in the marketplace.
    static let byNumber = Index<OrderRecord>.unique("orders.number") {
        [.string($0.marketplaceID), .string($0.subject.orderNumber)]
    }

    static let table = marketTable(
        "orders", SoukStoreV1.Order.self,
        indexes: [byMarketplace, byCustomer, byCustomerDelivered, byStatus, byCourier, byRestaurantStatus, byRestaurant, bySeller, byActive, byService, byNumber])
}

/// The highest order number reserved in a marketplace, stored under the marketplace's id.
struct OrderCounter: Sendable {
    var last: Int64
}

/// Order numbers ("AH-10482"), unique in their marketplace. A counter written by every placement
/// would serialize all placements on its lock, each waiting for the previous commit's fsync; so
/// the counter reserves blocks of `blockSize` numbers in a transaction of its own, and placements
/// take numbers from the reserved block in memory before their transaction starts. A block is
/// never handed out twice; numbers of a block the process did not use before stopping are left
/// out, as are those of a placement that failed or was retried.
/// The shops and food delivery take their orders' numbers here (`Commerce.orderNumbers`).
package final class OrderNumbers: Sendable {
    static let blockSize: Int64 = 100

    let store: Store
    /// Reserved numbers not yet taken, per marketplace.
    private let reserved = Mutex<[RecordID: [ClosedRange<Int64>]]>([:])

    init(store: Store) {
        self.store = store
    }

    /// The next number of `marketplace`: its prefix (the initials of its name) and a number from
    /// 10001 on.
    package func next(marketplaceID: RecordID, marketplace: SoukV1.Marketplace) async throws -> String {
        let number: Int64
        if let taken = take(marketplaceID) {
            number = taken
        } else {
            let end = try await store.write { transaction in
                let stored = try transaction.get(OrderCounterTable.table, marketplaceID)
                let end = (stored?.value.last ?? 10000) + Self.blockSize
                if stored == nil {
                    try transaction.insert(OrderCounterTable.table, OrderCounter(last: end), id: marketplaceID)
                } else {
                    try transaction.update(OrderCounterTable.table, marketplaceID) { $0.last = end }
                }
                return end
            }
            number = end - Self.blockSize + 1
            reserved.withLock { $0[marketplaceID, default: []].append((number + 1)...end) }
        }
        return "\(OrderCounterTable.prefix(marketplace.displayName))-\(number)"
    }

    private func take(_ marketplaceID: RecordID) -> Int64? {
        reserved.withLock { all in
            guard var ranges = all[marketplaceID], let first = ranges.first else { return nil }
            let number = first.lowerBound
            if first.count == 1 { ranges.removeFirst() } else { ranges[0] = (number + 1)...first.upperBound }
            all[marketplaceID] = ranges
            return number
        }
    }
}

enum OrderCounterTable {
    static let table = Table(
        "order_counters",
        codec: FieldCodec<OrderCounter>(write: { value, writer in writer.int(value.last) }, read: { reader in OrderCounter(last: try reader.int()) }))

    /// "Aqua Hub" → "AH", "Chateau Du Nox" → "CDN"; "SK" when the name has no letters.
    static func prefix(_ name: String) -> String {
        let initials = name.split(whereSeparator: { !$0.isLetter }).compactMap { $0.first?.uppercased() }.joined()
        return initials.isEmpty ? "SK" : String(initials.prefix(4))
    }
}

extension OrderTable {
    static var all: [AnyTable] { [table.erased, OrderCounterTable.table.erased] }
}
