import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukStore

/// The end of a food delivery: the driver completes it (the order delivered and its cash
/// collected in one transaction), or it is cancelled and the order waits for a new offer.
struct FoodDeliveries {
    let commerce: Commerce
    var store: Store { commerce.store }

    func complete(_ request: SoukV1.CompleteDeliveryRequest, _ call: SoukCall) async throws -> SoukV1.Delivery {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let (id, expected) = try DeliveryFields.move(request.deliveryID, request.expectedVersion)
        let actor = AuditActor(call)
        let market = marketplaceID.description
        let fee = DispatchRules(marketplace).deliveryFee
        try await store.write { transaction in
            let delivery = try DeliveryLifecycles.foodDelivery.fire(
                .complete, on: id, marketplaceID: market, by: actor, expectedVersion: expected,
                transaction: transaction
            ) { record in
                record.subject.completionTime = Timestamp(transaction.now)
                if record.subject.deliveryFee == nil { record.subject.deliveryFee = fee }
            }
            try DeliveryOffers.release(delivery, actor: actor, reason: "delivered", transaction: transaction)
            guard let orderID = delivery.value.subject.orderID.recordID else { return }
            var order = try OrderLifecycles.foodDelivery.fire(
                .deliver, on: orderID, marketplaceID: market, by: actor, transaction: transaction
            ) { $0.subject.deliverTime = Timestamp(transaction.now) }
            order = try CashOnDelivery.collect(order, actor: actor, transaction: transaction)
            // The driver's earnings, and the cash now in their hands until the restaurant confirms it.
            let cash = order.value.subject.paymentStatus == .collected ? order.value.subject.price?.total?.amountMinor ?? 0 : 0
            try FoodTotalsLedger.delivered(
                courierID: delivery.value.subject.courierAccountID, fee: delivery.value.subject.deliveryFee?.amountMinor ?? 0, cash: cash,
                marketplace: marketplace, marketplaceID: market, transaction: transaction)
            let number = order.value.subject.orderNumber
            try Notifier.send(
                FoodDeliveryViews.notes(order.value.subject, id: orderID, .foodOrderDelivered(number: number)),
                marketplaceID: market, transaction: transaction)
        }
        return try FoodDeliveryViews.view(id.description, call, store: store)
    }

    /// The driver withdraws or the restaurant (or an admin) takes the delivery back. An
    /// accepted delivery takes the order back to PREPARING for a new offer.
    func cancel(_ request: SoukV1.CancelDeliveryRequest, _ call: SoukCall) async throws -> SoukV1.Delivery {
        let (marketplaceID, _) = try call.requireMarketplace()
        let (id, expected, reason) = try DeliveryFields.cancel(request)
        let actor = AuditActor(call)
        let market = marketplaceID.description
        try await store.write { transaction in
            let current = try Deliveries.require(id, in: marketplaceID, transaction)
            let wasAccepted = current.value.subject.status == .inProgress
            // An offer past its time is refused as the expired offer it is; its timer expires it.
            let settled = DeliveryOffers.settled(current.value.subject, at: transaction.now)
            if settled.status != current.value.subject.status, expected == nil || expected == current.version {
                _ = try DeliveryLifecycles.foodDelivery.transition(.cancel, on: settled, id: id.description, by: actor)
            }
            let delivery = try DeliveryLifecycles.foodDelivery.fire(
                .cancel, on: id, marketplaceID: market, by: actor, expectedVersion: expected, reason: reason,
                transaction: transaction
            ) { $0.subject.note = reason }
            guard let order = try DeliveryOffers.release(delivery, actor: actor, reason: reason, transaction: transaction) else { return }
            if wasAccepted, order.value.subject.status == .outForDelivery {
                try OrderLifecycles.foodDelivery.fire(
                .reoffer, on: order.id, marketplaceID: market, by: actor, reason: reason, transaction: transaction
                ) { $0.subject.courierAccountID = "" }
            }
            let number = order.value.subject.orderNumber
            let text = NotificationText.orderDeliveryCancelled(number: number, reason: reason)
            try Notifier.send(
                [Notifier.Note(to: delivery.value.subject.courierAccountID, kind: .delivery, text,
                               subject: SoukV1.ResourceRef(type: .delivery, id: id.description)),
                 Notifier.Note(to: order.value.subject.sellerAccountID, kind: .order, text,
                               subject: SoukV1.ResourceRef(type: .order, id: order.id.description))],
                marketplaceID: market, transaction: transaction)
        }
        return try FoodDeliveryViews.view(id.description, call, store: store)
    }
}
