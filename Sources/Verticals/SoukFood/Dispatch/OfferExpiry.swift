import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukStore

/// Offers lapse after the marketplace's offer_timeout, and only the delivery's offer-lapse
/// timer (`DeliveryLifecycles.offerLapse`, run by the scheduler) writes the expiry. Until it
/// fires, calls go by the offer as it will be (`settled`): a read shows it EXPIRED, the driver's
/// answer is refused (OFFER_EXPIRED), and a due offer no longer holds its order or its driver, so
/// a new offer of the order (or to the driver) goes ahead. The timer then finds it superseded:
/// it expires it and tells the driver, and leaves the order to the newer offer.
extension DeliveryOffers {
    /// The delivery as it stands at `now`: an offer past its time is EXPIRED, though the
    /// scheduler may not have fired its timer yet.
    static func settled(_ delivery: SoukStoreV1.Delivery, at now: StoreTime) -> SoukStoreV1.Delivery {
        DeliveryLifecycles.settled(delivery, at: now)
    }

    /// The scheduler's handler of the offer-lapse timer: fires `expire`, whose effect
    /// (`lapsed`) does the rest.
    static var offerLapse: TimerHandler {
        DeliveryLifecycles.foodDelivery.timerHandler(DeliveryLifecycles.offerLapse.name) { delivery, transaction in
            try DeliveryLifecycles.foodDelivery.fire(
                .expire, on: delivery.id, marketplaceID: delivery.value.marketplaceID,
                by: .system("OfferTimeout"), reason: "not answered in time", transaction: transaction)
        }
    }

    /// The effect of `expire`: frees the driver and tells them. When the order still waits on
    /// this offer (no newer offer superseded it), frees the order too, offers an order first
    /// offered to the nearest driver to the next nearest one, and tells the restaurant.
    static let lapsed = TransitionEffect<SoukStoreV1.Delivery>(
        "free the driver and the order; offer one made to the nearest to the next nearest driver; tell the driver and the restaurant"
    ) { move, transaction in
        guard let delivery = try Deliveries.get(move.id, transaction),
              let orderID = delivery.value.subject.orderID.recordID, let before = try Orders.get(orderID, transaction)
        else { return }
        let held = before.value.subject.deliveryID == move.id.description
        guard let order = try release(delivery, actor: move.actor, reason: "delivery offer expired", transaction: transaction) else { return }
        let number = order.value.subject.orderNumber
        var notes = [Notifier.Note(
            to: delivery.value.subject.courierAccountID, kind: .delivery, .deliveryOfferExpired(number: number), subject: move.ref(.delivery))]
        if held {
            let reoffered = try offerNextNearest(after: delivery, order: order, actor: move.actor, transaction: transaction)
            notes.append(Notifier.Note(
                to: order.value.subject.sellerAccountID, kind: .order, .orderOfferExpired(number: number, reoffered: reoffered),
                subject: SoukV1.ResourceRef(type: .order, id: order.id.description)))
        }
        try Notifier.send(notes, marketplaceID: move.marketplaceID, transaction: transaction)
    }

    /// After an offer made to the nearest driver ended unanswered (it lapsed, or its driver was
    /// blocked), offers the still PREPARING order to the next nearest driver who has neither
    /// rejected it nor let it lapse. Returns whether it did; nil when the offer named its driver
    /// (the restaurant offers again itself).
    static func offerNextNearest(
        after delivery: StoredRecord<DeliveryRecord>, order: StoredRecord<OrderRecord>, actor: AuditActor, transaction: Transaction
    ) throws -> Bool? {
        guard delivery.value.subject.offeredToNearest, order.value.subject.status == .preparing,
              let marketplaceID = RecordID(order.value.marketplaceID), let marketplace = try IdentityRecords.marketplace(marketplaceID, transaction)
        else { return nil }
        do {
            _ = try create(for: order, to: .nearest, marketplace: marketplace, actor: actor, transaction: transaction)
            return true
        } catch let error as RPCError where error.soukReason == .noCourierAvailable {
            return false
        }
    }
}
