import SoukIdentity
import SoukKit
import SoukMessages
import SoukReports
import SoukStore

/// What the shared orders tell the dashboards' totals (`SoukReports`), in the transaction of
/// each order's creation and of each of its moves (`StateMachine.create`/`fire` on orders, the
/// one place an order changes state): the placement day's counters by status move with the
/// order; a completion adds its money to the day it completed; a cancellation and a delivery
/// count on their day; the customer (on placing) and the courier (on delivering) are active.
///
/// Completed: food and water COMPLETED; retail DELIVERED (RECEIVED follows it and does not
/// count again).
package enum OrderReports {
    static func timeZone(_ marketplaceID: String, _ transaction: Transaction) throws -> String {
        guard let id = RecordID(marketplaceID) else { return "" }
        return try IdentityRecords.marketplace(id, transaction)?.timeZone ?? ""
    }

    /// Whether moving from `before` to `after` completes the order.
    static func completes(_ order: SoukStoreV1.Order, from before: SoukV1.OrderStatus) -> Bool {
        let after = order.status
        if after == .completed { return before != .completed }
        guard order.restaurantID.isEmpty else { return false }
        let received: Set<SoukV1.OrderStatus> = [.delivered, .received]
        return received.contains(after) && !received.contains(before)
    }

    /// Whether it completes the courier's delivery: food DELIVERED, a water order COMPLETED by its staff.
    static func delivers(_ order: SoukStoreV1.Order, from before: SoukV1.OrderStatus) -> Bool {
        guard !order.courierAccountID.isEmpty, before != order.status else { return false }
        return order.restaurantID.isEmpty ? order.status == .completed : order.status == .delivered
    }

    /// The placement day the order keeps (so its counters move on that day even after the
    /// marketplace's time zone changed); computed for orders stored before it was kept.
    static func placementDay(_ record: StoredRecord<OrderRecord>, zone: String) -> Int64 {
        record.value.subject.reportDay != 0 ? record.value.subject.reportDay : ReportTotals.day(record.createdAt, timeZone: zone)
    }

    /// Stamps a new order with its placement day, before it is stored.
    static func stamp(_ value: inout OrderRecord, transaction: Transaction) throws {
        value.subject.reportDay = ReportTotals.day(transaction.now, timeZone: try timeZone(value.marketplaceID, transaction))
    }

    static func placed(_ record: StoredRecord<OrderRecord>, transaction: Transaction) throws {
        let market = record.value.marketplaceID
        let zone = try timeZone(market, transaction)
        let order = record.value.subject
        try ReportTotals.add(.orders, day: placementDay(record, zone: zone), marketplaceID: market, transaction: transaction) {
            $0.ordersPlaced += 1
            $0.addOrders(in: order.status, 1)
        }
        try ReportTotals.active(
            order.customerAccountID, as: .customer, day: ReportTotals.day(transaction.now, timeZone: zone), marketplaceID: market,
            transaction: transaction)
    }

    static func moved(from before: SoukV1.OrderStatus, _ record: StoredRecord<OrderRecord>, transaction: Transaction) throws {
        let order = record.value.subject
        guard before != order.status else { return }
        let market = record.value.marketplaceID
        let zone = try timeZone(market, transaction)
        try ReportTotals.add(.orders, day: placementDay(record, zone: zone), marketplaceID: market, transaction: transaction) {
            $0.addOrders(in: before, -1)
            $0.addOrders(in: order.status, 1)
        }
        try counted(order, from: before, day: ReportTotals.day(transaction.now, timeZone: zone), marketplaceID: market, transaction: transaction)
    }

    /// The completion, cancellation or delivery of the move, on `day`.
    static func counted(_ order: SoukStoreV1.Order, from before: SoukV1.OrderStatus, day: Int64, marketplaceID: String, transaction: Transaction) throws {
        if completes(order, from: before) {
            try ReportTotals.add(.orders, day: day, marketplaceID: marketplaceID, transaction: transaction) {
                $0.ordersCompleted += 1
                $0.revenue += order.price?.subtotal?.amountMinor ?? 0
                $0.tax += order.price?.tax?.amountMinor ?? 0
                $0.fees += order.price?.feesTotal?.amountMinor ?? 0
                $0.commission += order.commission?.amountMinor ?? 0
            }
        }
        if order.status == .cancelled {
            try ReportTotals.add(.orders, day: day, marketplaceID: marketplaceID, transaction: transaction) { $0.ordersCancelled += 1 }
        }
        if delivers(order, from: before) {
            try ReportTotals.add(.orders, day: day, marketplaceID: marketplaceID, transaction: transaction) { $0.deliveriesCompleted += 1 }
            try ReportTotals.active(order.courierAccountID, as: .courier, day: day, marketplaceID: marketplaceID, transaction: transaction)
        }
    }

    /// The orders already stored when the totals are rebuilt: each counted on its placement day
    /// in its current status, and its completion, cancellation and delivery on the days its
    /// times say.
    static let source = ReportSource("orders") { store in
        try await store.eachPage(OrderTable.table, OrderTable.byMarketplace) { records in
            try await store.write { transaction in
                for record in records { try replay(record, transaction: transaction) }
            }
        }
    }

    static func replay(_ record: StoredRecord<OrderRecord>, transaction: Transaction) throws {
        let market = record.value.marketplaceID
        let zone = try timeZone(market, transaction)
        let order = record.value.subject
        let placedDay = placementDay(record, zone: zone)
        try ReportTotals.add(.orders, day: placedDay, marketplaceID: market, transaction: transaction) {
            $0.ordersPlaced += 1
            $0.addOrders(in: order.status, 1)
        }
        try ReportTotals.active(order.customerAccountID, as: .customer, day: placedDay, marketplaceID: market, transaction: transaction)
        func day(_ time: Timestamp?) -> Int64 { ReportTotals.day(time.map(StoreTime.init) ?? record.updatedAt, timeZone: zone) }
        let food = !order.restaurantID.isEmpty
        switch order.status {
        case .completed:
            if food, !order.courierAccountID.isEmpty {
                var delivered = order
                delivered.status = .delivered
                try counted(delivered, from: .outForDelivery, day: day(order.deliverTime), marketplaceID: market, transaction: transaction)
            }
            try counted(order, from: .delivered, day: day(order.completeTime), marketplaceID: market, transaction: transaction)
        case .delivered, .received:
            try counted(order, from: food ? .outForDelivery : .shipped, day: day(order.deliverTime), marketplaceID: market, transaction: transaction)
        case .cancelled:
            try counted(order, from: .placed, day: day(order.cancelTime), marketplaceID: market, transaction: transaction)
        default: break
        }
    }
}
