import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

extension OrdersService {
    /// The ownership rule of `ListOrders`: a caller who is not an admin lists only their own
    /// orders — as customer (no filter or their own id), as courier (their own id), or as seller
    /// (`as_seller`, or the id of their own restaurant).
    static func listOwnership(store: Store, verticals: OrderVerticals) -> Ownership<SoukV1.ListOrdersRequest> {
        Ownership { request, call, caller, roles in
            let me = caller.accountID.description
            if request.asSeller { return roles.contains(.provider) }
            if !request.courierAccountID.isEmpty { return roles.contains(.courier) && request.courierAccountID == me }
            if !request.restaurantID.isEmpty {
                // A malformed id is named by the handler's field checks, with the request's others.
                guard RecordID(request.restaurantID) != nil else { return true }
                guard let vertical = verticals.vertical(call.marketplace?.vertical) else {
                    throw RPCError.notFound("restaurant", request.restaurantID)
                }
                return try vertical.ownsSeller(request.restaurantID, call: call, caller: caller, roles: roles, store: store)
            }
            guard request.serviceID.isEmpty else { return false }
            return roles.contains(.customer) && (request.customerAccountID.isEmpty || request.customerAccountID == me)
        }
    }

    /// The order as `call`'s caller sees it, with the moves of the marketplace's order lifecycle.
    func view(_ record: StoredRecord<OrderRecord>, _ call: SoukCall) throws -> SoukV1.Order {
        try OrderParties.view(record, call, lifecycle: commerce.verticals.vertical(call.marketplace?.vertical)?.lifecycle, store: store)
    }

    func getOrder(_ request: SoukV1.GetOrderRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(request.orderID, field: "order_id")
        return try view(try store.require(OrderTable.table, id, in: marketplaceID, "order"), call)
    }

    /// One index range per filter (OrderTable); statuses are checked on the records of the range,
    /// so a page may hold fewer orders than asked, with a next_page_token.
    func listOrders(_ request: SoukV1.ListOrdersRequest, _ call: SoukCall) async throws -> SoukV1.ListOrdersResponse {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let caller = try call.requireCaller()
        let market = KeyPart.string(marketplaceID.description)
        let ownerFilters = [
            ("customer_account_id", request.customerAccountID), ("restaurant_id", request.restaurantID),
            ("courier_account_id", request.courierAccountID), ("service_id", request.serviceID),
        ].filter { !$0.1.isEmpty }
        var checks = FieldChecks()
        checks.require(
            ownerFilters.count <= 1, "customer_account_id", "set at most one of customer_account_id, restaurant_id, courier_account_id, service_id")
        checks.require(
            !request.asSeller || ownerFilters.isEmpty, "as_seller",
            "cannot be combined with customer_account_id, restaurant_id, courier_account_id or service_id")
        for (field, value) in ownerFilters { try checks.check { _ = try RequestFields.id(value, field: field) } }
        let delivered = request.deliveredAfter != nil || request.deliveredBefore != nil
        let isAdmin = caller.isOperator || caller.activeRoles.contains(.admin)
        // With no owner filter, a caller who is not listing as seller or admin lists their own orders.
        let customer = request.customerAccountID.isEmpty && ownerFilters.isEmpty && !request.asSeller && !isAdmin
            ? caller.accountID.description : request.customerAccountID
        checks.require(
            !delivered || !customer.isEmpty, "delivered_after",
            "filters one customer's history: the caller's own, or an admin's customer_account_id, alone")
        if let after = request.deliveredAfter, let before = request.deliveredBefore {
            checks.require(StoreTime(after) < StoreTime(before), "delivered_before", "must be after delivered_after")
        }
        let statuses = Set(request.statuses)
        let index: Index<OrderRecord>
        var range: IndexRange
        if !customer.isEmpty, delivered {
            index = OrderTable.byCustomerDelivered
            let after = request.deliveredAfter.map { [KeyPart.time(StoreTime($0))] }
            let before = request.deliveredBefore.map { [KeyPart.time(StoreTime($0))] }
            range = .prefix([market, .string(customer)], from: after, before: before)
        } else if !customer.isEmpty {
            (index, range) = (OrderTable.byCustomer, .starting(with: [market, .string(customer)]))
        } else if !request.courierAccountID.isEmpty {
            (index, range) = (OrderTable.byCourier, .starting(with: [market, .string(request.courierAccountID)]))
        } else if !request.serviceID.isEmpty {
            (index, range) = (OrderTable.byService, .starting(with: [market, .string(request.serviceID)]))
        } else if !request.restaurantID.isEmpty, statuses.count == 1, let status = statuses.first {
            (index, range) = (OrderTable.byRestaurantStatus, .starting(with: [market, .string(request.restaurantID), .enumCase(status)]))
        } else if !request.restaurantID.isEmpty {
            (index, range) = (OrderTable.byRestaurant, .starting(with: [market, .string(request.restaurantID)]))
        } else if request.asSeller, marketplace.vertical == .foodDelivery {
            (index, range) = (OrderTable.bySeller, .starting(with: [market, .string(caller.accountID.description)]))
        } else if statuses.count == 1, let status = statuses.first {
            (index, range) = (OrderTable.byStatus, .starting(with: [market, .enumCase(status)]))
        } else if !statuses.isEmpty, statuses.allSatisfy(OrderParties.isActive) {
            (index, range) = (OrderTable.byActive, .starting(with: [market]))
        } else {
            (index, range) = (OrderTable.byMarketplace, .starting(with: [market]))
        }
        let filters = [
            customer, request.restaurantID, request.courierAccountID, request.serviceID, "\(request.asSeller)",
            statuses.map(\.protoName).sorted().joined(separator: ","), "\(request.deliveredAfter?.description ?? "")",
            "\(request.deliveredBefore?.description ?? "")",
        ].joined(separator: "|")
        let checkedPage = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        let result = try store.list(OrderTable.table, index, range, direction: .descending, page: checkedPage!)
        var response = SoukV1.ListOrdersResponse()
        response.orders = try result.items.filter { statuses.isEmpty || statuses.contains($0.value.subject.status) }
            .map { try view($0, call) }
        response.nextPageToken = RequestFields.nextPageToken(result.nextPageToken, filters: filters)
        return response
    }

