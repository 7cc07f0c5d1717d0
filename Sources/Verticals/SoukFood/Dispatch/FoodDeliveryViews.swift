import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukStore

/// How a food delivery is shown, and to whom its changes are told.
enum FoodDeliveryViews {
    /// Notes of a delivery change to the order's customer and restaurant: about the order they
    /// follow, so of kind ORDER with the order as subject.
    static func notes(_ order: SoukStoreV1.Order, id: RecordID, _ text: NotificationText) -> [Notifier.Note] {
        let subject = SoukV1.ResourceRef(type: .order, id: id.description)
        return [order.customerAccountID, order.sellerAccountID].map {
            Notifier.Note(to: $0, kind: .order, text, subject: subject)
        }
    }

    /// The delivery as `call`'s caller sees it. Its driver sees the customer's name and the
    /// drop-off address while the delivery is open, the address's phone only once accepted, and
    /// none of them after it ends; the restaurant sees the phone while the order is active
    /// (PHONES); the customer and admins see everything. An offer past its time is shown
    /// EXPIRED, as its timer will leave it.
    static func view(_ deliveryID: String, _ call: SoukCall, store: Store) throws -> SoukV1.Delivery {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let id = try RequestFields.id(deliveryID, field: "delivery_id")
        var record = try Deliveries.require(id, in: marketplaceID, store)
        record.value.subject = DeliveryOffers.settled(record.value.subject, at: store.configuration.clock())
        let delivery = record.value.subject
        let vertical = marketplace.vertical
        let courier = try OrderParties.summary(delivery.courierAccountID, vertical: vertical, store: store)
        guard let orderID = delivery.orderID.recordID, let order = try Orders.get(orderID, store)?.value.subject else {
            var shown = DeliveryProjection.delivery(record, dropoff: .shown(.customerOrAdmin, active: true))
            shown.courier = courier
            return shown
        }
        let caller = call.caller
        let me = caller?.accountID.description
        let isAdmin = caller.map { $0.isOperator || $0.activeRoles.contains(.admin) } ?? false
        let dropoff: DeliveryProjection.Dropoff
        var showsCustomer = true
        if !isAdmin, me != order.customerAccountID, me == delivery.courierAccountID {
            // The driver: the drop-off while the delivery is open, its phone once accepted.
            showsCustomer = DeliveryReads.open.contains(delivery.status)
            dropoff = showsCustomer ? .shown(.providerOrCourier, active: delivery.status == .inProgress) : .hidden
        } else {
            let viewer: Parties.AddressViewer =
                isAdmin || me == order.customerAccountID ? .customerOrAdmin : me == order.sellerAccountID ? .providerOrCourier : .other
            dropoff = .shown(viewer, active: OrderParties.isActive(order.status))
        }
        var shown = DeliveryProjection.delivery(record, dropoff: dropoff)
        shown.courier = courier
        shown.availableTransitions = DeliveryLifecycles.foodDelivery.available(on: delivery, for: call, parties: [
            .courier: .account(delivery.courierAccountID), .provider: .account(order.sellerAccountID),
        ])
        if showsCustomer { shown.customer = try OrderParties.summary(order.customerAccountID, vertical: vertical, store: store) }
        return shown
    }
}
