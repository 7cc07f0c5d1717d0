import SoukMessages

/// Who may fire a transition: an account acting in one of the contract's roles, or the server
/// itself (timeouts, automatic approvals).
public enum TransitionRole: Hashable, Sendable {
    case role(SoukV1.Role)
    /// The server acting on its own (`AuditActor.system`).
    case system

    public static let customer = TransitionRole.role(.customer)
    public static let provider = TransitionRole.role(.provider)
    public static let courier = TransitionRole.role(.courier)
    /// Admits the platform operator too: an operator acts as an admin of every marketplace.
    public static let admin = TransitionRole.role(.admin)

    /// For messages and diagrams: `customer`, `admin`, `system`.
    public var label: String {
        switch self {
        case .role(let role): role.roleLabel
        case .system: "system"
        }
    }
}

extension SoukV1.Role {
    /// `ROLE_CUSTOMER` → `customer`.
    var roleLabel: String { protoName.dropPrefix("ROLE_").lowercased() }
}

extension [TransitionRole] {
    /// Whether `actor` acts in one of these roles. The one place that decides it: the server
    /// only where `.system` is listed, the platform operator wherever `.admin` is, a caller
    /// without a role nowhere.
    func admit(_ actor: AuditActor) -> Bool {
        if actor.isServer { return contains(.system) }
        switch actor.role {
        case .unspecified: return false
        case .operator: return contains(.admin) || contains(.role(.operator))
        case let role: return contains(.role(role))
        }
    }
}

extension String {
    /// The string without `prefix` when it starts with it.
    func dropPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
