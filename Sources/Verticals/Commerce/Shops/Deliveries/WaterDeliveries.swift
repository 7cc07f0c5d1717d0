import Foundation
import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukStore

/// Staff deliveries of water-services orders (and the reads food deliveries share): an admin assigns an approved order to a courier,
/// who starts, may delay, and completes it; completing it completes the order and records the
/// cash the courier collected.
struct WaterDeliveries {
    let commerce: Commerce
    var store: Store { commerce.store }

    static let open: Set<SoukV1.DeliveryStatus> = [.assigned, .inProgress, .delayed, .offered]

    func assign(_ request: SoukV1.AssignDeliveryRequest, _ call: SoukCall) async throws -> SoukV1.Delivery {
        let caller = try call.requireCaller()
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        var checks = FieldChecks()
        let requestText = try checks.run { try RequestFields.requestID(request.requestID) }
        let orderText = try checks.run { try RequestFields.id(request.orderID, field: "order_id") }
        let courierText = try checks.run { try RequestFields.id(request.courierAccountID, field: "courier_account_id") }
        try checks.finish()
        let (requestID, orderID, courierID) = (requestText!, orderText!, courierText!)
        let actor = AuditActor(call, requestID: requestID)
        let result = try await store.write(
            idempotencyKey: IdempotencyKey(marketplace: marketplaceID.description, account: caller.accountID.description, key: requestID),
            fingerprint: RequestFingerprint(request.encoded()), responseCodec: MessageCodec<SoukV1.Delivery>()
        ) { transaction in
            let order = try transaction.require(OrderTable.table, orderID, in: marketplaceID, "order")
            guard order.value.subject.status == .approved else {
                throw RPCError.souk(
                    .failedPrecondition, .invalidTransition,
                    "order \(orderID) is \(order.value.subject.status.protoName); only APPROVED orders are assigned")
            }
            if let current = RecordID(order.value.subject.deliveryID), let delivery = try transaction.get(DeliveryTable.table, current),
               Self.open.contains(delivery.value.subject.status)
            {
                throw RPCError.souk(
                    .failedPrecondition, .deliveryOpen, "order \(orderID) already has an open delivery \(current); cancel it first",
                    metadata: ["resource_type": "delivery", "resource_id": current.description])
            }
            try CourierAccounts.require(courierID, marketplaceID: marketplaceID.description, transaction: transaction)
            var delivery = SoukStoreV1.Delivery()
            delivery.orderID = orderID.description
            delivery.courierAccountID = courierID.description
            delivery.status = .assigned
            delivery.dropoffAddress = order.value.subject.address
            delivery.assignedByAccountID = actor.accountID
            let created = try DeliveryLifecycles.waterServices.create(
                DeliveryRecord(marketplaceID: marketplaceID.description, delivery), in: DeliveryTable.table, by: actor, transaction: transaction)
            let updated = try transaction.update(OrderTable.table, orderID) {
                $0.subject.deliveryID = created.id.description
                $0.subject.courierAccountID = courierID.description
            }
            try OrderLifecycles.waterServices.recordChange(updated, in: OrderTable.table, by: actor, reason: "delivery assigned", transaction: transaction)
            let number = updated.value.subject.orderNumber
            let when = updated.value.subject.scheduledWindow?.startTime.map { ServiceOrders.describe(StoreTime($0), marketplace) } ?? ""
            try Notifier.send(
                OrderChanges.notes(updated.value.subject, id: orderID, title: "Order \(number) assigned",
                                   body: "Delivery staff is assigned to order \(number) \(when)."),
                marketplaceID: marketplaceID.description, transaction: transaction)
            // A retry reads the delivery by this id (below).
            return created.stamped(SoukV1.Delivery())
        }
        return try view(result.value.id, call)
    }

    func start(_ request: SoukV1.StartDeliveryRequest, _ call: SoukCall) async throws -> SoukV1.Delivery {
        try await move(.start, request.deliveryID, request.expectedVersion, call) { record, now in
            if record.subject.dispatchTime == nil { record.subject.dispatchTime = Timestamp(now) }
        }
    }

    func delay(_ request: SoukV1.DelayDeliveryRequest, _ call: SoukCall) async throws -> SoukV1.Delivery {
        let note = request.note.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await move(.delay, request.deliveryID, request.expectedVersion, call, note: request.note) { record, _ in
            record.subject.note = note
        }
    }

