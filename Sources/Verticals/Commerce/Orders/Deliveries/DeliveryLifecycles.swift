import SoukKit

/// The transitions of both delivery lifecycles: staff assigned by an admin (water services,
/// `WaterDeliveryLifecycle.swift`) and drivers answering offers (food delivery,
/// `FoodDeliveryLifecycle.swift`), each declared with the vertical whose effects it runs.
public enum DeliveryMove: String, TransitionName {
    case start, delay, complete, cancel, accept, reject, expire
}

/// The delivery lifecycles, one per vertical with deliveries.
public enum DeliveryLifecycles {}
