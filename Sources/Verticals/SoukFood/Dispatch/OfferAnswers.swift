import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukStore

/// A driver's answer to an offer: accepting takes the order out for delivery in the same
/// transaction; rejecting frees the driver and tells the restaurant to offer again.
extension DeliveryOffers {
    func accept(_ request: SoukV1.AcceptDeliveryRequest, _ call: SoukCall) async throws -> SoukV1.Delivery {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected) = try DeliveryFields.move(request.deliveryID, request.expectedVersion)
        let actor = AuditActor(call)
        let market = marketplaceID.description
        try await store.write { transaction in
            try Self.requireUnexpired(id, marketplaceID: marketplaceID, transaction: transaction)
            let delivery = try DeliveryLifecycles.foodDelivery.fire(
                .accept, on: id, marketplaceID: market, by: actor, expectedVersion: expected,
                transaction: transaction
            ) { $0.subject.dispatchTime = Timestamp(transaction.now) }
            let courierID = delivery.value.subject.courierAccountID
            guard let orderID = delivery.value.subject.orderID.recordID else { return }
            let order = try OrderLifecycles.foodDelivery.fire(
                .dispatch, on: orderID, marketplaceID: market, by: actor, transaction: transaction
            ) { order in
                order.subject.courierAccountID = courierID
                order.subject.deliveryID = id.description
                order.subject.outForDeliveryTime = Timestamp(transaction.now)
            }
            let number = order.value.subject.orderNumber
            try Notifier.send(
                FoodDeliveryViews.notes(order.value.subject, id: orderID, .foodOrderOnTheWay(number: number)),
                marketplaceID: market, transaction: transaction)
        }
        return try FoodDeliveryViews.view(id.description, call, store: store)
    }

    func reject(_ request: SoukV1.RejectDeliveryRequest, _ call: SoukCall) async throws -> SoukV1.Delivery {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected, reason) = try DeliveryFields.checked(request.deliveryID, request.expectedVersion, text: request.reason, field: "reason")
        let actor = AuditActor(call)
        let market = marketplaceID.description
        try await store.write { transaction in
            try Self.requireUnexpired(id, marketplaceID: marketplaceID, transaction: transaction)
            let delivery = try DeliveryLifecycles.foodDelivery.fire(
                .reject, on: id, marketplaceID: market, by: actor, expectedVersion: expected, reason: reason,
                transaction: transaction
            ) { $0.subject.note = reason }
            guard let order = try Self.release(delivery, actor: actor, reason: "delivery rejected", transaction: transaction) else { return }
            let number = order.value.subject.orderNumber
            try Notifier.send(
                [Notifier.Note(
                    to: order.value.subject.sellerAccountID, kind: .order, .driverDeclinedOrder(number: number, reason: reason),
                    subject: SoukV1.ResourceRef(type: .order, id: order.id.description))],
                marketplaceID: market, transaction: transaction)
        }
        return try FoodDeliveryViews.view(id.description, call, store: store)
    }

    /// OFFER_EXPIRED when the offer lapsed before the driver's answer: expired already, or due
    /// now, its timer not yet fired (which the answer leaves to the scheduler).
    private static func requireUnexpired(_ id: RecordID, marketplaceID: RecordID, transaction: Transaction) throws {
        let current = try Deliveries.require(id, in: marketplaceID, transaction).value.subject
        guard settled(current, at: transaction.now).status == .expired else { return }
        throw RPCError.souk(
            .failedPrecondition, .offerExpired, "the offer of delivery \(id) expired before it was answered",
            metadata: ["state": current.status.protoName])
    }

    /// Frees the driver and the order of a delivery that ended without reaching the customer
    /// (rejected, expired, cancelled, completed): the driver is available again and the order
    /// no longer names it as current. Returns the order.
    @discardableResult
    static func release(
        _ delivery: StoredRecord<DeliveryRecord>, actor: AuditActor, reason: String, transaction: Transaction
    ) throws -> StoredRecord<OrderRecord>? {
        if let courierID = delivery.value.subject.courierAccountID.recordID, let courier = try Couriers.get(courierID, in: transaction),
           courier.value.status.activeDeliveryID == delivery.id.description
        {
            try Couriers.setActiveDelivery("", of: courierID, in: transaction)
            try CourierTracking.append(
                courierID, SoukV1.CourierLocationEvent(deliveryID: delivery.id.description, courierAccountID: courierID.description),
                transaction: transaction)
        }
        guard let orderID = delivery.value.subject.orderID.recordID, let order = try Orders.get(orderID, transaction) else { return nil }
        guard order.value.subject.deliveryID == delivery.id.description, delivery.value.subject.status != .completed else { return order }
        let updated = try Orders.update(orderID, transaction) { $0.subject.deliveryID = "" }
        try OrderLifecycles.foodDelivery.recordChange(updated, by: actor, reason: reason, transaction: transaction)
        return updated
    }
}
