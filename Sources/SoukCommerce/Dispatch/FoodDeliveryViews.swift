import SoukAccess
import SoukGRPC
import SoukIdentity
import SoukKit
import SoukMessages
import SoukStore

/// How a food delivery is shown, and to whom its changes are told.
enum FoodDeliveryViews {
    /// Notes of a delivery change to the order's customer and restaurant: about the order they
    /// follow, so of kind ORDER with the order as subject.
    static func notes(_ order: SoukStoreV1.Order, id: RecordID, title: String, body: String) -> [Notifier.Note] {
        let subject = SoukV1.ResourceRef(type: .order, id: id.description)
        return [order.customerAccountID, order.sellerAccountID].map {
            Notifier.Note(to: $0, kind: .order, title: title, body: body, subject: subject)
        }
    }

    /// The delivery as `call`'s caller sees it. Its driver sees the customer's name and the
    /// drop-off address while the delivery is open, the address's phone only once accepted, and
    /// none of them after it ends; the restaurant sees the phone while the order is active
    /// (PHONES); the customer and admins see everything.
    static func view(_ deliveryID: String, _ call: SoukCall, store: Store) throws -> SoukV1.Delivery {
        let (marketplaceID, marketplace) = try call.requireMarketplace()
        let id = try RequestFields.id(deliveryID, field: "delivery_id")
        let record = try store.require(DeliveryTable.table, id, in: marketplaceID, "delivery")
        var delivery: SoukV1.Delivery = record.api()
        let vertical = marketplace.vertical
        delivery.courier = try OrderParties.summary(delivery.courierAccountID, vertical: vertical, store: store)
        guard let orderID = delivery.orderID.recordID, let order = try store.get(OrderTable.table, orderID)?.value.subject else { return delivery }
        delivery.availableTransitions = DeliveryLifecycles.foodDelivery.available(on: delivery, for: call, parties: [
            .courier: .account(delivery.courierAccountID), .provider: .account(order.sellerAccountID),
        ])
        let caller = call.caller
        let me = caller?.accountID.description
        let isAdmin = caller.map { $0.isOperator || $0.activeRoles.contains(.admin) } ?? false
        if !isAdmin, me != order.customerAccountID, me == delivery.courierAccountID {
            guard WaterDeliveries.open.contains(delivery.status) else {
                delivery.dropoffAddress = nil
                return delivery
            }
            delivery.customer = try OrderParties.summary(order.customerAccountID, vertical: vertical, store: store)
            delivery.dropoffAddress = delivery.dropoffAddress.map {
                Parties.address($0, for: .providerOrCourier, orderIsActive: delivery.status == .inProgress)
            }
            return delivery
        }
        delivery.customer = try OrderParties.summary(order.customerAccountID, vertical: vertical, store: store)
        let viewer: Parties.AddressViewer = isAdmin || me == order.customerAccountID ? .customerOrAdmin : me == order.sellerAccountID ? .providerOrCourier : .other
        delivery.dropoffAddress = delivery.dropoffAddress.map { Parties.address($0, for: viewer, orderIsActive: OrderParties.isActive(order.status)) }
        return delivery
    }
}
