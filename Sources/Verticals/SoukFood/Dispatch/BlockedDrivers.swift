import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukStore

/// A blocked driver leaves dispatch in `Accounts.BlockAccount`'s own transaction: the shared
/// orders take them offline (`BlockedCouriers`), and an offer still waiting for their answer is cancelled (one made to
/// the nearest goes on to the next nearest, as when it lapses). An offer past its time is left
/// to its timer, which expires it. A delivery they accepted stays for an admin to complete or
/// cancel: the food is with them.
enum BlockedDrivers {
    static func register(in hooks: AccountBlockHooks) {
        hooks.add("offer to a blocked driver withdrawn") { subject, transaction in
            try Self.withdraw(subject, transaction: transaction)
        }
    }

    static func withdraw(_ subject: AccountBlockSubject, transaction: Transaction) throws {
        guard let courier = try Couriers.get(subject.accountID, in: transaction) else { return }
        guard let deliveryID = courier.value.status.activeDeliveryID.recordID, let open = try Deliveries.get(deliveryID, transaction),
              DeliveryOffers.settled(open.value.subject, at: transaction.now).status == .offered
        else { return }
        let market = open.value.marketplaceID
        let reason = "the driver's account was blocked"
        let delivery = try DeliveryLifecycles.foodDelivery.fire(
                .cancel, on: deliveryID, marketplaceID: market, by: subject.actor, reason: reason,
            transaction: transaction
        ) { $0.subject.note = reason }
        guard let order = try DeliveryOffers.release(delivery, actor: subject.actor, reason: reason, transaction: transaction) else { return }
        let number = order.value.subject.orderNumber
        let reoffered = try DeliveryOffers.offerNextNearest(after: delivery, order: order, actor: subject.actor, transaction: transaction)
        try Notifier.send(
            [Notifier.Note(to: order.value.subject.sellerAccountID, kind: .order, .orderOfferWithdrawn(number: number, reoffered: reoffered),
                           subject: SoukV1.ResourceRef(type: .order, id: order.id.description))],
            marketplaceID: market, transaction: transaction)
    }
}
