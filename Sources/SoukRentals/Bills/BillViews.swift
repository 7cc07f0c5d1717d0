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

    static func ownership<Request>(_ billID: @escaping @Sendable (Request) -> String, field: String = "bill_id", store: Store) -> Ownership<Request> {
        Ownership { request, call, caller, roles in
            let id = try RequestFields.id(billID(request), field: field)
            let (marketplaceID, _) = try call.requireMarketplace()
            let bill = try store.require(BillTable.table, id, in: marketplaceID, "bill").value.subject
            return owns(lessee: bill.lesseeAccountID, lessor: bill.lessorAccountID, caller, roles: roles)
        }
    }

    /// Lessees list their own bills, lessors theirs, either party a booking's; the rest is for admins.
    static func listOwnership(store: Store) -> Ownership<SoukV1.ListBillsRequest> {
        Ownership { request, call, caller, roles in
            let me = caller.accountID.description
            if !request.bookingID.isEmpty {
                let (marketplaceID, _) = try call.requireMarketplace()
                let id = try RequestFields.id(request.bookingID, field: "booking_id")
                let booking = try store.require(BookingTable.table, id, in: marketplaceID, "booking").value.subject
                return owns(lessee: booking.lesseeAccountID, lessor: booking.lessorAccountID, caller, roles: roles)
            }
            if !request.lessorAccountID.isEmpty { return roles.contains(.provider) && request.lessorAccountID == me }
            return roles.contains(.customer) && (request.lesseeAccountID.isEmpty || request.lesseeAccountID == me)
        }
    }

    /// The bill as `call`'s caller sees it, with what the caller may do now.
    static func view(_ record: StoredRecord<BillRecord>, _ call: SoukCall) -> SoukV1.Bill {
        var bill = record.bill
        bill.availableTransitions = RentalLifecycles.bill.available(on: bill, for: call, parties: [
            .customer: .account(bill.lesseeAccountID), .provider: .account(bill.lessorAccountID),
        ])
        return bill
    }

    static func get(_ id: String, _ call: SoukCall, store: Store) throws -> SoukV1.Bill {
        let (marketplaceID, _) = try call.requireMarketplace()
        let recordID = try RequestFields.id(id, field: "bill_id")
        return view(try store.require(BillTable.table, recordID, in: marketplaceID, "bill"), call)
    }

    /// Latest due date first: the lessee's (the caller's when nobody is named), the lessor's or
    /// the booking's, of one status (UNSPECIFIED: any).
    static func list(_ request: SoukV1.ListBillsRequest, _ call: SoukCall, store: Store) throws -> SoukV1.ListBillsResponse {
        let page = try PartyPages.page(
            BillTable.table,
            owners: [
                .init(field: "lessee_account_id", id: request.lesseeAccountID, index: BillTable.byLessee),
                .init(field: "lessor_account_id", id: request.lessorAccountID, index: BillTable.byLessor),
                .init(field: "booking_id", id: request.bookingID, index: BillTable.byBooking),
            ],
            status: .enumCase(request.status), statusName: request.status.protoName, size: request.pageSize, token: request.pageToken,
            call: call, store: store)
        return SoukV1.ListBillsResponse(bills: page.items.map { view($0, call) }, nextPageToken: page.nextPageToken)
    }
}
