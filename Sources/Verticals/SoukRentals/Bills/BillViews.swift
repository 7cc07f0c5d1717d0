import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Reading bills: who owns one, one bill, and pages of bills.
enum BillViews {
    /// The lessee owns a bill as customer, the lessor as provider.
    static func owns(lessee: String, lessor: String, _ caller: Caller, roles: Set<SoukV1.Role>) -> Bool {
        let me = caller.accountID.description
        return roles.contains(.customer) && lessee == me || roles.contains(.provider) && lessor == me
    }

    static func ownership<Request>(_ billID: @escaping @Sendable (Request) -> String, store: Store) -> Ownership<Request> {
        Ownership { request, call, caller, roles in
            // A malformed id is named by the handler's field checks, with the request's others.
            guard let id = RecordID(billID(request)) else { return true }
            let (marketplaceID, _) = try call.requireMarketplace()
            let bill = try store.require(BillTable.table, id, in: marketplaceID, "bill").value.subject
            return owns(lessee: bill.lesseeAccountID, lessor: bill.lessorAccountID, caller, roles: roles)
        }
    }

    /// Lessees list their own bills, lessors theirs, either party a booking's; the rest is for admins.
    static func listOwnership(store: Store) -> Ownership<SoukV1.ListBillsRequest> {
        Ownership { request, call, caller, roles in
            let me = caller.accountID.description
            switch request.party {
            case .bookingID(let text)?:
                guard let id = RecordID(text) else { return true }  // the field checks name it
                let (marketplaceID, _) = try call.requireMarketplace()
                let booking = try store.require(BookingTable.table, id, in: marketplaceID, "booking").value.subject
                return owns(lessee: booking.lesseeAccountID, lessor: booking.lessorAccountID, caller, roles: roles)
            case .lessorAccountID(let id)?: return roles.contains(.provider) && id == me
            case .lesseeAccountID(let id)?: return roles.contains(.customer) && (id.isEmpty || id == me)
            case nil: return roles.contains(.customer)
            }
        }
    }

    /// The bill as `call`'s caller sees it, with what the caller may do now.
    static func view(_ record: StoredRecord<BillRecord>, _ call: SoukCall) -> SoukV1.Bill {
        let stored = record.value.subject
        var bill = BillProjection.bill(record)
        bill.availableTransitions = RentalLifecycles.bill.available(on: stored, for: call, parties: [
            .customer: .account(stored.lesseeAccountID), .provider: .account(stored.lessorAccountID),
        ])
        return bill
    }

    static func get(_ id: String, _ call: SoukCall, store: Store) throws -> SoukV1.Bill {
        let (marketplaceID, _) = try call.requireMarketplace()
        let recordID = try RequestFields.id(id, field: "bill_id")
        return view(try store.require(BillTable.table, recordID, in: marketplaceID, "bill"), call)
    }

    /// Latest due date first: the lessee's (the caller's when nobody is named), the lessor's or
    /// the booking's, of any of the statuses asked for (none: any).
    static func list(_ request: SoukV1.ListBillsRequest, _ call: SoukCall, store: Store) throws -> SoukV1.ListBillsResponse {
        let owner: PartyPages.Owner<BillRecord>? =
            switch request.party {
            case .lesseeAccountID(let id)?: .init(field: "lessee_account_id", id: id, index: BillTable.byLessee)
            case .lessorAccountID(let id)?: .init(field: "lessor_account_id", id: id, index: BillTable.byLessor)
            case .bookingID(let id)?: .init(field: "booking_id", id: id, index: BillTable.byBooking)
            case nil: nil
            }
        let page = try PartyPages.page(
            BillTable.table, owner: owner, lessee: BillTable.byLessee, statuses: request.statuses, status: { $0.subject.status },
            size: request.pageSize, token: request.pageToken, call: call, store: store)
        return SoukV1.ListBillsResponse(bills: page.items.map { view($0, call) }, nextPageToken: page.nextPageToken)
    }
}
