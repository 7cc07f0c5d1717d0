import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukPayments
import SoukStore

/// The end of a lease: the lessor (or an admin) ends an ACTIVE lease once its monthly bills are
/// paid, which frees the listing; then the deposit goes back to the lessee, all or part, as a
/// payment from the platform to the lessee.
struct LeaseEnd {
    let store: Store
    let payables: PayableTargets

    func end(_ request: SoukV1.EndLeaseRequest, _ call: SoukCall) async throws -> SoukV1.Booking {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected) = try FieldChecks.target(request.bookingID, field: "booking_id", expectedVersion: request.expectedVersion) { checks in
            checks.require(request.reason.count <= 2000, "reason", "must be at most 2000 characters")
        }
        let actor = AuditActor(call)
        let market = marketplaceID.description
        let record = try await store.write { transaction in
            let due = IndexRange.starting(with: [.string(market), .string(id.description), .enumCase(SoukV1.BillStatus.due)])
            if let unpaid = try transaction.first(BillTable.table, BillTable.byBooking, due) {
                throw RPCError.souk(
                    .failedPrecondition, .openObligations, "booking \(id) still has bill \(unpaid.id) due: it must be paid first", field: "booking_id")
            }
            let booking = try RentalLifecycles.booking.fire(
                .end, on: id, in: BookingTable.table, marketplaceID: market, by: actor, expectedVersion: expected, reason: request.reason,
                transaction: transaction
            ) { record in
                record.subject.endTime = Timestamp(transaction.now)
                if !request.reason.isEmpty { record.subject.reason = request.reason }
            }
            return booking
        }
        return try BookingViews.view(record, call, store: store)
    }

    func returnDeposit(_ request: SoukV1.ReturnDepositRequest, _ call: SoukCall) async throws -> SoukV1.Booking {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let (id, expected) = try FieldChecks.target(request.bookingID, field: "booking_id", expectedVersion: request.expectedVersion) { checks in
            let currency = request.amount?.currencyCode ?? ""
            checks.require(currency.isEmpty || currency == marketplace.currencyCode, "amount.currency_code", "must be \(marketplace.currencyCode)")
        }
        let reason = request.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        let actor = AuditActor(call)
        let market = marketplaceID.description
        let payables = payables
        let record = try await store.write { transaction in
            let current = try transaction.require(BookingTable.table, id, in: marketplaceID, "booking")
            if let expected, expected != current.version {
                throw RPCError.staleVersion("booking", id.description, expected: expected, actual: current.version)
            }
            let booking = current.value.subject
            guard booking.status == .ended else {
                throw RPCError.souk(.failedPrecondition, .invalidTransition, "booking \(id) is \(booking.status.protoName): the lease must be ENDED first")
            }
            guard booking.depositReturn == nil else {
                throw RPCError.souk(.failedPrecondition, .duplicate, "the deposit of booking \(id) was already returned")
            }
            let paid = try DepositBills.paidAmount(booking.depositBillID, marketplaceID: marketplaceID, transaction: transaction)
            let amount = request.amount?.amountMinor ?? paid
            guard (0...paid).contains(amount) else {
                throw RPCError.invalidField("amount", "must be between 0 and the deposit paid, \(paid) \(marketplace.currencyCode)")
            }
            if amount < paid, reason.isEmpty {
                throw RPCError.invalidField("reason", "is required when keeping part of the deposit (\(paid - amount) \(marketplace.currencyCode) kept)")
            }
            let money = SoukV1.Money(amountMinor: amount, currencyCode: marketplace.currencyCode)
            guard let lessee = RecordID(booking.lesseeAccountID) else { throw RPCError.notFound("account", booking.lesseeAccountID) }
            // Keeping the whole deposit pays nothing out.
            let payment = amount == 0 ? nil : try payables.payOut(
                target: SoukV1.ResourceRef(type: .booking, id: id.description), to: lessee, amount: money,
                reason: reason.isEmpty ? "deposit returned" : reason, actor: actor, marketplaceID: marketplaceID, transaction: transaction)
            let updated = try transaction.update(BookingTable.table, id) { record in
                record.subject.depositReturn = SoukV1.DepositReturn(
                    amount: money, reason: reason, returnTime: Timestamp(transaction.now), paymentID: payment?.id ?? "")
            }
            try RentalLifecycles.booking.recordChange(updated, in: BookingTable.table, by: actor, reason: "deposit returned", transaction: transaction)
            try RentalReports.depositReturned(amount, marketplaceID: market, transaction: transaction)
            try BookingChanges.notify(
                [booking.lesseeAccountID], bookingID: id.description,
                .depositReturned(amount: amount, paid: paid, currency: marketplace.currencyCode, reason: reason),
                marketplaceID: market, transaction: transaction)
            return updated
        }
        return try BookingViews.view(record, call, store: store)
    }
}
