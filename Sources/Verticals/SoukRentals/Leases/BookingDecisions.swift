import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// The lessor's answer to a request. A confirmation locks the listing first, so confirmations of
/// one listing run one after the other: the first marks the listing rented, issues the deposit
/// bill and declines the listing's other requests; a later one finds the listing held
/// (LISTING_LEASED), and confirming the same booking again finds it CONFIRMED
/// (INVALID_TRANSITION). The unique lease index of `BookingTable` backs the rule in the store.
struct BookingDecisions {
    let store: Store

    /// The reason the server gives the requests it declines on a confirmation.
    static let supersededReason = "another request for this listing was confirmed"

    func confirm(_ request: SoukV1.ConfirmBookingRequest, _ call: SoukCall) async throws -> SoukV1.Booking {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let rules = RentalRules(marketplace)
        let clock = MarketplaceClock(timeZone: marketplace.timeZone)
        let named = request.depositDueDate.flatMap { CivilDate($0) }
        let (id, expected) = try FieldChecks.target(request.bookingID, field: "booking_id", expectedVersion: request.expectedVersion) { checks in
            checks.require(request.depositDueDate == nil || named != nil, "deposit_due_date", "must be a valid calendar date")
        }
        let actor = AuditActor(call)
        let market = marketplaceID.description
        let record = try await store.write { transaction in
            let today = clock.date(of: transaction.now)
            if let named, named < today { throw RPCError.invalidField("deposit_due_date", "must be today or later") }
            let current = try transaction.require(BookingTable.table, id, in: marketplaceID, "booking").value.subject
            let listing = try LeaseListings.lock(current.listingID, marketplaceID: marketplaceID, transaction: transaction)
            if current.status == .requested {
                if let holder = try transaction.get(BookingTable.table, unique: BookingTable.lease, [.string(market), .string(current.listingID)]),
                   holder.id != id {
                    throw RPCError.souk(
                        .failedPrecondition, .listingLeased, "listing \(current.listingID) is already leased by booking \(holder.id)",
                        field: "booking_id")
                }
            }
            let due = named ?? CivilDate(daysSinceEpoch: today.daysSinceEpoch + Int(rules.depositDueDays))
            let bill = try DepositBills.issue(for: current, bookingID: id, due: due, marketplaceID: market, actor: actor, transaction: transaction)
            let booking = try RentalLifecycles.booking.fire(
                "confirm", on: id, in: BookingTable.table, marketplaceID: market, by: actor, expectedVersion: expected, transaction: transaction
            ) { record in
                record.subject.depositBillID = bill.id.description
                record.subject.confirmTime = Timestamp(transaction.now)
            }
            try LeaseListings.rent(listing, booking: booking, actor: actor, transaction: transaction)
            try BookingChanges.billChanged(bill, actor: actor, reason: "deposit bill issued", transaction: transaction)
            try BookingChanges.notify(
                [current.lesseeAccountID], bookingID: id.description, title: "Booking confirmed",
                body: "Your lease of \(current.listingTitle) is confirmed. Pay the deposit by \(LeaseDates.text(due)) to start it.",
                marketplaceID: market, transaction: transaction)
            try Self.declineOpen(listingID: current.listingID, marketplaceID: market, reason: Self.supersededReason, transaction: transaction)
            return booking
        }
        return try BookingViews.view(record, call, store: store)
    }

    /// The reason the server gives the requests it declines when their listing is archived.
    static let archivedReason = "the listing was archived"

    /// The server declines every REQUESTED booking of the listing with `reason` (a confirmation
    /// of another, or the listing archived), telling each lessee.
    static func declineOpen(listingID: String, marketplaceID: String, reason: String, transaction: Transaction) throws {
        let actor = AuditActor.system("BookingDeclined")
        let range = IndexRange.starting(with: [.string(marketplaceID), .string(listingID), .enumCase(SoukV1.BookingStatus.requested)])
        // Each declined booking leaves the range, so the next read starts again from its head.
        while case let open = try transaction.list(BookingTable.table, BookingTable.byListing, range, limit: PageRequest.maximumSize), !open.isEmpty {
            for other in open {
                try RentalLifecycles.booking.fire(
                    "decline", on: other.id, in: BookingTable.table, marketplaceID: marketplaceID, by: actor, reason: reason,
                    transaction: transaction
                ) { $0.subject.reason = reason }
                try BookingChanges.notify(
                    [other.value.subject.lesseeAccountID], bookingID: other.id.description, title: "Booking declined",
                    body: "Your request for \(other.value.subject.listingTitle) was declined: \(reason).", marketplaceID: marketplaceID,
                    transaction: transaction)
            }
        }
    }

    func decline(_ request: SoukV1.DeclineBookingRequest, _ call: SoukCall) async throws -> SoukV1.Booking {
        let (marketplaceID, _) = try call.requireMarketplace()
        let reason = request.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        let (id, expected) = try FieldChecks.target(request.bookingID, field: "booking_id", expectedVersion: request.expectedVersion) { checks in
            checks.require(!reason.isEmpty, "reason", "is required: tell the lessee why")
        }
        let actor = AuditActor(call)
        let record = try await store.write { transaction in
            let booking = try RentalLifecycles.booking.fire(
                "decline", on: id, in: BookingTable.table, marketplaceID: marketplaceID.description, by: actor, expectedVersion: expected,
                reason: reason, transaction: transaction
            ) { $0.subject.reason = reason }
            try BookingChanges.notify(
                [booking.value.subject.lesseeAccountID], bookingID: id.description, title: "Booking declined",
                body: "The lessor declined your request for \(booking.value.subject.listingTitle): \(reason)",
                marketplaceID: marketplaceID.description, transaction: transaction)
            return booking
        }
        return try BookingViews.view(record, call, store: store)
    }
}