    /// Completes the delivery (IN_PROGRESS or DELAYED); its effect (`completeOrder`) completes
    /// the order in the same transaction.
    func complete(_ request: SoukV1.CompleteDeliveryRequest, _ call: SoukCall) async throws -> SoukV1.Delivery {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected) = try DeliveryFields.move(request.deliveryID, request.expectedVersion)
        let actor = AuditActor(call)
        let market = marketplaceID.description
        try await store.write { transaction in
            try DeliveryLifecycles.waterServices.fire(
                .complete, on: id, in: DeliveryTable.table, marketplaceID: market, by: actor, expectedVersion: expected,
                transaction: transaction
            ) { $0.subject.completionTime = Timestamp(transaction.now) }
        }
        return try view(id.description, call)
    }

    /// The effect of `complete`: ends the watchers of its courier, completes the order and
    /// records its cash (`CashOnDelivery`), and tells the order's parties.
    static let completeOrder = TransitionEffect<SoukStoreV1.Delivery>(
        "end the courier's tracking; complete the order, collect its cash and tell its parties"
    ) { move, transaction in
        guard let delivery = try transaction.get(DeliveryTable.table, move.id) else { return }
        try CourierTracking.end(delivery, transaction: transaction)
        guard let orderID = RecordID(move.after.orderID) else { return }
        var order = try OrderLifecycles.waterServices.fire(
            .complete, on: orderID, in: OrderTable.table, marketplaceID: move.marketplaceID, by: move.actor, transaction: transaction
        ) { $0.subject.completeTime = Timestamp(transaction.now) }
        order = try CashOnDelivery.collect(order, actor: move.actor, transaction: transaction)
        try ScheduledOrders.track(order, transaction: transaction)
        let number = order.value.subject.orderNumber
        try Notifier.send(
            OrderChanges.notes(order.value.subject, id: orderID, title: "Order \(number) completed",
                               body: "Your order was delivered. Tell us how it went."),
            marketplaceID: move.marketplaceID, transaction: transaction)
    }

    /// An admin takes the order back from its courier; the order stays APPROVED for another
    /// assignment (the effect `freeOrder`).
    func cancel(_ request: SoukV1.CancelDeliveryRequest, _ call: SoukCall) async throws -> SoukV1.Delivery {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected, reason) = try DeliveryFields.cancel(request)
        let actor = AuditActor(call)
        let market = marketplaceID.description
        try await store.write { transaction in
            try DeliveryLifecycles.waterServices.fire(
                .cancel, on: id, in: DeliveryTable.table, marketplaceID: market, by: actor, expectedVersion: expected, reason: reason,
                transaction: transaction
            ) { $0.subject.note = reason }
        }
        return try view(id.description, call)
    }

    /// The effect of `cancel`: ends the watchers of its courier. When the order's own
    /// cancellation carries the delivery's, tells the courier; otherwise frees the order (it
    /// keeps its status) and tells its parties.
    static let freeOrder = TransitionEffect<SoukStoreV1.Delivery>(
        "end the courier's tracking; free the order and tell its parties, or tell the courier when the order's cancellation carries it"
    ) { move, transaction in
        guard let delivery = try transaction.get(DeliveryTable.table, move.id) else { return }
        try CourierTracking.end(delivery, transaction: transaction)
        let order = try RecordID(move.after.orderID).flatMap { try transaction.get(OrderTable.table, $0) }
        guard let order, order.value.subject.status != .cancelled else {
            try Notifier.send(
                [Notifier.Note(to: move.after.courierAccountID, kind: .delivery, title: "Delivery cancelled", body: move.reason,
                               subject: move.ref(.delivery))],
                marketplaceID: move.marketplaceID, transaction: transaction)
            return
        }
        guard order.value.subject.deliveryID == move.id.description else { return }
        let before = order.value.subject
        let updated = try transaction.update(OrderTable.table, order.id) {
            $0.subject.deliveryID = ""
            $0.subject.courierAccountID = ""
        }
        try OrderLifecycles.waterServices.recordChange(updated, in: OrderTable.table, by: move.actor, reason: move.reason, transaction: transaction)
        try Notifier.send(
            OrderChanges.notes(before, id: order.id, title: "Delivery of order \(before.orderNumber) cancelled", body: move.reason),
            marketplaceID: move.marketplaceID, transaction: transaction)
    }

    /// The order's cancellation carries its open delivery with it, whoever cancelled the order
    /// (the customer may not fire the delivery's own `cancel`: it is fired as the server's, a
    /// carried move, and audited as the order's canceller); `cancel`'s effect tells the courier.
    static func cancelOpen(orderID: RecordID, marketplaceID: RecordID, reason: String, actor: AuditActor, transaction: Transaction) throws {
        let open = try transaction.list(
            DeliveryTable.table, DeliveryTable.byOrder, .starting(with: [.string(marketplaceID.description), .string(orderID.description)]),
            limit: 100
        ).filter { Self.open.contains($0.value.subject.status) }
        for delivery in open {
            try DeliveryLifecycles.waterServices.fire(
                .cancel, on: delivery.id, in: DeliveryTable.table, marketplaceID: marketplaceID.description, by: actor, reason: reason,
                carried: true, transaction: transaction
            ) { $0.subject.note = reason }
        }
    }

    /// Fires `name` (start, delay; their effects tell the customer); `note` is the delay's text,
    /// checked with the other fields.
    private func move(
        _ name: DeliveryMove, _ deliveryID: String, _ expectedVersion: Int64, _ call: SoukCall, note: String? = nil,
        change: @escaping @Sendable (inout DeliveryRecord, StoreTime) -> Void
    ) async throws -> SoukV1.Delivery {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected, reason) = try DeliveryFields.checked(deliveryID, expectedVersion, text: note, field: "note")
        let actor = AuditActor(call)
        _ = try await store.write { transaction in
            try DeliveryLifecycles.waterServices.fire(
                name, on: id, in: DeliveryTable.table, marketplaceID: marketplaceID.description, by: actor, expectedVersion: expected,
                reason: reason, transaction: transaction
            ) { change(&$0, transaction.now) }
        }
        return try view(id.description, call)
    }

    /// The delivery as `call`'s caller sees it (food deliveries: `FoodDeliveryViews`).
    func view(_ deliveryID: String, _ call: SoukCall) throws -> SoukV1.Delivery {
        if call.isFood { return try FoodDeliveryViews.view(deliveryID, call, store: store) }
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let id = try RequestFields.id(deliveryID, field: "delivery_id")
        let record = try store.require(DeliveryTable.table, id, in: marketplaceID, "delivery")
        let delivery = record.value.subject
        // The drop-off phone is for the order's parties while it is active (PHONES).
        var dropoff = DeliveryProjection.Dropoff.shown(.customerOrAdmin, active: true)
        if let orderID = RecordID(delivery.orderID), let order = try store.get(OrderTable.table, orderID) {
            let caller = call.caller
            let isAdmin = caller.map { $0.isOperator || $0.activeRoles.contains(.admin) } ?? false
            let viewer: Parties.AddressViewer =
                isAdmin || caller?.accountID.description == order.value.subject.customerAccountID
                ? .customerOrAdmin
                : (caller?.accountID.description == delivery.courierAccountID || caller?.activeRoles.contains(.provider) == true)
                    ? .providerOrCourier : .other
            let active = Self.open.contains(delivery.status) && OrderParties.isActive(order.value.subject.status)
            dropoff = .shown(viewer, active: active)
        }
        var shown = DeliveryProjection.delivery(record, dropoff: dropoff)
        shown.availableTransitions = DeliveryLifecycles.waterServices.available(
            on: delivery, for: call, parties: [.courier: .account(delivery.courierAccountID)])
        shown.courier = try OrderParties.summary(delivery.courierAccountID, vertical: marketplace.vertical, store: store)
        return shown
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
    static func ownership<Request>(_ deliveryID: @escaping @Sendable (Request) -> String, store: Store) -> Ownership<Request> {
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
        for record in result.items where statuses.isEmpty || statuses.contains(DeliveryOffers.settled(record.value.subject, at: now).status) {
            response.deliveries.append(try view(record.id.description, call))
        }
        response.nextPageToken = RequestFields.nextPageToken(result.nextPageToken, filters: filters)
        return response
    }
}
