import SoukMessages
import SoukStore
import Synchronization

/// The role decision hooks judge: an admin approving or rejecting one pending role.
public struct RoleDecisionSubject: Sendable {
    public let accountID: RecordID
    public let marketplaceID: RecordID
    public let role: SoukV1.Role
    /// True for ApproveRole, false for RejectRole.
    public let approving: Bool
}

/// Where other domains refuse an `Accounts.ApproveRole` or `RejectRole` that would leave their
/// records behind the account (food delivery: a restaurant account is decided together with the
/// restaurant it described, through `Catalog.ApproveRestaurant` / `RejectRestaurant`). A check
/// runs inside the decision's transaction and returns a sentence saying why the decision must be
/// made elsewhere; the call then fails with FAILED_PRECONDITION (INVALID_TRANSITION).
public final class RoleDecisionHooks: Sendable {
    /// Returns why the decision is refused, or nil.
    public typealias Check = @Sendable (RoleDecisionSubject, Transaction) throws -> String?

    private let checks = Mutex<[(String, Check)]>([])

    public init() {}

    /// Adds a check, named for logs (for example "restaurant awaiting approval").
    public func addCheck(_ name: String, _ check: @escaping Check) {
        checks.withLock { $0.append((name, check)) }
    }

    /// The first refusal a check reports, or nil.
    func refusal(_ subject: RoleDecisionSubject, _ transaction: Transaction) throws -> String? {
        for (_, check) in checks.withLock({ $0 }) {
            if let refusal = try check(subject, transaction) { return refusal }
        }
        return nil
    }
}
