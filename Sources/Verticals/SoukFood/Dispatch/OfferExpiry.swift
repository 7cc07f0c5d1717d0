import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukStore

/// Offers lapse after the marketplace's offer_timeout: the delivery's offer-lapse timer
/// (`DeliveryLifecycles.offerLapse`) fires `expire` then. A call about the offer itself that
/// comes first (its driver's answer, a read of it) settles it at once (`settleExpiry`), so no
/// one is told of a lapsed offer as if it were live. An offer made to the nearest driver then
/// goes to the next nearest, who has neither rejected the order nor let it lapse.
extension DeliveryOffers {
    /// Expires delivery `id` in its own transaction when it is an offer past its time; returns
    /// whether it did.
    @discardableResult
    static func settleExpiry(_ id: RecordID, commerce: Commerce) async throws -> Bool {
        let store = commerce.store
        guard let delivery = try Deliveries.get(id, store), isDue(delivery, at: commerce.now) else { return false }
        return try await store.write { transaction in try expireIfDue(id, store: store, transaction: transaction) }
    }

    /// The scheduler's handler of the offer-lapse timer.
    static func offerLapse(commerce: Commerce) -> TimerHandler {
        let store = commerce.store
        return DeliveryLifecycles.foodDelivery.timerHandler(DeliveryLifecycles.offerLapse.name) { delivery, transaction in
            _ = try expireIfDue(delivery.id, store: store, transaction: transaction)
        }
    }

    private static func isDue(_ delivery: StoredRecord<DeliveryRecord>, at now: StoreTime) -> Bool {
        guard delivery.value.subject.status == .offered, let expiry = delivery.value.subject.offerExpireTime else { return false }
        return StoreTime(expiry) <= now
    }

    /// Expires the offer (read and locked again here) when it is still due, frees its driver and
    /// order, tells the restaurant and the driver, and offers an order first offered to the
    /// nearest driver to the next one.
    private static func expireIfDue(_ id: RecordID, store: Store, transaction: Transaction) throws -> Bool {
        guard let current = try Deliveries.get(id, transaction), isDue(current, at: transaction.now) else { return false }
        let market = current.value.marketplaceID
        let actor = AuditActor.system("OfferTimeout")
        let delivery = try DeliveryLifecycles.foodDelivery.fire(
                .expire, on: id, marketplaceID: market, by: actor, reason: "not answered in time", transaction: transaction)
        guard let order = try release(delivery, actor: actor, reason: "delivery offer expired", transaction: transaction) else { return true }
        let number = order.value.subject.orderNumber
        let restaurant = switch try offerNextNearest(after: delivery, order: order, actor: actor, store: store, transaction: transaction) {
        case true?: "The driver did not answer in time; order \(number) was offered to the next nearest driver."
        case false?: "The driver did not answer in time and no other driver is available; offer order \(number) again."
        case nil: "The driver did not answer in time; offer order \(number) again."
        }
        try Notifier.send(
            [Notifier.Note(
                to: delivery.value.subject.courierAccountID, kind: .delivery, title: "Offer expired",
                body: "The offer of order \(number) was not answered in time.", subject: SoukV1.ResourceRef(type: .delivery, id: id.description)),
             Notifier.Note(
                to: order.value.subject.sellerAccountID, kind: .order, title: "Offer of order \(number) expired", body: restaurant,
                subject: SoukV1.ResourceRef(type: .order, id: order.id.description))],
            marketplaceID: market, transaction: transaction)
        return true
    }

    /// After an offer made to the nearest driver ended unanswered (it lapsed, or its driver was
    /// blocked), offers the still PREPARING order to the next nearest driver who has neither
    /// rejected it nor let it lapse. Returns whether it did; nil when the offer named its driver
    /// (the restaurant offers again itself).
    static func offerNextNearest(
        after delivery: StoredRecord<DeliveryRecord>, order: StoredRecord<OrderRecord>, actor: AuditActor, store: Store, transaction: Transaction
    ) throws -> Bool? {
        guard delivery.value.subject.offeredToNearest, order.value.subject.status == .preparing,
              let marketplaceID = RecordID(order.value.marketplaceID), let marketplace = try IdentityRecords.marketplace(marketplaceID, transaction)
        else { return nil }
        do {
            _ = try create(for: order, to: .nearest, marketplace: marketplace, actor: actor, store: store, transaction: transaction)
            return true
        } catch let error as RPCError where error.soukReason == .noCourierAvailable {
            return false
        }
    }
}
