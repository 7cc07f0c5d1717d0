import SoukMessages

/// Who the parties of a resource are, by the role each acts in (`[.customer: [order.customerAccountID]]`):
/// what a view passes so that a resource shows the transitions its caller may fire now.
public typealias LifecycleParties = [SoukV1.Role: LifecycleParty]

/// The accounts that are one party of a resource.
public enum LifecycleParty: Sendable {
    /// These accounts (empty ids are nobody).
    case accounts([String])
    /// Any account holding the role as active (the marketplace itself sells in retail and water
    /// services, so every provider is a seller of every order).
    case anyHolder

    /// One account.
    public static func account(_ id: String) -> LifecycleParty { .accounts([id]) }
}

extension StateMachine {
    /// The transitions `call`'s caller may fire on `subject` now, for its resource message's
    /// `available_transitions`: those leaving the current state whose roles admit the caller in
    /// a role it is a party in (`parties`; an admin of the marketplace and an operator act as
    /// admin) and whose guards pass. Transitions only the server fires are never listed. In
    /// declaration order, each name and target once.
    public func available(on subject: Subject, for call: SoukCall, parties: LifecycleParties) -> [SoukV1.AvailableTransition] {
        guard let caller = call.caller else { return [] }
        let me = caller.accountID.description
        var roles: [SoukV1.Role] = parties.compactMap { role, party in
            guard caller.activeRoles.contains(role) else { return nil }
            switch party {
            case .anyHolder: return role
            case .accounts(let ids): return ids.contains(me) ? role : nil
            }
        }
        if caller.isOperator { roles.append(.operator) } else if caller.activeRoles.contains(.admin) { roles.append(.admin) }
        let actors = roles.map { AuditActor(accountID: me, role: $0, action: "available transitions") }
        var shown: [SoukV1.AvailableTransition] = []
        for transition in transitions(from: subject[keyPath: state])
        where actors.contains(where: { actor in transition.roles.admit(actor) && transition.guards.allSatisfy { $0.allows(subject, actor) } }) {
            let available = SoukV1.AvailableTransition(name: transition.name.rawValue, toState: transition.to.protoName)
            if !shown.contains(available) { shown.append(available) }
        }
        return shown
    }
}
