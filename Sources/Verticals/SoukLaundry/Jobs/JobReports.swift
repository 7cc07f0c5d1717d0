import SoukIdentity
import SoukKit
import SoukMessages
import SoukReports
import SoukStore

/// What laundry tells the dashboards' totals (`SoukReports`): a job counts as an order (the
/// overview's decision for Drip 'n Dash). Placed when submitted (its customer active that day),
/// completed when dropped off (stage 9: its final price's subtotal is revenue, its fees are
/// fees, the Dasher's delivery is completed and the Dasher active that day), cancelled when
/// cancelled. Job stages are not order statuses: no counts by status.
enum JobReports {
    static func timeZone(_ marketplaceID: String, _ transaction: Transaction) throws -> String {
        guard let id = RecordID(marketplaceID) else { return "" }
        return try IdentityRecords.marketplace(id, transaction)?.timeZone ?? ""
    }

    static func submitted(_ record: StoredRecord<JobRecord>, transaction: Transaction) throws {
        let market = record.value.marketplaceID
        let zone = try timeZone(market, transaction)
        let day = ReportTotals.day(record.createdAt, timeZone: zone)
        try ReportTotals.add(.orders, day: day, marketplaceID: market, transaction: transaction) { $0.ordersPlaced += 1 }
        try ReportTotals.active(record.value.subject.customerAccountID, as: .customer, day: day, marketplaceID: market, transaction: transaction)
    }

    static func droppedOff(_ job: SoukStoreV1.Job, day: Int64, marketplaceID: String, transaction: Transaction) throws {
        let price = job.finalPrice ?? job.estimate
        try ReportTotals.add(.orders, day: day, marketplaceID: marketplaceID, transaction: transaction) {
            $0.ordersCompleted += 1
            $0.revenue += price?.subtotal?.amountMinor ?? 0
            $0.tax += price?.tax?.amountMinor ?? 0
            $0.fees += price?.feesTotal?.amountMinor ?? 0
            if !job.dasherAccountID.isEmpty { $0.deliveriesCompleted += 1 }
        }
        try ReportTotals.active(job.dasherAccountID, as: .courier, day: day, marketplaceID: marketplaceID, transaction: transaction)
    }

    static let completed = TransitionEffect<SoukStoreV1.Job>("add to the dashboards' totals") { move, transaction in
        guard move.after.stage == .droppedOffLaundry else { return }
        let day = ReportTotals.day(transaction.now, timeZone: try timeZone(move.marketplaceID, transaction))
        try droppedOff(move.after, day: day, marketplaceID: move.marketplaceID, transaction: transaction)
    }

    static let cancelled = TransitionEffect<SoukStoreV1.Job>("add to the dashboards' totals") { move, transaction in
        let day = ReportTotals.day(transaction.now, timeZone: try timeZone(move.marketplaceID, transaction))
        try ReportTotals.add(.orders, day: day, marketplaceID: move.marketplaceID, transaction: transaction) { $0.ordersCancelled += 1 }
    }

    /// The jobs already stored when the totals are rebuilt.
    static let source = ReportSource("laundry jobs") { store in
        try await store.eachPage(JobTable.table, JobTable.byCustomer) { records in
            try await store.write { transaction in
                for record in records {
                    try submitted(record, transaction: transaction)
                    let job = record.value.subject
                    let market = record.value.marketplaceID
                    let zone = try timeZone(market, transaction)
                    func day(_ time: Timestamp?) -> Int64 { ReportTotals.day(time.map(StoreTime.init) ?? record.updatedAt, timeZone: zone) }
                    if job.state == .cancelled {
                        try ReportTotals.add(.orders, day: day(job.cancelTime), marketplaceID: market, transaction: transaction) { $0.ordersCancelled += 1 }
                    } else if job.stage == .droppedOffLaundry {
                        try droppedOff(job, day: day(job.completeTime), marketplaceID: market, transaction: transaction)
                    }
                }
            }
        }
    }
}
