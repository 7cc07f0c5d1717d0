import Foundation
import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukStore

/// Staff deliveries of water-services orders: an admin assigns an approved order to a courier,
/// who starts, may delay, and completes it; completing it completes the order and records the
/// cash the courier collected.
struct WaterDeliveries {
    let commerce: Commerce
    var store: Store { commerce.store }

    static var open: Set<SoukV1.DeliveryStatus> { DeliveryReads.open }

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
            let order = try Orders.require(orderID, in: marketplaceID, transaction)
            guard order.value.subject.status == .approved else {
                throw RPCError.souk(
                    .failedPrecondition, .invalidTransition,
                    "order \(orderID) is \(order.value.subject.status.protoName); only APPROVED orders are assigned")
            }
            if let current = RecordID(order.value.subject.deliveryID), let delivery = try Deliveries.get(current, transaction),
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
                DeliveryRecord(marketplaceID: marketplaceID.description, delivery), by: actor, transaction: transaction)
            let updated = try Orders.update(orderID, transaction) {
                $0.subject.deliveryID = created.id.description
                $0.subject.courierAccountID = courierID.description
            }
            try OrderLifecycles.waterServices.recordChange(updated, by: actor, reason: "delivery assigned", transaction: transaction)
            let number = updated.value.subject.orderNumber
            let when = updated.value.subject.scheduledWindow?.startTime.map { ServiceOrders.when(StoreTime($0), marketplace) }
            try Notifier.send(
                OrderChanges.notes(updated.value.subject, id: orderID, .orderAssigned(number: number, at: when)),
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
                .complete, on: id, marketplaceID: market, by: actor, expectedVersion: expected,
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
        guard let delivery = try Deliveries.get(move.id, transaction) else { return }
        try CourierTracking.end(delivery, transaction: transaction)
        guard let orderID = RecordID(move.after.orderID) else { return }
        var order = try OrderLifecycles.waterServices.fire(
            .complete, on: orderID, marketplaceID: move.marketplaceID, by: move.actor, transaction: transaction
        ) { $0.subject.completeTime = Timestamp(transaction.now) }
        order = try CashOnDelivery.collect(order, actor: move.actor, transaction: transaction)
        try ScheduledOrders.track(order, transaction: transaction)
        let number = order.value.subject.orderNumber
        try Notifier.send(
            OrderChanges.notes(order.value.subject, id: orderID, .serviceOrderCompleted(number: number)),
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
                .cancel, on: id, marketplaceID: market, by: actor, expectedVersion: expected, reason: reason,
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
        guard let delivery = try Deliveries.get(move.id, transaction) else { return }
        try CourierTracking.end(delivery, transaction: transaction)
        let order = try RecordID(move.after.orderID).flatMap { try Orders.get($0, transaction) }
        guard let order, order.value.subject.status != .cancelled else {
            try Notifier.send(
                [Notifier.Note(to: move.after.courierAccountID, kind: .delivery, .deliveryCancelled(reason: move.reason),
                               subject: move.ref(.delivery))],
                marketplaceID: move.marketplaceID, transaction: transaction)
            return
        }
        guard order.value.subject.deliveryID == move.id.description else { return }
        let before = order.value.subject
        let updated = try Orders.update(order.id, transaction) {
            $0.subject.deliveryID = ""
            $0.subject.courierAccountID = ""
        }
        try OrderLifecycles.waterServices.recordChange(updated, by: move.actor, reason: move.reason, transaction: transaction)
        try Notifier.send(
            OrderChanges.notes(before, id: order.id, .orderDeliveryCancelled(number: before.orderNumber, reason: move.reason)),
            marketplaceID: move.marketplaceID, transaction: transaction)
    }

    /// The order's cancellation carries its open delivery with it, whoever cancelled the order
    /// (the customer may not fire the delivery's own `cancel`: it is fired as the server's, a
    /// carried move, and audited as the order's canceller); `cancel`'s effect tells the courier.
    static func cancelOpen(orderID: RecordID, marketplaceID: RecordID, reason: String, actor: AuditActor, transaction: Transaction) throws {
        let open = try Deliveries.of(order: orderID, marketplaceID: marketplaceID.description, limit: 100, transaction)
            .filter { Self.open.contains($0.value.subject.status) }
        for delivery in open {
            try DeliveryLifecycles.waterServices.fire(
                .cancel, on: delivery.id, marketplaceID: marketplaceID.description, by: actor, reason: reason,
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
                name, on: id, marketplaceID: marketplaceID.description, by: actor, expectedVersion: expected,
                reason: reason, transaction: transaction
            ) { change(&$0, transaction.now) }
        }
        return try view(id.description, call)
    }

    /// A water delivery as `call`'s caller sees it (`DeliveryReads` shows every vertical's).
    func view(_ deliveryID: String, _ call: SoukCall) throws -> SoukV1.Delivery {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let id = try RequestFields.id(deliveryID, field: "delivery_id")
        let record = try Deliveries.require(id, in: marketplaceID, store)
        let delivery = record.value.subject
        // The drop-off phone is for the order's parties while it is active (PHONES).
        var dropoff = DeliveryProjection.Dropoff.shown(.customerOrAdmin, active: true)
        if let orderID = RecordID(delivery.orderID), let order = try Orders.get(orderID, store) {
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
}
