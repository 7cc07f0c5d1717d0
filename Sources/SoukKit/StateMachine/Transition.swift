import SoukMessages

/// One move of a lifecycle: its name, the states it leaves, the state it reaches, who may make
/// it, the guards that may still refuse it and the effects the machine runs with it.
public struct Transition<Subject: Sendable, State: LifecycleState, Name: TransitionName>: Sendable {
    /// What the move is called (`accept`, `cancel`). Several transitions may share a name when
    /// their from-states differ (a laundry job's `advance` from each stage to the next).
    public let name: Name
    public let from: [State]
    public let to: State
    public let roles: [TransitionRole]
    public let guards: [TransitionGuard<Subject>]
    /// The reason a refusal from the wrong state carries; the contract names a few
    /// (CANCEL_NOT_ALLOWED, STAGE_NOT_NEXT), INVALID_TRANSITION otherwise.
    public let refusal: SoukV1.ErrorReason
    /// Run by `fire` after the move, in its transaction, in this order.
    public let effects: [TransitionEffect<Subject>]

    public init(
        _ name: Name, from: [State], to: State, by roles: [TransitionRole], guards: [TransitionGuard<Subject>] = [],
        refusal: SoukV1.ErrorReason = .invalidTransition, effects: [TransitionEffect<Subject>] = []
    ) {
        self.name = name
        self.from = from
        self.to = to
        self.roles = roles
        self.guards = guards
        self.refusal = refusal
        self.effects = effects
    }
}

/// A condition on the record and the actor that must hold for a transition to go ahead.
public struct TransitionGuard<Subject: Sendable>: Sendable {
    /// The rule as a short phrase ("only the assigned Dasher"), shown in refusals and diagrams.
    public let label: String
    public let allows: @Sendable (Subject, AuditActor) -> Bool

    public init(_ label: String, allows: @escaping @Sendable (Subject, AuditActor) -> Bool) {
        self.label = label
        self.allows = allows
    }

    /// An actor in `role` must be the account `account` names on the record; other roles pass.
    public static func only(_ role: SoukV1.Role, _ label: String, account: @escaping @Sendable (Subject) -> String) -> Self {
        TransitionGuard(label) { subject, actor in
            actor.isServer || actor.role != role || (!actor.accountID.isEmpty && account(subject) == actor.accountID)
        }
    }
}
