import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// An order as stored.
public typealias OrderRecord = MarketRecord<SoukV1.Order>

/// Orders of every vertical, with the index of each list `Orders.ListOrders` serves. Entries end
/// with the order's id (a version 7 UUID), so each list is in placement order; newest first is a
/// descending scan.
public enum OrderTable {
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
    /// Water services: the service ordered (the order's one line).
    static let byService = Index<OrderRecord>.nonUnique("orders.service") { record in
        guard let line = record.subject.lines.first, line.itemType == .service else { return nil }
        return [.string(record.marketplaceID), .string(line.itemID)]
    }
    /// The order number people quote, unique in the marketplace.
    static let byNumber = Index<OrderRecord>.unique("orders.number") {
        [.string($0.marketplaceID), .string($0.subject.orderNumber)]
    }

    public static let table = marketTable(
        "orders", SoukV1.Order.self,
        indexes: [byMarketplace, byCustomer, byCustomerDelivered, byStatus, byCourier, byRestaurantStatus, byRestaurant, byService, byNumber])
}

/// The last order number given in a marketplace, stored under the marketplace's id.
struct OrderCounter: Sendable {
    var last: Int64
}

enum OrderCounterTable {
    static let table = Table(
        "order_counters",
        codec: FieldCodec<OrderCounter>(write: { value, writer in writer.int(value.last) }, read: { reader in OrderCounter(last: try reader.int()) }))

    /// The next order number of `marketplace`: its prefix (the initials of its name, "AH" for
    /// Aqua Hub) and a counter from 10001. Two placements at once serialize on the counter.
    static func next(in transaction: Transaction, marketplaceID: RecordID, marketplace: SoukV1.Marketplace) throws -> String {
        let stored = try transaction.get(table, marketplaceID)
        let last = stored?.value.last ?? 10000
        if stored == nil {
            try transaction.insert(table, OrderCounter(last: last + 1), id: marketplaceID)
        } else {
            try transaction.update(table, marketplaceID) { $0.last = last + 1 }
        }
        return "\(prefix(marketplace.displayName))-\(last + 1)"
    }

    /// "Aqua Hub" → "AH", "Chateau Du Nox" → "CDN"; "SK" when the name has no letters.
    static func prefix(_ name: String) -> String {
        let initials = name.split(whereSeparator: { !$0.isLetter }).compactMap { $0.first?.uppercased() }.joined()
        return initials.isEmpty ? "SK" : String(initials.prefix(4))
    }
}

extension OrderTable {
    static var all: [AnyTable] { [table.erased, OrderCounterTable.table.erased] }
}
