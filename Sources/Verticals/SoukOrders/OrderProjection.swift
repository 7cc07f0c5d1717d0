import SoukKit
import SoukMessages
import SoukStore

/// What a caller sees of a stored order: the contract's `Order`, built field by field. It is an
/// allow-list: a field added to the stored record reaches no caller until a line here names it.
package enum OrderProjection {
    /// The stored fields `viewer` sees, with the envelope's id, version and times: the address's
    /// phone only as PHONES allows, and nothing of the customer for a food order's restaurant
    /// and driver once the order is final. The parties' summaries and the available transitions
    /// come from other records (`OrderParties.view`).
    package static func order(_ record: StoredRecord<OrderRecord>, for viewer: Parties.AddressViewer) -> SoukV1.Order {
        let order = record.value.subject
        let active = OrderParties.isActive(order.status)
        let hidesCustomer = !order.restaurantID.isEmpty && viewer == .providerOrCourier && !active
        var shown = record.stamped(SoukV1.Order())
        shown.orderNumber = order.orderNumber
        shown.status = order.status
        if !hidesCustomer {
            shown.customerAccountID = order.customerAccountID
            shown.address = order.address.map { Parties.address($0, for: viewer, orderIsActive: active) }
        }
        shown.lines = order.lines
        shown.price = order.price
        shown.note = order.note
        shown.restaurantID = order.restaurantID
        shown.restaurantName = order.restaurantName
        shown.pickupAddress = order.pickupAddress
        shown.sellerAccountID = order.sellerAccountID
        shown.commissionBps = order.commissionBps
        shown.commission = order.commission
        shown.scheduledWindow = order.scheduledWindow
        shown.paymentID = order.paymentID
        shown.paymentMethod = order.paymentMethod
        shown.paymentStatus = order.paymentStatus
        shown.deliveryID = order.deliveryID
        shown.courierAccountID = order.courierAccountID
        shown.shippingCarrier = order.shippingCarrier
        shown.trackingNumber = order.trackingNumber
        shown.cancellation = order.cancellation
        shown.approveTime = order.approveTime
        shown.acceptTime = order.acceptTime
        shown.outForDeliveryTime = order.outForDeliveryTime
        shown.shipTime = order.shipTime
        shown.deliverTime = order.deliverTime
        shown.receiveTime = order.receiveTime
        shown.completeTime = order.completeTime
        shown.cancelTime = order.cancelTime
        return shown
    }
}
