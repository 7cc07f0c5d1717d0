import SoukStore

/// A timer of a lifecycle, in the way a delayed transition is declared: armed while `due` gives
/// a time for the resource (an offer's expiry while it is offered), re-armed when that time
/// changes and cancelled when it gives none, each in the transaction of the change
/// (`StateMachine.fire`, `create`, `recordChange`). When it falls due the scheduler fires
/// `fires` as the server, or runs the domain's handler for a timer that is not a transition.
public struct LifecycleTimer<Subject: Sendable, Name: TransitionName>: Sendable {
    /// Unique in its machine ("offer lapse").
    public let name: String
    /// When it is due, for the lifecycle page ("offer_expire_time").
    public let at: String
    /// The delayed transition; nil when the domain's handler makes a change that is not one.
    public let fires: Name?
    public let due: @Sendable (Subject) -> StoreTime?

    public init(_ name: String, fires: Name? = nil, at: String, due: @escaping @Sendable (Subject) -> StoreTime?) {
        self.name = name
        self.at = at
        self.fires = fires
        self.due = due
    }
}
