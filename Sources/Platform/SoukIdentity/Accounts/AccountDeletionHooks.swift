import SoukMessages
import SoukStore
import Synchronization

/// The account a deletion is about, as hooks see it.
public struct AccountDeletionSubject: Sendable {
    public let accountID: RecordID
    public let marketplaceID: RecordID
    /// Every role and its status before deletion.
    public let roles: [SoukV1.RoleGrant]
}

/// Where other domains take part in `Accounts.DeleteAccount`, which identity alone cannot judge:
///
/// - a **check** refuses the deletion while the account has open obligations (an order or job
///   in progress, an active lease, a bill due): it returns a sentence saying what is open, and
///   the call fails with FAILED_PRECONDITION (OPEN_OBLIGATIONS);
/// - a **cleanup** runs once every check passed, in the same transaction as the deletion
///   (archive the account's listings, take a restaurant offline).
///
/// Both run inside the deletion's store transaction, so they see and lock current data. Domains
/// register at startup, before the server serves (orders, laundry jobs, rentals and catalog
/// register theirs as they are built; today none exist, so deletion is never refused).
public final class AccountDeletionHooks: Sendable {
    /// Returns what open obligation blocks deletion, or nil.
    public typealias Check = @Sendable (AccountDeletionSubject, Transaction) throws -> String?
    /// Tidies the account's resources in the deletion transaction.
    public typealias Cleanup = @Sendable (AccountDeletionSubject, Transaction) throws -> Void

    private let hooks = Mutex<(checks: [(String, Check)], cleanups: [(String, Cleanup)])>(([], []))

    public init() {}

    /// Adds a check, named for logs (for example "orders in progress").
    public func addCheck(_ name: String, _ check: @escaping Check) {
        hooks.withLock { $0.checks.append((name, check)) }
    }

    /// Adds a cleanup, named for logs (for example "archive listings").
    public func addCleanup(_ name: String, _ cleanup: @escaping Cleanup) {
        hooks.withLock { $0.cleanups.append((name, cleanup)) }
    }

    /// The first open obligation a check reports, or nil.
    func openObligation(_ subject: AccountDeletionSubject, _ transaction: Transaction) throws -> String? {
        for (_, check) in hooks.withLock({ $0.checks }) {
            if let obligation = try check(subject, transaction) { return obligation }
        }
        return nil
    }

    func runCleanups(_ subject: AccountDeletionSubject, _ transaction: Transaction) throws {
        for (_, cleanup) in hooks.withLock({ $0.cleanups }) { try cleanup(subject, transaction) }
    }
}
