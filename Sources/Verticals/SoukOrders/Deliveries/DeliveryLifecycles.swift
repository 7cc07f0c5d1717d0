import SoukKit
import SoukMessages
import SoukStore

/// The transitions of both delivery lifecycles: staff assigned by an admin (water services,
/// `WaterDeliveryLifecycle.swift`) and drivers answering offers (food delivery,
/// `FoodDeliveryLifecycle.swift`), each declared with the vertical whose effects it runs.
public enum DeliveryMove: String, TransitionName {
    case start, delay, complete, cancel, accept, reject, expire
}

/// The delivery lifecycles, one per vertical with deliveries, and the food offers' lapse.
public enum DeliveryLifecycles {
    /// An unanswered food offer expires at its `offer_expire_time` (the marketplace's offer
    /// timeout after it was made): the food delivery lifecycle's timer, which fires `expire`.
    public static let offerLapse = LifecycleTimer<SoukStoreV1.Delivery, DeliveryMove>(
        "offer lapse", fires: .expire, at: "offer_expire_time"
    ) { delivery in
        delivery.status == .offered ? delivery.offerExpireTime.map { StoreTime($0) } : nil
    }

    /// The delivery as calls see it at `now`: an offer whose lapse is due is EXPIRED, where
    /// `expire` leaves it, though the scheduler may not have fired the timer yet. Only the timer
    /// writes the expiry; a read shows this, and a call decides on it.
    public static func settled(_ delivery: SoukStoreV1.Delivery, at now: StoreTime) -> SoukStoreV1.Delivery {
        guard let due = offerLapse.due(delivery), due <= now else { return delivery }
        var settled = delivery
        settled.status = .expired
        return settled
    }
}
