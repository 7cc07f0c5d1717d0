import SoukIdentity
import SoukKit
import SoukMessages
import SoukReports
import SoukStore

/// What the payments ledger tells the dashboards' totals (`SoukReports`), in the transaction of
/// each payment's creation and move: the bucket of its method and status on the day it was
/// created moves with it; money received (a card or wallet charged, cash confirmed), cash
/// collected (a cash payment leaving PENDING for COLLECTED or SUCCESSFUL) and each refund count on
/// the day they happen, by method; the payer is active that day. Payouts (a deposit returned)
/// are money going out: they have a bucket but are never received.
enum PaymentReports {
    static func timeZone(_ marketplaceID: String, _ transaction: Transaction) throws -> String {
        guard let id = RecordID(marketplaceID) else { return "" }
        return try IdentityRecords.marketplace(id, transaction)?.timeZone ?? ""
    }

    /// The day the payment keeps (so its bucket moves on that day even after the marketplace's
    /// time zone changed); computed for payments stored before it was kept.
    static func madeDay(_ record: StoredRecord<PaymentRecord>, zone: String) -> Int64 {
        record.value.subject.reportDay != 0 ? record.value.subject.reportDay : ReportTotals.day(record.createdAt, timeZone: zone)
    }

    static func created(_ record: StoredRecord<PaymentRecord>, transaction: Transaction) throws {
        let market = record.value.marketplaceID
        let zone = try timeZone(market, transaction)
        let payment = record.value.subject
        let today = ReportTotals.day(transaction.now, timeZone: zone)
        try ReportTotals.add(.payments, day: madeDay(record, zone: zone), marketplaceID: market, transaction: transaction) {
            $0.addPayments(payment.method, payment.status, count: 1, amount: payment.amount.minor)
        }
        try moneyMoved(payment, from: .unspecified, refunded: 0, day: today, marketplaceID: market, transaction: transaction)
        try ReportTotals.active(payment.payerAccountID, as: .account, day: today, marketplaceID: market, transaction: transaction)
    }

    static func moved(from before: SoukStoreV1.Payment, _ record: StoredRecord<PaymentRecord>, transaction: Transaction) throws {
        let payment = record.value.subject
        let market = record.value.marketplaceID
        let zone = try timeZone(market, transaction)
        if before.status != payment.status {
            try ReportTotals.add(.payments, day: madeDay(record, zone: zone), marketplaceID: market, transaction: transaction) {
                $0.addPayments(payment.method, before.status, count: -1, amount: -payment.amount.minor)
                $0.addPayments(payment.method, payment.status, count: 1, amount: payment.amount.minor)
            }
        }
        try moneyMoved(
            payment, from: before.status, refunded: before.refundedAmount.minor, day: ReportTotals.day(transaction.now, timeZone: zone),
            marketplaceID: market, transaction: transaction)
    }

    /// The money a move from `before` (UNSPECIFIED: created) moved on `day`.
    static func moneyMoved(
        _ payment: SoukStoreV1.Payment, from before: SoukV1.PaymentStatus, refunded: Int64, day: Int64, marketplaceID: String,
        transaction: Transaction
    ) throws {
        let amount = payment.amount.minor
        let received = payment.method != .payout && payment.status == .successful && [.unspecified, .pending, .collected].contains(before)
        let collected = payment.method == .cash && before == .pending && [.collected, .successful].contains(payment.status)
        let refund = payment.refundedAmount.minor - refunded
        guard received || collected || refund > 0 else { return }
        try ReportTotals.add(.payments, day: day, marketplaceID: marketplaceID, transaction: transaction) {
            $0.addMoney(payment.method) { money in
                if received {
                    money.receivedCount += 1
                    money.received += amount
                }
                if collected {
                    money.collectedCount += 1
                    money.collected += amount
                }
                if refund > 0 {
                    money.refundCount += 1
                    money.refunded += refund
                }
            }
        }
    }

    /// The payments already stored when the totals are rebuilt: each in its creation day's
    /// bucket of its current status, received on the day it succeeded, cash collected on the
    /// day it was, each refund on its day.
    static let source = ReportSource("payments") { store in
        try await store.eachPage(PaymentTable.table, PaymentTable.byMarketplace) { records in
            try await store.write { transaction in
                for record in records { try replay(record, transaction: transaction) }
            }
        }
    }

    static func replay(_ record: StoredRecord<PaymentRecord>, transaction: Transaction) throws {
        let market = record.value.marketplaceID
        let zone = try timeZone(market, transaction)
        let payment = record.value.subject
        func day(_ time: Timestamp?) -> Int64 { ReportTotals.day(time.map(StoreTime.init) ?? record.createdAt, timeZone: zone) }
        let created = madeDay(record, zone: zone)
        try ReportTotals.add(.payments, day: created, marketplaceID: market, transaction: transaction) {
            $0.addPayments(payment.method, payment.status, count: 1, amount: payment.amount.minor)
        }
        try ReportTotals.active(payment.payerAccountID, as: .account, day: created, marketplaceID: market, transaction: transaction)
        var plain = payment
        plain.refundedAmount = SoukV1.Money(amountMinor: 0, currencyCode: payment.amount?.currencyCode ?? "")
        if payment.method == .cash, payment.collectTime != nil || payment.confirmTime != nil {
            plain.status = .collected
            try moneyMoved(plain, from: .pending, refunded: 0, day: day(payment.collectTime ?? payment.confirmTime), marketplaceID: market, transaction: transaction)
        }
        if [.successful, .partiallyRefunded, .refunded].contains(payment.status) {
            plain.status = .successful
            try moneyMoved(plain, from: .collected, refunded: 0, day: day(payment.succeedTime), marketplaceID: market, transaction: transaction)
        }
        var refunded: Int64 = 0
        for refund in payment.refunds {
            plain.refundedAmount = SoukV1.Money(amountMinor: refunded + refund.amount.minor, currencyCode: plain.refundedAmount?.currencyCode ?? "")
            try moneyMoved(plain, from: .successful, refunded: refunded, day: day(refund.createTime), marketplaceID: market, transaction: transaction)
            refunded += refund.amount.minor
        }
    }
}

extension StateMachine where Subject == SoukStoreV1.Payment, State == SoukV1.PaymentStatus, Name == PaymentMove {
    /// Stores a new payment and counts it in the dashboards' totals.
    @discardableResult
    func createPayment(_ value: PaymentRecord, id: RecordID? = nil, by actor: AuditActor, transaction: Transaction) throws -> StoredRecord<PaymentRecord> {
        var value = value
        value.subject.reportDay = ReportTotals.day(transaction.now, timeZone: try PaymentReports.timeZone(value.marketplaceID, transaction))
        let record = try create(value, in: PaymentTable.table, id: id, by: actor, transaction: transaction)
        try PaymentReports.created(record, transaction: transaction)
        return record
    }

    /// Fires `name` on payment `id`; the dashboards' totals move with it.
    @discardableResult
    func firePayment(
        _ name: PaymentMove, on id: RecordID, marketplaceID: String, by actor: AuditActor, expectedVersion: UInt64? = nil, reason: String = "",
        transaction: Transaction, change: (inout PaymentRecord) throws -> Void = { _ in }
    ) throws -> StoredRecord<PaymentRecord> {
        let before = try transaction.get(PaymentTable.table, id)?.value.subject
        let record = try fire(
            name, on: id, in: PaymentTable.table, marketplaceID: marketplaceID, by: actor, expectedVersion: expectedVersion, reason: reason,
            transaction: transaction, change: change)
        if let before { try PaymentReports.moved(from: before, record, transaction: transaction) }
        return record
    }
}
