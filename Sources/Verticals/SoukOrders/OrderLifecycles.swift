import SoukGRPC
import SoukKit
import SoukMessages

/// The transitions of the order lifecycles (each vertical declares its machine, with the effects
/// of its own, in its module as an extension of `OrderLifecycles`).
public enum OrderMove: String, TransitionName {
    case approve, reject, cancel, complete, ship, deliver, receive, accept, dispatch, reoffer
}

/// An order lifecycle: one `OrderStatus` enum, one machine per vertical.
public typealias OrderLifecycle = StateMachine<SoukStoreV1.Order, SoukV1.OrderStatus, OrderMove>

/// The order lifecycles, declared by the verticals' modules; the shared orders code reaches the
/// one of a marketplace through its `OrderVertical.lifecycle`.
public enum OrderLifecycles {
    /// A courier moves an order only through its own delivery.
    package static let ordersCourier = TransitionGuard<SoukStoreV1.Order>.only(.courier, "only the order's courier") { $0.courierAccountID }
}
