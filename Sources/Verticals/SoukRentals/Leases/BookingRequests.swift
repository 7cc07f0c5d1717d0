import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// A lessee's side of a booking: the request of a published listing and its withdrawal.
struct BookingRequests {
    let store: Store

    func request(_ request: SoukV1.RequestBookingRequest, _ call: SoukCall) async throws -> SoukV1.Booking {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let lessee = try call.requireCaller().accountID.description
        let rules = RentalRules(marketplace)
        var checks = FieldChecks()
        let checkedRequestID = try checks.run { try RequestFields.requestID(request.requestID) }
        let checkedListingID = try checks.run { try RequestFields.id(request.listingID, field: "listing_id") }
        try checks.check { try Self.checkMonths(request.months, rules: rules) }
        let startDate = CivilDate(request.startDate)
        checks.require(startDate != nil, "start_date", "must be a valid calendar date")
        try checks.finish()
        let (requestID, listingID, start) = (checkedRequestID!, checkedListingID!, startDate!)
        let clock = MarketplaceClock(timeZone: marketplace.timeZone)
        let actor = AuditActor(call, requestID: requestID)
        let market = marketplaceID.description
        let currency = marketplace.currencyCode
        let stored = try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: market, account: lessee, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Booking>()
        ) { transaction in
            guard start >= clock.date(of: transaction.now) else { throw RPCError.invalidField("start_date", "must be today or later") }
            let listing = try LeaseListings.require(listingID, marketplaceID: marketplaceID, transaction: transaction).value.subject
            guard listing.ownerAccountID != lessee else {
                throw RPCError.souk(.failedPrecondition, .selfAction, "listing \(listingID) is your own: you cannot rent it", field: "listing_id")
            }
            guard listing.status == .published else {
                throw RPCError.souk(.failedPrecondition, .listingLeased, "listing \(listingID) is already rented", field: "listing_id")
            }
            let open: [KeyPart] = [.string(market), .string(listingID.description), .string(lessee)]
            if let existing = try transaction.get(BookingTable.table, unique: BookingTable.openRequest, open) {
                throw RPCError.souk(
                    .failedPrecondition, .duplicate, "you already have an open booking \(existing.id) of listing \(listingID)", field: "listing_id")
            }
            let rent = listing.monthlyRent?.amountMinor ?? 0
            var booking = SoukStoreV1.Booking(
                listingID: listingID.description, listingTitle: listing.title, listingAddress: listing.address, lesseeAccountID: lessee,
                lessorAccountID: listing.ownerAccountID, status: .requested, startDate: LeaseDates.proto(start), months: request.months,
                endDate: LeaseDates.proto(LeaseDates.end(start: start, months: request.months)),
                monthlyRent: SoukV1.Money(amountMinor: rent, currencyCode: currency),
                deposit: SoukV1.Money(amountMinor: rent * Int64(listing.depositMonths), currencyCode: currency))
            booking.message = request.message
            let record = try RentalLifecycles.booking.create(
                BookingRecord(marketplaceID: market, booking), in: BookingTable.table, by: actor, transaction: transaction)
            try BookingChanges.notify(
                [listing.ownerAccountID], bookingID: record.id.description, .bookingRequested(listing: listing.title, months: request.months),
                marketplaceID: market, transaction: transaction)
            return record.stamped(SoukV1.Booking())
        }.value
        // A retry gets the booking as it is now.
        return try BookingViews.get(stored.id, call, store: store)
    }

    /// A lease lasts at least the marketplace's minimum (LEASE_TOO_SHORT) and at most 120 months.
    static func checkMonths(_ months: Int32, rules: RentalRules) throws {
        if months < rules.minLeaseMonths {
            throw RPCError.invalidField(
                "months", "must be at least \(rules.minLeaseMonths): leases are long-term", reason: .leaseTooShort)
        }
        if months > RentalRules.maxLeaseMonths {
            throw RPCError.invalidField("months", "must be at most \(RentalRules.maxLeaseMonths)")
        }
    }

    /// The lessee (or an admin) withdraws a REQUESTED or CONFIRMED booking: a deposit bill is
    /// voided and a confirmed booking's listing is free again.
    func cancel(_ request: SoukV1.CancelBookingRequest, _ call: SoukCall) async throws -> SoukV1.Booking {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected) = try FieldChecks.target(request.bookingID, field: "booking_id", expectedVersion: request.expectedVersion) { checks in
            checks.require(request.reason.count <= 2000, "reason", "must be at most 2000 characters")
        }
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            try RentalLifecycles.booking.fire(
                .cancel, on: id, in: BookingTable.table, marketplaceID: marketplaceID.description, by: actor, expectedVersion: expected,
                reason: request.reason, transaction: transaction
            ) { $0.subject.reason = request.reason }
        }
        return try BookingViews.view(record, call, store: store)
    }
}
