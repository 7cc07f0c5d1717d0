import SoukKit
import SoukMessages
import SoukStore

/// What a caller sees of a stored delivery: the contract's `Delivery`, built field by field. It
/// is an allow-list: a field added to the stored record reaches no caller until a line here
/// names it.
package enum DeliveryProjection {
    /// What the caller sees of the drop-off address.
    package enum Dropoff {
        /// Nothing (a driver once the delivery ended).
        case hidden
        /// The address, its phone as PHONES allows `viewer` while the order `active`.
        case shown(Parties.AddressViewer, active: Bool)
    }

    /// The stored fields with the envelope's id, version and times, the drop-off as `dropoff`
    /// says. The parties' summaries and the available transitions come from other records (the
    /// water and food views).
    package static func delivery(_ record: StoredRecord<DeliveryRecord>, dropoff: Dropoff) -> SoukV1.Delivery {
        let delivery = record.value.subject
        var shown = record.stamped(SoukV1.Delivery())
        shown.orderID = delivery.orderID
        shown.courierAccountID = delivery.courierAccountID
        shown.status = delivery.status
        if case .shown(let viewer, let active) = dropoff {
            shown.dropoffAddress = delivery.dropoffAddress.map { Parties.address($0, for: viewer, orderIsActive: active) }
        }
        shown.pickupAddress = delivery.pickupAddress
        shown.deliveryFee = delivery.deliveryFee
        shown.offerDistanceMeters = delivery.offerDistanceMeters
        shown.offerExpireTime = delivery.offerExpireTime
        shown.offeredToNearest = delivery.offeredToNearest
        shown.note = delivery.note
        shown.assignedByAccountID = delivery.assignedByAccountID
        shown.dispatchTime = delivery.dispatchTime
        shown.completionTime = delivery.completionTime
        shown.estimatedArrivalTime = delivery.estimatedArrivalTime
        return shown
    }
}
