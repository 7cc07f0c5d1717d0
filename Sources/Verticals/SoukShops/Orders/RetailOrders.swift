import SoukAccess
import SoukGRPC
import SoukKit
import SoukMessages
import SoukNotifications
import SoukOrders
import SoukStore

/// The retail order lifecycle after checkout: shipped by the shop, delivered, received by the
/// customer. Each move notifies the customer in its own transaction (`OrderEffects`).
extension OrdersService {
    func shipOrder(_ request: SoukV1.ShipOrderRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        for (field, value) in [("shipping_carrier", request.shippingCarrier), ("tracking_number", request.trackingNumber)] where value.count > 100 {
            throw RPCError.invalidField(field, "must be at most 100 characters")
        }
        let (carrier, tracking) = (request.shippingCarrier, request.trackingNumber)
        return try await move(.ship, request.orderID, request.expectedVersion, call) { order, now in
            order.shippingCarrier = carrier
            order.trackingNumber = tracking
            order.shipTime = Timestamp(now)
        }
    }

    func deliverOrder(_ request: SoukV1.DeliverOrderRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        let given = request.deliverTime.map(StoreTime.init)
        return try await move(.deliver, request.orderID, request.expectedVersion, call) { order, now in
            let time = given ?? now
            guard time <= now else { throw RPCError.invalidField("deliver_time", "must not be in the future") }
            if let shipped = order.shipTime, time < StoreTime(shipped) {
                throw RPCError.invalidField("deliver_time", "must not be before the order shipped")
            }
            order.deliverTime = Timestamp(time)
        }
    }

    func confirmOrderReceived(_ request: SoukV1.ConfirmOrderReceivedRequest, _ call: SoukCall) async throws -> SoukV1.Order {
        // The server's time, never the device's.
        try await move(.receive, request.orderID, request.expectedVersion, call) { order, now in order.receiveTime = Timestamp(now) }
    }

    /// Fires `transition` on the order (whose effects tell its customer), in one transaction.
    private func move(
        _ transition: OrderMove, _ orderText: String, _ expectedVersion: Int64, _ call: SoukCall,
        change: @escaping @Sendable (inout SoukStoreV1.Order, StoreTime) throws -> Void
    ) async throws -> SoukV1.Order {
        let (marketplaceID, _) = try call.requireMarketplace()
        let id = try RequestFields.id(orderText, field: "order_id")
        let expected = try RequestFields.expectedVersion(expectedVersion)
        let actor = AuditActor(call)
        let store = store
        return try await store.write { transaction in
            let record = try OrderLifecycles.retail.fire(
                transition, on: id, marketplaceID: marketplaceID.description, by: actor, expectedVersion: expected,
                transaction: transaction) { record in try change(&record.subject, transaction.now) }
            return try OrderParties.view(record, call, store: store)
        }
    }
}
