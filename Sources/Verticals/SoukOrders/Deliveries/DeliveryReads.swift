import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukStore

/// Reading deliveries of every vertical: one, a list, and who may. Each vertical shows its own
/// deliveries (`OrderVertical.deliveryView`); the verticals' delivery RPCs take who may read or
/// move a delivery (`ownership`) and which statuses are open from here, so the rule is one.
package struct DeliveryReads {
    let commerce: Commerce
    var store: Store { commerce.store }

    /// The statuses of a delivery not yet ended.
    package static let open: Set<SoukV1.DeliveryStatus> = [.assigned, .inProgress, .delayed, .offered]

    /// The delivery as `call`'s caller sees it, shown by its vertical.
    func view(_ deliveryID: String, _ call: SoukCall) throws -> SoukV1.Delivery {
        guard let vertical = commerce.verticals.vertical(call.marketplace?.vertical) else {
            throw RPCError.notFound("delivery", deliveryID)
        }
        return try vertical.deliveryView(deliveryID, call: call, store: store)
    }

    func get(_ request: SoukV1.GetDeliveryRequest, _ call: SoukCall) async throws -> SoukV1.Delivery {
        var checks = FieldChecks()
        try checks.check { _ = try RequestFields.id(request.deliveryID, field: "delivery_id") }
        try checks.finish()
        return try view(request.deliveryID, call)
    }

    /// Ownership of a delivery: its courier, and its order's customer and seller. A request
    /// whose delivery_id is not an id passes on to the body, which names it with the request's
    /// other wrong fields.
    package static func ownership<Request>(_ deliveryID: @escaping @Sendable (Request) -> String, store: Store) -> Ownership<Request> {
        Ownership { request, call, caller, roles in
            guard let id = RecordID(deliveryID(request)) else { return true }
            let (marketplaceID, _) = try call.requireMarketplace()
            let delivery = try store.require(DeliveryTable.table, id, in: marketplaceID, "delivery").value.subject
            if roles.contains(.courier) && delivery.courierAccountID == caller.accountID.description { return true }
            guard let orderID = RecordID(delivery.orderID), let order = try store.get(OrderTable.table, orderID) else { return false }
            return OrderParties.owns(order.value.subject, caller, roles: roles.subtracting([.courier]))
        }
    }

    /// Couriers list only their own deliveries; providers (the marketplace's staff) all of them,
    /// but a restaurant only the deliveries of one of its orders (`order_id`).
    static func listOwnership(store: Store) -> Ownership<SoukV1.ListDeliveriesRequest> {
        Ownership { request, call, caller, roles in
            if roles.contains(.provider), !call.isFood { return true }
            let (marketplaceID, _) = try call.requireMarketplace()
            let order = try RecordID(request.orderID).map { try store.require(OrderTable.table, $0, in: marketplaceID, "order").value.subject }
            // Without order_id the body refuses a restaurant's list (INVALID_ARGUMENT).
            if roles.contains(.provider), order.map({ OrderParties.isSeller($0, caller) }) ?? true { return true }
            guard roles.contains(.courier), request.courierAccountID.isEmpty || request.courierAccountID == caller.accountID.description else {
                return false
            }
            // A malformed order_id passes on to the body, which names it with the other fields.
            guard let order else { return request.orderID.isEmpty || RecordID(request.orderID) == nil }
            return order.courierAccountID == caller.accountID.description
        }
    }

    func list(_ request: SoukV1.ListDeliveriesRequest, _ call: SoukCall) async throws -> SoukV1.ListDeliveriesResponse {
        let caller = try call.requireCaller()
        let (marketplaceID, _) = try call.requireMarketplace()
        let market = KeyPart.string(marketplaceID.description)
        let isStaff = caller.isOperator || caller.activeRoles.contains(.admin) || caller.activeRoles.contains(.provider)
        var checks = FieldChecks()
        if call.isFood, call.actorRole == .provider, request.orderID.isEmpty {
            checks.add("order_id", "is required: a restaurant lists the deliveries of one of its orders")
        }
        let orderIsID = try checks.run { try RequestFields.optionalID(request.orderID, field: "order_id") } != nil
        let courierIsID = try checks.run { try RequestFields.optionalID(request.courierAccountID, field: "courier_account_id") } != nil
        // The combination is a violation of its own only when both fields are ids.
        checks.require(
            !(orderIsID && courierIsID) || request.courierAccountID.isEmpty || request.orderID.isEmpty, "courier_account_id",
            "cannot be combined with order_id")
        var courier = request.courierAccountID
        if courier.isEmpty && request.orderID.isEmpty && !isStaff { courier = caller.accountID.description }
        let statuses = Set(request.statuses)
        let filters = "courier=\(courier);order=\(request.orderID);statuses=\(statuses.map(\.rawValue).sorted())"
        let requested = try checks.run { try RequestFields.page(size: request.pageSize, token: request.pageToken, filters: filters) }
        try checks.finish()
        let page = requested!
        let single = statuses.count == 1 ? statuses.first : nil
        let result: Page<DeliveryRecord>
        if !request.orderID.isEmpty {
            result = try store.list(DeliveryTable.table, DeliveryTable.byOrder, .starting(with: [market, .string(request.orderID)]),
                                    direction: .descending, page: page)
        } else if !courier.isEmpty, let single {
            result = try store.list(DeliveryTable.table, DeliveryTable.byCourierStatus, .starting(with: [market, .string(courier), .enumCase(single)]),
                                    direction: .descending, page: page)
        } else if !courier.isEmpty {
            result = try store.list(DeliveryTable.table, DeliveryTable.byCourier, .starting(with: [market, .string(courier)]),
                                    direction: .descending, page: page)
        } else if let single {
            result = try store.list(DeliveryTable.table, DeliveryTable.byStatus, .starting(with: [market, .enumCase(single)]),
                                    direction: .descending, page: page)
        } else {
            result = try store.list(DeliveryTable.table, DeliveryTable.byMarketplace, .starting(with: [market]), direction: .descending, page: page)
        }
        // Several statuses are checked on the records of the range: a page may then hold fewer
        // deliveries and still have a next page. A food offer past its time is EXPIRED.
        var response = SoukV1.ListDeliveriesResponse()
        let now = commerce.now
        for record in result.items where statuses.isEmpty || statuses.contains(DeliveryLifecycles.settled(record.value.subject, at: now).status) {
            response.deliveries.append(try view(record.id.description, call))
        }
        response.nextPageToken = RequestFields.nextPageToken(result.nextPageToken, filters: filters)
        return response
    }}
