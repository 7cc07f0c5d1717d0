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

    static func view(_ record: StoredRecord<BillRecord>, _ call: SoukCall, store: Store) throws -> SoukV1.Bill { record.bill }

    static func get(_ id: String, _ call: SoukCall, store: Store) throws -> SoukV1.Bill {
        let (marketplaceID, _) = try call.requireMarketplace()
        let recordID = try RequestFields.id(id, field: "bill_id")
        return try view(try store.require(BillTable.table, recordID, in: marketplaceID, "bill"), call, store: store)
    }

    /// Latest due date first, one index range: the lessee (the caller when nothing is named), the
    /// lessor or the booking, and the status (UNSPECIFIED: any).
    static func list(_ request: SoukV1.ListBillsRequest, _ call: SoukCall, store: Store) throws -> SoukV1.ListBillsResponse {
        let (marketplaceID, _) = try call.requireMarketplace()
        let caller = try call.requireCaller()
        guard [request.lesseeAccountID, request.lessorAccountID, request.bookingID].filter({ !$0.isEmpty }).count <= 1 else {
            throw RPCError.invalidField("lessee_account_id", "set at most one of lessee_account_id, lessor_account_id, booking_id")
        }
        let (index, owner, kind): (Index<BillRecord>, String, String) =
            !request.lessorAccountID.isEmpty ? (BillTable.byLessor, request.lessorAccountID, "lessor")
            : !request.bookingID.isEmpty ? (BillTable.byBooking, request.bookingID, "booking")
            : (BillTable.byLessee, request.lesseeAccountID.isEmpty ? caller.accountID.description : request.lesseeAccountID, "lessee")
        let filters = [kind, owner, request.status.protoName].joined(separator: "|")
        let page = try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters)
        let range = IndexRange.starting(with: [.string(marketplaceID.description), .string(owner), .enumCase(request.status)])
        let result = try store.list(BillTable.table, index, range, direction: .descending, page: page)
        var response = SoukV1.ListBillsResponse()
        response.bills = try result.items.map { try view($0, call, store: store) }
        response.nextPageToken = RequestFields.nextPageToken(result.nextPageToken, filters: filters)
        return response
    }
}
