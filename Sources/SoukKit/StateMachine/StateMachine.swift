import SoukGRPC
import SoukMessages

/// A lifecycle declared once: the states a resource starts in, and every transition with its
/// roles and guards. `fire` is the one piece of code that moves a resource through it.
///
///     static let retail = StateMachine<SoukV1.Order, SoukV1.OrderStatus>(
///         "Retail order", resource: .order, state: \.status, initial: [.pending],
///         transitions: [
///             Transition("ship", from: [.pending], to: .shipped, by: [.provider, .admin]),
///             Transition("cancel", from: [.pending], to: .cancelled, by: [.customer, .provider, .admin], refusal: .cancelNotAllowed),
///         ])
public struct StateMachine<Subject: Sendable, State: LifecycleState>: Sendable {
    /// For diagrams ("Retail order").
    public let name: String
    /// The kind of resource: names it in messages, the audit log and its event stream.
    public let resource: SoukV1.ResourceType
    /// Where the record keeps its state.
    public let state: WritableKeyPath<Subject, State> & Sendable
    /// The states a new record may start in.
    public let initial: [State]
    /// In declaration order, which is the order refusals and diagrams list them in.
    public let transitions: [Transition<Subject, State>]
    /// The file that declares it, under `Sources/` (`Platform/SoukPayments/PaymentLifecycle.swift`),
    /// for the diagrams page.
    public let source: String
    /// Whether a Watch RPC follows the resource's event stream, so each move is also appended
    /// there; otherwise moves go to the audit log only.
    public let streamed: Bool

    public init(
        _ name: String, resource: SoukV1.ResourceType, state: WritableKeyPath<Subject, State> & Sendable, initial: [State],
        streamed: Bool = false, transitions: [Transition<Subject, State>], declaredIn source: String = #filePath
    ) {
        self.name = name
        self.source = source.ranges(of: "/Sources/").last.map { String(source[$0.upperBound...]) } ?? source
        self.streamed = streamed
        self.resource = resource
        self.state = state
        self.initial = initial
        self.transitions = transitions
    }

    /// The transitions that leave `state`.
    public func transitions(from state: State) -> [Transition<Subject, State>] {
        transitions.filter { $0.from.contains(state) }
    }

    /// The transition `name` (reaching `target`, when given) that `actor` may fire on `subject`
    /// now. Throws PERMISSION_DENIED (NOT_ALLOWED) when the actor's role may never fire it, and
    /// FAILED_PRECONDITION when the current state or a guard refuses it: the reason is the
    /// transition's refusal (a guard's is INVALID_TRANSITION), and the message names the current
    /// state and the transitions that leave it.
    public func transition(
        _ name: String, on subject: Subject, id: String, by actor: AuditActor, to target: State? = nil
    ) throws -> Transition<Subject, State> {
        let named = transitions.filter { $0.name == name }
        guard let first = named.first else {
            throw RPCError(.internalError, "\(name) is not a transition of the \(self.name) lifecycle")
        }
        guard named.contains(where: { $0.roles.admit(actor) }) else { throw notAllowed(name, actor) }
        let current = subject[keyPath: state]
        let matching = named.filter { $0.from.contains(current) && (target == nil || $0.to == target) }
        let what = "cannot \(name) \(noun) \(id)" + (target.map { " to \($0.protoName)" } ?? "")
        guard !matching.isEmpty else { throw refusal(first.refusal, what, current) }
        guard let transition = matching.first(where: { $0.roles.admit(actor) }) else { throw notAllowed(name, actor) }
        if let failed = transition.guards.first(where: { !$0.allows(subject, actor) }) {
            throw refusal(.invalidTransition, "\(what) (\(failed.label))", current)
        }
        return transition
    }

    /// `order`, `menu item`: the resource as messages name it.
    public var noun: String {
        resource.protoName.dropPrefix("RESOURCE_TYPE_").lowercased().split(separator: "_").joined(separator: " ")
    }

    private func refusal(_ reason: SoukV1.ErrorReason, _ what: String, _ current: State) -> RPCError {
        let next = transitions(from: current)
        let options = next.isEmpty
            ? "a final state"
            : "from which: " + next.map { "\($0.name) → \($0.to.protoName)" }.joined(separator: ", ")
        return RPCError.souk(.failedPrecondition, reason, "\(what): it is \(current.protoName), \(options)")
    }

    private func notAllowed(_ name: String, _ actor: AuditActor) -> RPCError {
        let who = if actor.isServer { "the server" } else if actor.role == .unspecified { "a caller without a role" } else {
            (actor.role == .admin || actor.role == .operator ? "an " : "a ") + actor.role.roleLabel
        }
        return RPCError.souk(.permissionDenied, .notAllowed, "\(who) may not \(name) this \(noun)")
    }
}