    /// The order's changes as `LifecycleWatch` sends them, until the order is final. Each event
    /// carries the order as that change left it, and the status it left.
    func watchOrder(_ request: SoukV1.WatchOrderRequest, _ writer: RPCWriter<SoukV1.OrderEvent>, _ call: SoukCall) async throws {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try LifecycleWatch.target(request.orderID, field: "order_id", resumeAfter: request.resumeAfterSequence)
        let store = store
        let lifecycle = commerce.verticals.vertical(call.marketplace?.vertical)?.lifecycle
        func current() throws -> StoredRecord<OrderRecord> { try store.require(OrderTable.table, id, in: marketplaceID, "order") }
        try await LifecycleWatch.run(
            lifecycleStream(.order, id), resumeAfter: request.resumeAfterSequence, store: store, writer: writer,
            current: { sequence in
                let order = try OrderParties.view(try current(), call, lifecycle: lifecycle, store: store)
                var event = SoukV1.OrderEvent()
                event.sequence = Int64(sequence)
                event.eventTime = order.updateTime
                event.order = order
                event.previousStatus = order.status
                return (event, !OrderParties.isActive(order.status))
            },
            change: { stored, change in
                let order = try OrderParties.view(
                    try change.record(of: OrderTable.table, id: id, orCurrent: current), call, lifecycle: lifecycle, store: store)
                let entry = change.entry
                var event = SoukV1.OrderEvent()
                event.sequence = Int64(stored.sequence)
                event.eventTime = Timestamp(stored.time)
                event.order = order
                event.previousStatus = entry.fromState.isEmpty ? order.status : SoukV1.OrderStatus(named: entry.fromState) ?? order.status
                event.actorAccountID = entry.actorAccountID
                return (event, !OrderParties.isActive(order.status))
            })
    }
}

extension SoukV1.OrderStatus {
    /// The status whose contract name is `name` (as the audit log records it); nil for another.
    package init?(named name: String) {
        guard let found = (0...32).lazy.map({ SoukV1.OrderStatus(rawValue: Int32($0)) }).first(where: { $0.protoName == name }) else {
            return nil
        }
        self = found
    }
}
