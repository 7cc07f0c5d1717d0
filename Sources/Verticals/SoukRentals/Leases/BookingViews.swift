import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Reading bookings: who owns one, one booking with its parties as summaries, pages of
/// bookings, and a booking's event stream.
enum BookingViews {
    /// The lessee owns a booking as customer, the lessor as provider.
    static func owns(_ booking: SoukStoreV1.Booking, _ caller: Caller, roles: Set<SoukV1.Role>) -> Bool {
        let me = caller.accountID.description
        return roles.contains(.customer) && booking.lesseeAccountID == me || roles.contains(.provider) && booking.lessorAccountID == me
    }

    static func ownership<Request>(_ bookingID: @escaping @Sendable (Request) -> String, store: Store) -> Ownership<Request> {
        Ownership { request, call, caller, roles in
            // A malformed id is named by the handler's field checks, with the request's others.
            guard let id = RecordID(bookingID(request)) else { return true }
            let (marketplaceID, _) = try call.requireMarketplace()
            return owns(try store.require(BookingTable.table, id, in: marketplaceID, "booking").value.subject, caller, roles: roles)
        }
    }

    /// Lessees list their own bookings, lessors theirs and their listings'; the rest is for admins.
    static func listOwnership(store: Store) -> Ownership<SoukV1.ListBookingsRequest> {
        Ownership { request, call, caller, roles in
            let me = caller.accountID.description
            switch request.party {
            case .listingID(let text)?:
                guard let id = RecordID(text) else { return true }  // the field checks name it
                let (marketplaceID, _) = try call.requireMarketplace()
                let listing = try store.require(ListingTable.table, id, in: marketplaceID, "listing").value.subject
                return roles.contains(.provider) && listing.ownerAccountID == me
            case .lessorAccountID(let id)?: return roles.contains(.provider) && id == me
            case .lesseeAccountID(let id)?: return roles.contains(.customer) && (id.isEmpty || id == me)
            case nil: return roles.contains(.customer)
            }
        }
    }

    /// The booking as `call`'s caller sees it: its parties as summaries, and what the caller may do now.
    static func view(_ record: StoredRecord<BookingRecord>, _ call: SoukCall, store: Store) throws -> SoukV1.Booking {
        let stored = record.value.subject
        var booking = BookingProjection.booking(record)
        booking.availableTransitions = RentalLifecycles.booking.available(on: stored, for: call, parties: [
            .customer: .account(stored.lesseeAccountID), .provider: .account(stored.lessorAccountID),
        ])
        booking.lessee = try RentalParties.summary(stored.lesseeAccountID, store: store)
        booking.lessor = try RentalParties.summary(stored.lessorAccountID, store: store)
        return booking
    }

    static func get(_ id: String, _ call: SoukCall, store: Store) throws -> SoukV1.Booking {
        let (marketplaceID, _) = try call.requireMarketplace()
        let recordID = try RequestFields.id(id, field: "booking_id")
        return try view(try store.require(BookingTable.table, recordID, in: marketplaceID, "booking"), call, store: store)
    }

    /// Newest first (oldest with `order_by`): the lessee's (the caller's when nobody is named),
    /// the lessor's or the listing's, of any of the statuses asked for (none: any).
    static func list(_ request: SoukV1.ListBookingsRequest, _ call: SoukCall, store: Store) throws -> SoukV1.ListBookingsResponse {
        let owner: PartyPages.Owner<BookingRecord>? =
            switch request.party {
            case .lesseeAccountID(let id)?: .init(field: "lessee_account_id", id: id, index: BookingTable.byLessee)
            case .lessorAccountID(let id)?: .init(field: "lessor_account_id", id: id, index: BookingTable.byLessor)
            case .listingID(let id)?: .init(field: "listing_id", id: id, index: BookingTable.byListing)
            case nil: nil
            }
        let page = try PartyPages.page(
            BookingTable.table, owner: owner, lessee: BookingTable.byLessee, statuses: request.statuses, status: { $0.subject.status },
            orderBy: request.orderBy, size: request.pageSize, token: request.pageToken, call: call, store: store)
        return SoukV1.ListBookingsResponse(bookings: try page.items.map { try view($0, call, store: store) }, nextPageToken: page.nextPageToken)
    }

    /// Whether nothing more happens to the booking: declined, cancelled, or ended with the
    /// deposit returned.
    static func isFinished(_ booking: SoukV1.Booking) -> Bool {
        booking.status == .declined || booking.status == .cancelled || booking.status == .ended && booking.depositReturn != nil
    }

    /// The booking's changes as `LifecycleWatch` sends them, each with the booking (and the bill
    /// it concerns) as that change left them, until the booking is finished.
    static func watch(_ request: SoukV1.WatchBookingRequest, _ writer: RPCWriter<SoukV1.BookingEvent>, _ call: SoukCall, store: Store) async throws {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try LifecycleWatch.target(request.bookingID, field: "booking_id", resumeAfter: request.resumeAfterSequence)
        func current() throws -> StoredRecord<BookingRecord> { try store.require(BookingTable.table, id, in: marketplaceID, "booking") }
        try await LifecycleWatch.run(
            lifecycleStream(.booking, id), resumeAfter: request.resumeAfterSequence, store: store, writer: writer,
            current: { sequence in
                let booking = try view(try current(), call, store: store)
                return (SoukV1.BookingEvent(sequence: Int64(sequence), eventTime: booking.updateTime, booking: booking), isFinished(booking))
            },
            change: { stored, change in
                let booking = try view(try change.record(of: BookingTable.table, id: id, orCurrent: current), call, store: store)
                let entry = change.entry
                var event = SoukV1.BookingEvent(
                    sequence: Int64(stored.sequence), eventTime: Timestamp(stored.time), booking: booking, actorAccountID: entry.actorAccountID)
                if let resource = entry.resource, resource.type == .bill {
                    if let related = change.related, let billID = RecordID(resource.id) {
                        event.bill = BillViews.view(try BillTable.table.record(id: billID, snapshot: related), call)
                    } else {
                        event.bill = try BillViews.get(resource.id, call, store: store)
                    }
                }
                return (event, isFinished(booking))
            })
    }
}
