import SoukKit
import SoukMessages
import SoukStore

/// The API the owners of orders, laundry jobs, payments, bills, leases and accounts call inside
/// the transactions that change them, so the dashboards' totals move in the same commit as what
/// they count. The reports module never reads the owners' tables: each owner says what changed.
public enum ReportTotals {
    /// The kinds of totals (one record per marketplace, kind and day).
    public enum Kind: String, Sendable, CaseIterable {
        /// Orders and laundry jobs, deliveries, active customers and couriers.
        case orders
        /// New and active accounts.
        case accounts
        /// Payments, money received, refunded and collected by method.
        case payments
        /// Rental money paid, deposits returned, leases started and ended.
        case rentals
        /// Day 0 only: bills due and leases active now.
        case rentalsNow = "rentals_now"
    }

    /// Who an account was active as, counted once per account and day.
    public enum Role: String, Sendable {
        /// Any activity (placed an order or a job, paid, signed in): `active_accounts`.
        case account
        /// Placed an order or a job: `active_customers`.
        case customer
        /// Completed a delivery: `active_couriers`.
        case courier
    }

    /// The day of `time` in the time zone `timeZone` (an IANA name; UTC when empty), as days
    /// since 1970-01-01.
    public static func day(_ time: StoreTime, timeZone: String) -> Int64 {
        Int64(MarketplaceClock(timeZone: timeZone).date(of: time).daysSinceEpoch)
    }

    /// Applies `change` to the `kind` totals of `marketplaceID` on `day` (created at zero when
    /// missing), in one of the day's shards: totals only add up, so any shard will do. The shard
    /// is the transaction's slot's, so concurrent transactions of one node change different
    /// shards and never wait for (RocksDB) or invalidate (etcd) one another; a quiet
    /// marketplace uses few of them. The
    /// unique read locks the key, present or not, so concurrent first changes of a shard
    /// serialize there and every change is added exactly once.
    public static func add(
        _ kind: Kind, day: Int64, marketplaceID: String, transaction: Transaction, _ change: (inout SoukStoreV1.ReportDay) -> Void
    ) throws {
        guard !marketplaceID.isEmpty else { return }
        let shard = Int32(transaction.slot % Int(ReportTables.shards))
        let key: [KeyPart] = [.string(marketplaceID), .string(kind.rawValue), .int(day), .int(Int64(shard))]
        if let current = try transaction.get(ReportTables.days, unique: ReportTables.byDay, key) {
            try transaction.update(ReportTables.days, current.id) { change(&$0.subject) }
        } else {
            var totals = SoukStoreV1.ReportDay()
            totals.kind = kind.rawValue
            totals.day = day
            totals.shard = shard
            change(&totals)
            try transaction.insert(ReportTables.days, ReportDayRecord(marketplaceID: marketplaceID, totals))
        }
    }

    /// Counts `accountID` active as `role` on `day` unless it already was: the first time, the
    /// day's counter of the role goes up by one (and, for customers and couriers, the account
    /// is active too). Returns whether it was counted now.
    @discardableResult
    public static func active(_ accountID: String, as role: Role, day: Int64, marketplaceID: String, transaction: Transaction) throws -> Bool {
        guard !accountID.isEmpty, !marketplaceID.isEmpty else { return false }
        if role != .account { try active(accountID, as: .account, day: day, marketplaceID: marketplaceID, transaction: transaction) }
        let key: [KeyPart] = [.string(marketplaceID), .string(role.rawValue), .int(day), .string(accountID)]
        guard try transaction.get(ReportTables.seen, unique: ReportTables.seenKey, key) == nil else { return false }
        try transaction.insert(
            ReportTables.seen, ReportSeenRecord(marketplaceID: marketplaceID, SoukStoreV1.ReportSeen(accountID: accountID, role: role.rawValue, day: day)))
        switch role {
        case .account: try add(.accounts, day: day, marketplaceID: marketplaceID, transaction: transaction) { $0.activeAccounts += 1 }
        case .customer: try add(.orders, day: day, marketplaceID: marketplaceID, transaction: transaction) { $0.activeCustomers += 1 }
        case .courier: try add(.orders, day: day, marketplaceID: marketplaceID, transaction: transaction) { $0.activeCouriers += 1 }
        }
        return true
    }

    /// An account was created on `day`.
    public static func accountCreated(_ accountID: String, day: Int64, marketplaceID: String, transaction: Transaction) throws {
        try add(.accounts, day: day, marketplaceID: marketplaceID, transaction: transaction) { $0.newAccounts += 1 }
    }
}

extension SoukStoreV1.ReportDay {
    /// Adds `delta` to the count of orders in `status`.
    public mutating func addOrders(in status: SoukV1.OrderStatus, _ delta: Int64) {
        guard status != .unspecified, delta != 0 else { return }
        if let index = ordersByStatus.firstIndex(where: { $0.status == status }) {
            ordersByStatus[index].count += delta
        } else {
            ordersByStatus.append(SoukStoreV1.ReportStatusCount(status: status, count: delta))
        }
    }

    /// Adds `count` payments of `amount` to the bucket of `method` and `status`.
    public mutating func addPayments(_ method: SoukV1.PaymentMethod, _ status: SoukV1.PaymentStatus, count: Int64, amount: Int64) {
        if let index = payments.firstIndex(where: { $0.method == method && $0.status == status }) {
            payments[index].count += count
            payments[index].amount += amount
        } else {
            payments.append(SoukStoreV1.ReportPaymentBucket(method: method, status: status, count: count, amount: amount))
        }
    }

    /// Changes the money of `method` moved this day.
    public mutating func addMoney(_ method: SoukV1.PaymentMethod, _ change: (inout SoukStoreV1.ReportMethodMoney) -> Void) {
        if let index = methods.firstIndex(where: { $0.method == method }) {
            change(&methods[index])
        } else {
            var money = SoukStoreV1.ReportMethodMoney()
            money.method = method
            change(&money)
            methods.append(money)
        }
    }
}

extension SoukStoreV1.ReportDay {
    /// Adds every counter of `other` (another shard of the same kind and day) to these.
    public mutating func add(_ other: SoukStoreV1.ReportDay) {
        for count in other.ordersByStatus { addOrders(in: count.status, count.count) }
        ordersPlaced += other.ordersPlaced
        ordersCompleted += other.ordersCompleted
        ordersCancelled += other.ordersCancelled
        revenue += other.revenue
        tax += other.tax
        fees += other.fees
        commission += other.commission
        deliveriesCompleted += other.deliveriesCompleted
        activeCustomers += other.activeCustomers
        activeCouriers += other.activeCouriers
        newAccounts += other.newAccounts
        activeAccounts += other.activeAccounts
        for bucket in other.payments { addPayments(bucket.method, bucket.status, count: bucket.count, amount: bucket.amount) }
        for money in other.methods {
            addMoney(money.method) {
                $0.receivedCount += money.receivedCount
                $0.received += money.received
                $0.refundCount += money.refundCount
                $0.refunded += money.refunded
                $0.collectedCount += money.collectedCount
                $0.collected += money.collected
            }
        }
        gross += other.gross
        depositsPaid += other.depositsPaid
        monthlyBillsPaid += other.monthlyBillsPaid
        providerFees += other.providerFees
        platformFees += other.platformFees
        lessorShares += other.lessorShares
        depositsReturned += other.depositsReturned
        leasesStarted += other.leasesStarted
        leasesEnded += other.leasesEnded
        billsDue += other.billsDue
        amountDue += other.amountDue
        activeLeases += other.activeLeases
    }
}
